/// Warnings about rules that are legal but cannot mean what their author wanted: a tip whose
/// rules contradict each other (`unsatisfiable`) and a rule that holds in every state
/// (`always-true`). Both are proven over intervals and sets of values per quantity; what the
/// analysis does not understand never produces a warning.
public enum Lints {
    /// Runs every lint over a program the checker accepted, tip by tip, in program order.
    public static func run(_ program: CheckedProgram) -> [Diagnostic] {
        let extraction = ConstraintExtraction(parameters: program.parameters)
        var diagnostics: [Diagnostic] = []
        for tip in program.tips {
            if let diagnostic = UnsatisfiableTips.diagnostic(for: tip, extraction: extraction) {
                diagnostics.append(diagnostic)
            }
            diagnostics += AlwaysTrueRules.diagnostics(for: tip, extraction: extraction)
        }
        return diagnostics
    }
}
