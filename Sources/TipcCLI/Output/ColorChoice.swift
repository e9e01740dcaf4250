/// The `--color` setting: whether diagnostics on a terminal are coloured.
public enum ColorChoice: String, Sendable, CaseIterable {
    case always
    case never
    case auto

    /// Whether to colour output written to a stream. `auto` colours only a terminal, and
    /// never when `NO_COLOR` is set (to any value, even empty) or `TERM` is `dumb`.
    public func isEnabled(environment: [String: String], isTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if environment["NO_COLOR"] != nil { return false }
            if environment["TERM"] == "dumb" { return false }
            return isTerminal
        }
    }
}
