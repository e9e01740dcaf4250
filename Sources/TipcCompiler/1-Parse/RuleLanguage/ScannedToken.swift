/// A token as the parsers read it: plain data (no reference-counted field), so that looking at
/// a token, which the parser does several times per token, costs no retain or release.
///
/// A token's text (a name, a string's contents) is read from the source bytes where it is
/// spelled there as it is; only decoded text (escapes, backticked names) is kept in the token
/// lexer's text table. The public `RuleToken` is the self-contained form of the same token.
///
/// Offsets are stored in 32 bits (source files are at most 64 MiB), which with the fields in
/// this order makes a token 40 bytes: every token is written once and read several times.
struct ScannedToken {
    /// The decoded value of a literal or a name; `nil` numbers mean the literal was invalid
    /// (a diagnostic has been reported).
    enum Value {
        case none
        /// The text is the source bytes `start..<end` (an identifier, a plain parameter name,
        /// the contents of a string without escapes).
        case sourceText(start: UInt32, end: UInt32)
        /// The text is entry `index` of the lexer's text table (string contents with escapes,
        /// backticked names).
        case decodedText(UInt32)
        case integer(Int?)
        case double(Double?)
        /// Duration in seconds.
        case duration(Int?)

        /// The source bytes `start..<end` as text.
        static func source(from start: Int, to end: Int) -> Value {
            .sourceText(start: UInt32(truncatingIfNeeded: start), end: UInt32(truncatingIfNeeded: end))
        }
    }

    var value: Value
    var kind: RuleTokenKind
    /// For an identifier, the keyword it spells (nil for any other word and other kinds).
    var keyword: RuleKeyword?
    /// Whether a line break separates this token from the previous one (or from the start).
    var isAtLineStart: Bool
    private var storedStart: UInt32
    private var storedEnd: UInt32
    /// The file positions of `start` and `end`.
    var startLocation: SourceLocation
    var endLocation: SourceLocation

    @inline(__always)
    init(kind: RuleTokenKind, keyword: RuleKeyword?, isAtLineStart: Bool, start: Int, end: Int, value: Value,
         startLocation: SourceLocation, endLocation: SourceLocation) {
        self.value = value
        self.kind = kind
        self.keyword = keyword
        self.isAtLineStart = isAtLineStart
        storedStart = UInt32(truncatingIfNeeded: start)
        storedEnd = UInt32(truncatingIfNeeded: end)
        self.startLocation = startLocation
        self.endLocation = endLocation
    }

    /// UTF-8 offset of the first byte.
    var start: Int { Int(storedStart) }
    /// UTF-8 offset just past the last byte.
    var end: Int { Int(storedEnd) }

    /// Whether this is the plain identifier `keyword`.
    func isKeyword(_ keyword: RuleKeyword) -> Bool {
        self.keyword == keyword
    }
}
