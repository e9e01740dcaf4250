/// The output formats of `tipc check --format`.
public enum ReportFormat: String, Sendable, CaseIterable {
    case text
    case json
    case sarif
    case github

    /// `github` when running under GitHub Actions (`GITHUB_ACTIONS=true`), else `text`.
    public static func automatic(environment: [String: String]) -> ReportFormat {
        environment["GITHUB_ACTIONS"] == "true" ? .github : .text
    }
}
