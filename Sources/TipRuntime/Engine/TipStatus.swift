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

    /// Parses `pending`, `available`, `invalidated` (any reason) is not representable here:
    /// see `TipStatusPattern`.
    public init?(_ text: String) {
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

/// The testing overrides of TipKit (not persisted). Precedence: `showTips` > `hideTips` >
/// `showAll` > `hideAll`; "show" overrides rules, eligibility and the display frequency.
public struct TestingOverrides: Sendable, Hashable {
    public var showAll = false
    public var hideAll = false
    public var shown: Set<String> = []
    public var hidden: Set<String> = []

    public init() {}

    /// The override's verdict for `tip`, or nil when none applies.
    public func verdict(for tip: String) -> Bool? {
        if shown.contains(tip) { return true }
        if hidden.contains(tip) { return false }
        if showAll { return true }
        if hideAll { return false }
        return nil
    }
}

/// What went wrong with a runtime call; the state is unchanged.
public enum TipCenterError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownTip(String)
    case unknownGroup(String)
    case unknownParameter(String)
    case wrongParameterType(parameter: String, expected: ValueType, actual: ValueType)
    case valueNotAllowed(parameter: String, value: String, allowed: [String])
    case donation(DonationError)
    case store(TipStoreError)
    /// `content(of:locale:values:)` was not given a value for a placeholder the tip's texts use.
    case missingPlaceholderValue(tip: String, placeholder: String)
    /// `content(of:locale:values:)` was given a value of another type than the placeholder's.
    case wrongPlaceholderType(tip: String, placeholder: String, expected: ValueType, actual: ValueType)
    /// A keyed tip was named without a key (each key value is its own instance).
    case missingKey(tip: String, type: ValueType)
    /// A key was given for a tip that declares none.
    case unexpectedKey(tip: String)
    /// The key is not of the type the tip declares.
    case wrongKeyType(tip: String, expected: ValueType, actual: ValueType)
    /// The text between an instance's brackets (`newTrail[abc]`) is not a key of the tip's key type.
    case unreadableKey(tip: String, text: String, expected: ValueType)
    /// A write could not be stamped later than every stamp the store holds without leaving
    /// `RecordBounds` (a stored stamp at the bound, or a clock outside it): refused, since it
    /// could not be the latest; nothing was written.
    case stampOutOfRange(now: Int64, latestStored: Int64)
    /// `recordAction` named an action the tip does not declare (`declared`: the ones it does).
    case unknownAction(tip: String, action: String, declared: [String])
    /// `recordAction` was given an empty id or a date outside `RecordBounds`; nothing was recorded.
    case invalidAction(String)

    public var description: String {
        switch self {
        case .unknownTip(let name): return "no tip named '\(name)'"
        case .unknownGroup(let name): return "no tip group named '\(name)'"
        case .unknownParameter(let name): return "no parameter named '\(name)'"
        case .wrongParameterType(let name, let expected, let actual):
            return "parameter '\(name)' is \(EnglishText.withArticle("\(expected)")), not \(EnglishText.withArticle("\(actual)"))"
        case .valueNotAllowed(let name, let value, let allowed):
            return "'\(value)' is not a value of parameter '\(name)' (allowed: \(allowed.joined(separator: ", ")))"
        case .donation(let error): return error.description
        case .store(let error): return error.description
        case .missingPlaceholderValue(let tip, let placeholder):
            return "no value for placeholder '\(placeholder)' of tip '\(tip)'"
        case .wrongPlaceholderType(let tip, let placeholder, let expected, let actual):
            return "placeholder '\(placeholder)' of tip '\(tip)' is \(EnglishText.withArticle("\(expected)")), not \(EnglishText.withArticle("\(actual)"))"
        case .missingKey(let tip, let type): return "tip '\(tip)' has \(EnglishText.withArticle("\(type)")) key: name an instance, e.g. '\(tip)[\(type == .int ? "1" : "id")]'"
        case .unexpectedKey(let tip): return "tip '\(tip)' has no key: name it without '[…]'"
        case .wrongKeyType(let tip, let expected, let actual):
            return "the key of tip '\(tip)' is \(EnglishText.withArticle("\(expected)")), not \(EnglishText.withArticle("\(actual)"))"
        case .unreadableKey(let tip, let text, let expected):
            return "'\(text)' in '\(tip)[\(text)]' is not \(EnglishText.withArticle("\(expected)")): the key of tip '\(tip)' is \(EnglishText.withArticle("\(expected)")), e.g. '\(tip)[\(expected == .int ? "42" : "id")]'"
        case .invalidAction(let problem): return problem
        case .unknownAction(let tip, let action, let declared):
            return "tip '\(tip)' has no action '\(action)' "
                + (declared.isEmpty ? "(it declares no actions)" : "(its actions: \(declared.joined(separator: ", ")))")
        case .stampOutOfRange(let now, let latestStored):
            let clock = RecordBounds.contains(now) ? "" : "the clock reads \(now) ms, outside \(RecordBounds.description); "
            let stored = latestStored >= RecordBounds.latestMilliseconds
                ? "the store holds a write stamped \(latestStored) ms, at or after the latest stamp allowed (\(ISO8601.string(fromMilliseconds: Int(RecordBounds.latestMilliseconds)))); " : ""
            return "the write cannot be stamped later than every write stored: \(clock)\(stored)nothing was written"
        }
    }
}
