/// The `--color` setting: whether diagnostics on a terminal are coloured.
public enum ColorChoice: String, Sendable, CaseIterable {
    case always
    case never
    case auto

    /// Whether to colour output written to a stream. `auto` colours a terminal, never when
    /// `NO_COLOR` is set to a non-empty value (no-color.org: an empty one does not count) or
    /// `TERM` is `dumb`, and always when `FORCE_COLOR` is set to a non-empty value other than
    /// `0` or `false` (force-color.org), even off a terminal. `--color` wins over both.
    public func isEnabled(environment: [String: String], isTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if let force = environment["FORCE_COLOR"], !force.isEmpty, force != "0", force != "false" { return true }
            if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }
}
