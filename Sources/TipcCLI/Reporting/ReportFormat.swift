/// The output formats of `tipc check --format`.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text
    case json
    case sarif
    case github
    /// `path:line:col: error: message [code]`, one a line, as compilers print (Xcode, SwiftPM).
    case xcode

    /// `github` when running under GitHub Actions (`GITHUB_ACTIONS=true`), else `text`.
    public static func automatic(environment: [String: String]) -> ReportFormat {
        environment["GITHUB_ACTIONS"] == "true" ? .github : .text
    }
}

/// How `compile` and `generate` write the program's diagnostics on standard error
/// (`--diagnostics`): for people, or for the IDE or build system that runs them.
public enum DiagnosticStyle: String, Sendable, CaseIterable {
    case text
    case xcode

    static let option = OptionDefinition.choice(
        "diagnostics", of: DiagnosticStyle.self, default: .text,
        help: "How the program's diagnostics are written on stderr: text (with the source line) or xcode (path:line:col: error: message, one a line, for Xcode and SwiftPM; what the build plugin uses).")

    /// The chosen style's rendering of `report`.
    static func render(_ report: DiagnosticReport, _ arguments: ParsedArguments) -> String {
        switch arguments.choice(option, as: DiagnosticStyle.self) ?? .text {
        case .text: return TextReporter(colored: false).render(report)
        case .xcode: return XcodeReporter().render(report)
        }
    }
}
