/// What the passes after the checker find in a program without errors: constant expressions
/// that overflow or divide by zero (compile errors), and the lints' warnings.
struct LateFindings: Sendable {
    var constantErrors: [Diagnostic] = []
    /// Counted only when there are no constant errors.
    var warnings: [Diagnostic] = []

    init() {}

    /// The findings of the tips `range` of `program`.
    init(_ program: CheckedProgram, tips range: Range<Int>) {
        constantErrors = RulePackCompiler.constantErrors(program, tips: range)
        warnings = Lints.run(program, tips: range)
    }

    /// The findings of collectors, in order.
    init(joining collectors: [Collector]) {
        self = collectors.map(\.findings).reduce(LateFindings()) { $0.followed(by: $1) }
    }

    /// These findings, then `later`'s.
    func followed(by later: LateFindings) -> LateFindings {
        var joined = self
        joined.constantErrors += later.constantErrors
        joined.warnings += later.warnings
        return joined
    }

    /// Finds them tip by tip, as the checker makes each tip (see `CheckedTipOutput`), keeping
    /// none: a tip whose checking found an error is left out (the program's findings are then
    /// not used at all).
    struct Collector: CheckedTipOutput {
        private var folder = ConstantFolder()
        private var lints: Lints.Runner

        init(parameters: [CheckedParameter]) {
            lints = Lints.Runner(parameters: parameters)
        }

        var findings: LateFindings {
            var findings = LateFindings()
            findings.constantErrors = folder.diagnostics
            findings.warnings = lints.diagnostics
            return findings
        }

        mutating func add(_ tip: CheckedTip, isClean: Bool) {
            guard isClean else { return }
            // Rules are read in place: iterating an Array would copy (retain) each one.
            let rules = ContiguousArray(tip.rules)
            for index in rules.indices { _ = folder.fold(rules[index]) }
            lints.lint(tip)
        }

        func reserveCapacity(_ minimumCapacity: Int) {}
    }
}
