import TipcCompiler

/// One token of Swift source, as far as the TipKit importer needs to tell tokens apart.
///
/// The reader is tolerant: it knows identifiers, literals, punctuation and operators, and
/// nothing of Swift's grammar beyond balanced brackets. Offsets are UTF-8 byte offsets into
/// the file, so a token's position is exact in the `SourceFile` it came from.
struct SwiftToken: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        /// `name`, `` `name` ``, and keywords (`struct`, `static`, `true`, …).
        case identifier
        /// `$0`, `$name`.
        case dollarIdentifier
        /// `#Rule`, `#if`, `#endif`.
        case poundIdentifier
        /// `@Parameter`, `@available`.
        case attribute
        case integer
        case floatingPoint
        /// A string literal; `text` holds its value (escapes decoded, interpolations kept as
        /// written: `\(name)`).
        case string
        /// A regex literal (`/a+/`, `#/…/#`): nothing TipKit declares, kept whole so that its
        /// quotes and brackets are not read as Swift.
        case regex
        /// `{ } ( ) [ ] , : ; . \`
        case punctuation
        /// A run of operator characters (`==`, `&&`, `!`, `->`, `?`).
        case `operator`
        /// Text that no token starts with; skipped by the reader.
        case unknown
    }

    var kind: Kind
    /// The identifier without backticks, `$`, `#` or `@`; the decoded value of a string; the
    /// spelling of anything else.
    var text: String
    var start: Int
    var end: Int
    /// A string literal with `\(…)` interpolations.
    var isInterpolated = false
    /// The token is the first on its line (Swift ends statements at line breaks).
    var startsLine = false

    func isPunctuation(_ spelling: String) -> Bool { kind == .punctuation && text == spelling }
    func isOperator(_ spelling: String) -> Bool { kind == .operator && text == spelling }
    func isIdentifier(_ spelling: String) -> Bool { kind == .identifier && text == spelling }
}

/// A problem the lexer found (an unterminated string or comment, a limit), by byte offsets.
struct SwiftLexicalProblem: Sendable, Hashable {
    var code: DiagnosticCode
    var message: String
    var start: Int
    var end: Int
}
