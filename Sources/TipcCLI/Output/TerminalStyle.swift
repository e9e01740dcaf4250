/// ANSI styling that is either applied or, when colour is off, left out entirely.
public struct TerminalStyle: Sendable, Hashable {
    public var isEnabled: Bool

    public init(isEnabled: Bool) {
        self.isEnabled = isEnabled
    }

    /// The SGR parameters of the styles the reporters use.
    public enum Role: String, Sendable {
        case bold = "1"
        case error = "1;31"
        case warning = "1;33"
        case note = "1;32"
        case gutter = "1;34"
    }

    /// `text` wrapped in the escape sequences for `role`, or `text` alone when disabled.
    public func apply(_ role: Role, _ text: String) -> String {
        guard isEnabled, !text.isEmpty else { return text }
        return "\u{1B}[\(role.rawValue)m\(text)\u{1B}[0m"
    }
}
