/// The key of one instance of a keyed tip: an Int or a String, as
/// the tip declares.
public enum TipKey: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The key of a tip whose key is an Int.
    case int(Int64)
    /// The key of a tip whose key is a String.
    case string(String)

    /// The key's type (`.int` or `.string`).
    public var type: ValueType {
        switch self {
        case .int: return .int
        case .string: return .string
        }
    }

    /// The key as a rule reads it.
    public var value: RuntimeValue {
        switch self {
        case .int(let number): return .int(number)
        case .string(let text): return .string(text)
        }
    }

    /// The key as written between the brackets of `tip[KEY]`: an Int in decimal, a String
    /// verbatim (no quotes).
    public var description: String {
        switch self {
        case .int(let number): return String(number)
        case .string(let text): return text
        }
    }

    /// The key of type `type` written as `text` between brackets; nil when `text` is not one.
    package init?(_ text: String, as type: ValueType) {
        switch type {
        case .int:
            guard let number = Int64(text) else { return nil }
            self = .int(number)
        case .string:
            self = .string(text)
        case .bool, .double, .date, .duration:
            return nil
        }
    }

    /// Ints before Strings; Ints by value, Strings by their UTF-8 bytes (as SQLite orders text).
    public static func < (a: TipKey, b: TipKey) -> Bool {
        switch (a, b) {
        case (.int(let x), .int(let y)): return x < y
        case (.string(let x), .string(let y)): return x.utf8.lexicographicallyPrecedes(y.utf8)
        case (.int, .string): return true
        case (.string, .int): return false
        }
    }
}

/// One tip as the runtime tracks it: a tip of the pack, or one instance of a keyed tip. Each
/// instance is its own tip for status, displays, invalidation and the display-frequency gap.
public struct TipInstance: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The tip's name.
    public var tip: String
    /// Nil for a tip without a key.
    public var key: TipKey?

    /// The tip `tip`, or its instance for `key`.
    public init(tip: String, key: TipKey? = nil) {
        self.tip = tip
        self.key = key
    }

    /// `newTrail[42]` for an instance, the tip's name for a tip without a key.
    public var description: String {
        guard let key else { return tip }
        return "\(tip)[\(key)]"
    }

    /// Splits `newTrail[42]` into the tip's name and the key's text (nil when there are no
    /// brackets): the key's type comes from the pack (`PackTip.key`).
    package static func split(_ text: String) -> (tip: String, key: String?) {
        guard text.hasSuffix("]"), let open = text.firstIndex(of: "[") else { return (text, nil) }
        let name = String(text[..<open])
        let key = String(text[text.index(after: open)..<text.index(before: text.endIndex)])
        return (name, key)
    }

    public static func < (a: TipInstance, b: TipInstance) -> Bool {
        if a.tip != b.tip { return a.tip.utf8.lexicographicallyPrecedes(b.tip.utf8) }
        switch (a.key, b.key) {
        case (nil, nil): return false
        case (nil, _): return true
        case (_, nil): return false
        case (let x?, let y?): return x < y
        }
    }
}

/// The key a tip declares: its name in the tip's rules and its type (Int or String).
public struct PackTipKey: Sendable, Hashable {
    /// The key's name in the tip's rules.
    public package(set) var name: String
    /// The key's type: `.int` or `.string`.
    public package(set) var type: ValueType

    package init(name: String, type: ValueType) {
        self.name = name
        self.type = type
    }
}
