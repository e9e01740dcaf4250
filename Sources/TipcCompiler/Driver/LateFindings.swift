/// What the passes after the checker find in a program without errors: constant expressions
/// that overflow or divide by zero (compile errors), and the lints' warnings.
struct LateFindings: Sendable {
    var constantErrors: [Diagnostic] = []
    /// Counted only when there are no constant errors.
    var warnings: [Diagnostic] = []

    init() {}

    /// The findings of the tips `range` of `program`.
    init(_ program: CheckedProgram, tips range: Range<Int>) {
        var collector = Collector(parameters: program.parameters)
        // Tips are read in place: copying one (as `for tip in` does) costs a retain per field.
        program.tips.withUnsafeBufferPointer { tips in
            for tip in range { collector.add(tips[tip], isClean: true, mayFold: true) }
        }
        self = collector.findings
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

        mutating func add(_ tip: CheckedTip, isClean: Bool, mayFold: Bool) {
            guard isClean else { return }
            if mayFold { folder.reportErrors(in: tip) }
            lints.lint(tip)
        }

        func reserveCapacity(_ minimumCapacity: Int) {}
    }
}
