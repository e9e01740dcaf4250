/// Warnings about rules that are legal but cannot mean what their author wanted: a tip whose
/// rules contradict each other (`unsatisfiable`) and a rule that holds in every state
/// (`always-true`). Both are proven over intervals and sets of values per quantity; what the
/// analysis does not understand never produces a warning.
public enum Lints {
    /// Runs every lint over a program the checker accepted, tip by tip, in program order.
    public static func run(_ program: CheckedProgram) -> [Diagnostic] {
        run(program, tips: program.tips.indices)
    }

    /// Runs every lint over the tips `range` of a program the checker accepted, in order.
    public static func run(_ program: CheckedProgram, tips range: Range<Int>) -> [Diagnostic] {
        var extraction = ConstraintExtraction(parameters: program.parameters)
        var diagnostics: [Diagnostic] = []
        var outcomes: [RuleOutcomes] = []
        // Tips are read in place: copying one (as `for tip in` does) costs a retain per field.
        program.tips.withUnsafeBufferPointer { tips in
            for tip in range {
                extraction.startTip()
                let sharesQuantities = extraction.outcomes(ofRules: tips[tip].rules, into: &outcomes)
                // The quick answers from the outcomes settle most tips; the rest get the full analysis.
                if !UnsatisfiableTips.holdTogether(outcomes, sharesQuantities: sharesQuantities),
                   let diagnostic = UnsatisfiableTips.diagnostic(for: tips[tip], extraction: &extraction) {
                    diagnostics.append(diagnostic)
                }
                if AlwaysTrueRules.mayApply(to: outcomes) {
                    AlwaysTrueRules.diagnose(tips[tip], outcomes: outcomes, extraction: &extraction, into: &diagnostics)
                }
            }
        }
        return diagnostics
    }
}
