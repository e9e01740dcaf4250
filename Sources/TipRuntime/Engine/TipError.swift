/// Every error of the runtime's API, each with a stable `code` and a `message` for people: a
/// pack that does not load, a name the pack does not declare, a value of the wrong type, a
/// store that failed. A call that throws has recorded nothing it was asked to record.
public enum TipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `RulePackLoader` was given bytes that are not a valid pack (what is wrong, and where).
    case invalidPack(RulePackError)
    /// `RulePackLoader.load(contentsOf:)` could not read the file.
    case unreadablePack(path: String, reason: String)
    /// The pack declares no tip of this name.
    case unknownTip(String)
    /// The pack declares no group of this name.
    case unknownGroup(String)
    /// The pack declares no parameter of this name.
    case unknownParameter(String)
    /// A parameter was given a value of another type than the one it declares.
    case wrongParameterType(parameter: String, expected: ValueType, actual: ValueType)
    /// An enum-like String parameter was given a value outside the ones it allows.
    case valueNotAllowed(parameter: String, value: String, allowed: [String])
    /// A Double parameter was given NaN or an infinity, which no rule could compare.
    case nonFiniteValue(parameter: String, value: Double)
    /// A donation was refused (an unknown event, a payload that does not fit it); nothing was stored.
    case donation(DonationError)
    /// The store failed: it could not be opened, read or written (locked, read-only, corrupt,
    /// unreachable). Nothing the call was asked to record was recorded.
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
    /// A write could not be stamped later than every stamp the store holds without leaving the
    /// years 0000–9999 (a stored stamp at the bound, or a clock outside them): refused, since it
    /// could not be the latest; nothing was written. The instants are milliseconds since 1970,
    /// kept exact, since they may be beyond what a `Date` holds exactly.
    case stampOutOfRange(now: Int64, latestStored: Int64)
    /// `recordAction` named an action the tip does not declare (`declared`: the ones it does).
    case unknownAction(tip: String, action: String, declared: [String])
    /// `recordAction` was given an empty id or a date outside the years 0000–9999; nothing was
    /// recorded.
    case invalidAction(String)
    /// A time on screen that is not a number, infinite or negative; nothing was recorded.
    case invalidDuration(Double)
    /// A `Date` or `TimeInterval` the runtime cannot keep: a value (`RuntimeValue.date(_:)`,
    /// `.duration(_:)`) that is not finite or does not fit in 64-bit milliseconds, or a store's
    /// busy timeout that is not a number or is negative (what is wrong, in a sentence).
    case unrepresentableTime(String)
    /// `replacePack` was given a pack that drops or retypes a tip, parameter, event or group
    /// of the running one (each named in a sentence); the runtime kept its pack.
    case incompatiblePack([String])

    /// A stable, kebab-case name of the kind of error (`unknown-tip`), for logs and for code
    /// that tells errors apart without matching cases.
    public var code: String {
        switch self {
        case .invalidPack: return "invalid-pack"
        case .unreadablePack: return "unreadable-pack"
        case .unknownTip: return "unknown-tip"
        case .unknownGroup: return "unknown-group"
        case .unknownParameter: return "unknown-parameter"
        case .wrongParameterType: return "wrong-parameter-type"
        case .valueNotAllowed: return "value-not-allowed"
        case .nonFiniteValue: return "non-finite-double"
        case .donation(let error):
            switch error {
            case .unknownEvent, .unknownEventName: return "unknown-event"
            case .wrongFieldCount: return "wrong-field-count"
            case .wrongFieldType: return "wrong-field-type"
            case .unknownField: return "unknown-field"
            case .missingField: return "missing-field"
            case .nonFiniteDouble: return "non-finite-double"
            case .dateOutOfRange: return "date-out-of-range"
            }
        case .store: return "store-failed"
        case .missingPlaceholderValue: return "missing-placeholder-value"
        case .wrongPlaceholderType: return "wrong-placeholder-type"
        case .missingKey: return "missing-key"
        case .unexpectedKey: return "unexpected-key"
        case .wrongKeyType: return "wrong-key-type"
        case .unreadableKey: return "wrong-key-type"
        case .stampOutOfRange: return "stamp-out-of-range"
        case .unknownAction: return "unknown-action"
        case .invalidAction: return "invalid-action"
        case .invalidDuration: return "invalid-duration"
        case .unrepresentableTime: return "unrepresentable-time"
        case .incompatiblePack: return "incompatible-pack"
        }
    }

    /// What went wrong, in a sentence (the same as `description`).
    public var message: String { description }

    public var description: String {
        switch self {
        case .invalidPack(let error): return error.description
        case .unreadablePack(let path, let reason): return "cannot read the rule pack '\(path)': \(reason)"
        case .unknownTip(let name): return "no tip named '\(name)'"
        case .unknownGroup(let name): return "no tip group named '\(name)'"
        case .unknownParameter(let name): return "no parameter named '\(name)'"
        case .wrongParameterType(let name, let expected, let actual):
            return "parameter '\(name)' is \(EnglishText.withArticle("\(expected)")), not \(EnglishText.withArticle("\(actual)"))"
        case .nonFiniteValue(let parameter, let value):
            return "parameter '\(parameter)' must be a finite number, not \(value); nothing was changed"
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
        case .invalidDuration(let seconds): return "a time on screen must be a finite number of seconds, zero or more, not \(seconds); nothing was recorded"
        case .unrepresentableTime(let problem): return problem
        case .incompatiblePack(let dropped):
            return "the new pack does not keep what the running one declares: \(dropped.joined(separator: "; ")); the runtime kept its pack"
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
