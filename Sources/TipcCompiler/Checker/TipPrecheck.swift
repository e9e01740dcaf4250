import TipRuntime

/// Checking a program's tips while its file is still being read, each tip as soon as it is
/// decoded, on the thread that decoded it: the syntax tree of a tip is freed as soon as it is
/// made, and checking works on data still in cache. Tips depend only on the program's
/// parameters and events, so this is exact for a one-file program that declares them all before
/// its tips; the caller confirms that once the file is read, and otherwise checks it again the
/// ordinary way.
struct TipPrechecker<Output: CheckedTipOutput>: Sendable {
    private var checker = DeclarationChecker()
    private var expressions: ExpressionChecker
    private var output: Output

    /// A checker of tips for a one-file program whose parameters and events are these.
    init(parameters: [ParameterDecl], events: [EventDecl], makeOutput: ([CheckedParameter]) -> Output) {
        let context = DeclarationChecker.tipCheckingContext(parameters: parameters, events: events)
        expressions = ExpressionChecker(symbols: context.symbols, parameters: context.parameters, events: context.events)
        output = makeOutput(context.parameters)
    }

    /// Checks one tip, in program order, into the output; returns what is kept of it: a
    /// stand-in with only its name (for the program's names, groups and limits).
    mutating func check(_ tip: TipDecl) -> TipDecl {
        checker.check(tip, expressions: &expressions, into: &output)
        return Self.standIn(for: tip)
    }

    /// What is kept of a checked tip: its name and range only.
    static func standIn(for tip: TipDecl) -> TipDecl {
        TipDecl(name: tip.name, range: tip.range)
    }

    /// What checking the tips found, for the program's checker to take in.
    var findings: PrecheckedTips<Output> {
        PrecheckedTips(diagnostics: checker.diagnostics, expressions: expressions, output: output)
    }
}

/// What a `TipPrechecker` found: the tips' own diagnostics, their rules' (with the parameters
/// and events they use), and the output the checked tips went to.
struct PrecheckedTips<Output: CheckedTipOutput>: Sendable {
    var diagnostics: [Diagnostic]
    var expressions: ExpressionChecker
    var output: Output
}
