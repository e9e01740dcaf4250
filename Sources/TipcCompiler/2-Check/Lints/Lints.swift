import TipRuntime

/// Warnings about rules that are legal but cannot mean what their author wanted: a tip whose
/// rules contradict each other (`unsatisfiable`) and a rule that holds in every state
/// (`always-true`). Both are proven over intervals and sets of values per quantity; what the
/// analysis does not understand never produces a warning.
public enum Lints {
    /// Runs every lint over a program the checker accepted, tip by tip, in program order.
    public static func run(_ program: CheckedProgram) -> [Diagnostic] {
        var runner = Runner(parameters: program.parameters)
        // Tips are read in place: copying one (as `for tip in` does) costs a retain per field.
        program.tips.withUnsafeBufferPointer { tips in
            for index in tips.indices { runner.lint(tipAt: index, of: tips) }
        }
        return runner.diagnostics
    }

    /// Runs the lints over tips one at a time, as they come (each tip is linted on its own).
    struct Runner {
        private var extraction: ConstraintExtraction
        private var outcomes: [RuleOutcomes] = []
        /// The warnings so far, in the order the tips came.
        private(set) var diagnostics: [Diagnostic] = []

        /// A runner for the tips of a program with these (checked) parameters.
        init(parameters: [PackParameter]) {
            extraction = ConstraintExtraction(parameters: parameters)
        }

        /// Lints one tip that checked without errors, `tips[index]`. Only its rules are read for
        /// the quick answers; the whole tip is copied out of the buffer (a retain per field)
        /// only for the full analysis.
        mutating func lint(tipAt index: Int, of tips: UnsafeBufferPointer<CheckedTip>) {
            extraction.startTip()
            let sharesQuantities = extraction.outcomes(ofRules: tips[index].rules, into: &outcomes)
            // The quick answers from the outcomes settle most tips; the rest get the full analysis.
            if !UnsatisfiableTips.holdTogether(outcomes, sharesQuantities: sharesQuantities),
               let diagnostic = UnsatisfiableTips.diagnostic(for: tips[index], extraction: &extraction) {
                diagnostics.append(diagnostic)
            }
            if AlwaysTrueRules.mayApply(to: outcomes) {
                AlwaysTrueRules.diagnose(tips[index], outcomes: outcomes, extraction: &extraction, into: &diagnostics)
            }
        }
    }
}
