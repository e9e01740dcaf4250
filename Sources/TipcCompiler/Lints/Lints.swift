/// Warnings about rules that are legal but cannot mean what their author wanted: a tip whose
/// rules contradict each other (`unsatisfiable`) and a rule that holds in every state
/// (`always-true`). Both are proven over intervals and sets of values per quantity; what the
/// analysis does not understand never produces a warning.
public enum Lints {
    /// The most tips linted on one thread: a larger program's tips are linted in two halves
    /// on two threads.
    static let tipsPerThread = 1_024

    /// Runs every lint over a program the checker accepted, tip by tip, in program order.
    public static func run(_ program: CheckedProgram) -> [Diagnostic] {
        let count = program.tips.count
        guard count > tipsPerThread else { return run(program, tips: 0..<count) }
        // Each tip is linted on its own, so the halves' warnings, in order, are the program's.
        let (first, second) = concurrently({ run(program, tips: 0..<count / 2) }, { run(program, tips: count / 2..<count) })
        return first + second
    }

    /// The lints of the tips in `range`, in order.
    private static func run(_ program: CheckedProgram, tips range: Range<Int>) -> [Diagnostic] {
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
