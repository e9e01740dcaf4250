/// A tip's status (TipKit's `Tip.Status`).
public enum TipStatus: Sendable, Hashable, CustomStringConvertible {
    /// Its rules do not all hold now.
    case pending
    /// Its rules hold and it has not been invalidated.
    case available
    /// It was invalidated, and stays so until `resetEligibility` or a store reset.
    case invalidated(InvalidationReason)

    /// `pending`, `available`, or `invalidated(REASON)`, as timelines and the CLI write it.
    public var description: String {
        switch self {
        case .pending: return "pending"
        case .available: return "available"
        case .invalidated(let reason): return "invalidated(\(reason.rawValue))"
        }
    }

    /// Parses what `description` writes: `pending`, `available`, `invalidated(tipClosed)`.
    package init?(_ text: String) {
        switch text {
        case "pending": self = .pending
        case "available": self = .available
        default:
            guard text.hasPrefix("invalidated("), text.hasSuffix(")"),
                  let reason = InvalidationReason(rawValue: String(text.dropFirst(12).dropLast())) else { return nil }
            self = .invalidated(reason)
        }
    }
}

/// The testing overrides of TipKit (not persisted). Precedence: `shown` > `hidden` >
/// `showAll` > `hideAll`; "show" overrides rules, eligibility and the display frequency.
public struct TestingOverrides: Sendable, Hashable {
    /// Every tip should display (`showAllTipsForTesting`).
    public package(set) var showAll = false
    /// No tip should display (`hideAllTipsForTesting`).
    public package(set) var hideAll = false
    /// The tips that should display (`showTipsForTesting`).
    public package(set) var shown: Set<String> = []
    /// The tips that should not display (`hideTipsForTesting`).
    public package(set) var hidden: Set<String> = []

    /// No override.
    package init() {}

    /// The override's verdict for `tip`, or nil when none applies.
    package func verdict(for tip: String) -> Bool? {
        if shown.contains(tip) { return true }
        if hidden.contains(tip) { return false }
        if showAll { return true }
        if hideAll { return false }
        return nil
    }
}
