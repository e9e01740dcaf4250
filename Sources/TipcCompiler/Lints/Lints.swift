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
            for tip in tips.indices { runner.lint(tips[tip]) }
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

        /// Lints one tip that checked without errors.
        mutating func lint(_ tip: CheckedTip) {
            extraction.startTip()
            let sharesQuantities = extraction.outcomes(ofRules: tip.rules, into: &outcomes)
            // The quick answers from the outcomes settle most tips; the rest get the full analysis.
            if !UnsatisfiableTips.holdTogether(outcomes, sharesQuantities: sharesQuantities),
               let diagnostic = UnsatisfiableTips.diagnostic(for: tip, extraction: &extraction) {
                diagnostics.append(diagnostic)
            }
            if AlwaysTrueRules.mayApply(to: outcomes) {
                AlwaysTrueRules.diagnose(tip, outcomes: outcomes, extraction: &extraction, into: &diagnostics)
            }
        }
    }
}
