/// The kinds of token of the `.tips` language and of rule expressions.
///
/// Keywords (`and`, `or`, `not`, `within`, `in`, `true`, `false`, `now`, and the declaration
/// words of `.tips` files) are lexed as identifiers: which words are keywords depends on where
/// they stand, and a backticked name (`` `and` ``) is never one.
public enum RuleTokenKind: Sendable, Hashable {
    /// A plain identifier `[A-Za-z_][A-Za-z0-9_]*` (keywords included).
    case identifier
    /// A name written in backticks; `text` is the name without them.
    case quotedName
    /// `$name` or `` $`name` ``; `text` is the name.
    case parameter
    case integer
    case double
    case string
    case duration
    case leftParen, rightParen, leftBracket, rightBracket, leftBrace, rightBrace
    case comma, colon, dot
    /// A single `=` (parameter defaults in `.tips` files).
    case assign
    case plus, minus, star, slash, percent
    case equalEqual, bangEqual, less, lessEqual, greater, greaterEqual
    case bang, ampAmp, pipePipe
    case endOfFile
}

/// A token: its kind, its UTF-8 extent in the text and its decoded value.
public struct RuleToken: Sendable, Hashable {
    /// The value a literal or name token carries; `nil` payloads mean the literal was invalid
    /// (a diagnostic has been reported).
    public enum Value: Sendable, Hashable {
        case none
        /// Identifier, quoted name or parameter name; string contents (escapes decoded).
        case text(String)
        case integer(Int?)
        case double(Double?)
        /// Duration in seconds.
        case duration(Int?)
    }

    public var kind: RuleTokenKind
    /// UTF-8 offset of the first byte.
    public var start: Int
    /// UTF-8 offset just past the last byte.
    public var end: Int
    public var value: Value
    /// Whether a line break separates this token from the previous one (or from the start).
    public var isAtLineStart: Bool

    public init(kind: RuleTokenKind, start: Int, end: Int, value: Value = .none, isAtLineStart: Bool) {
        self.kind = kind
        self.start = start
        self.end = end
        self.value = value
        self.isAtLineStart = isAtLineStart
    }

    /// The name of an identifier, quoted name or parameter; the contents of a string.
    public var text: String {
        if case .text(let text) = value { return text }
        return ""
    }

    /// Whether this is the plain identifier `word` (a keyword in that position).
    public func isKeyword(_ word: String) -> Bool {
        kind == .identifier && text == word
    }
}

/// A `//` comment, kept for the declaration it precedes.
public struct RuleComment: Sendable, Hashable {
    /// The text after `//` and one following space, without trailing whitespace.
    public var text: String
    public var start: Int
    /// Whether only whitespace precedes the comment on its line.
    public var isOnOwnLine: Bool
}
