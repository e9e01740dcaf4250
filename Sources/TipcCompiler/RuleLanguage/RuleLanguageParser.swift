/// The shared machinery of the rule-language parsers: a cursor over the tokens, source
/// ranges, diagnostics and the size limits. The grammar itself lives in the extensions
/// `RuleLanguageParser+Expressions` and `RuleLanguageParser+Declarations` and follows
/// `Grammar/tips.ebnf`.
final class RuleLanguageParser {
    let stream: RuleTokenStream
    /// The number of the file the text is in (every range the parser makes is in it).
    private(set) var fileNumber: UInt32
    /// In `.tips` files a line break ends an expression outside brackets, unless the next line
    /// starts with an infix operator; in rule text from YAML line breaks are plain spaces.
    let lineBreaksEndExpressions: Bool
    var index = 0
    var diagnostics: [Diagnostic]

    /// Brackets `(` `[` open around the current token inside an expression.
    var openGroups = 0
    /// Nesting levels entered (parentheses, `not`, unary minus, arguments, lists).
    var nesting = 0
    /// Syntax-tree nodes built for the current rule.
    var nodeCount = 0
    /// Binary operators, `within`, `in` and `.member`s read in the current rule.
    var operatorCount = 0
    var reportedNestingLimit = false
    /// Set once `RuleParser.maximumErrorCount` errors were reported: the text is no longer read.
    var reportedErrorLimit = false
    /// Set when the current rule exceeded a size limit: it is skipped and becomes `.error`.
    var isAbandoned = false
    /// The first comment not yet attached to a declaration.
    var commentCursor = 0

    /// The text being parsed.
    var bytes: UnsafeBufferPointer<UInt8> { stream.bytes }

    init<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText, lineBreaksEndExpressions: Bool) {
        self.stream = RuleTokenStream(bytes: bytes, source: source)
        self.fileNumber = source.pathNumber
        self.lineBreaksEndExpressions = lineBreaksEndExpressions
        self.diagnostics = []
    }

    /// Starts over on the text of `source` with the same settings, reusing this parser's memory.
    func reset(source: consuming RuleText) {
        fileNumber = source.pathNumber
        stream.reset(source: source)
        resetState()
    }

    /// Starts over on the same text, lexing it on demand.
    func rewind() {
        stream.rewind()
        resetState()
    }

    /// The state of a parser that has read nothing.
    private func resetState() {
        index = 0
        if !diagnostics.isEmpty { diagnostics.removeAll(keepingCapacity: true) }
        openGroups = 0
        nesting = 0
        nodeCount = 0
        operatorCount = 0
        reportedNestingLimit = false
        reportedErrorLimit = false
        isAbandoned = false
        commentCursor = 0
    }

    // MARK: - Cursor

    var current: ScannedToken { stream.token(index) }
    /// The kind of the current token.
    var currentKind: RuleTokenKind { stream.token(index).kind }
    /// The keyword the current token spells (see `ScannedToken.keyword`).
    var currentKeyword: RuleKeyword? { stream.token(index).keyword }
    /// Whether a line break precedes the current token.
    var currentIsAtLineStart: Bool { stream.token(index).isAtLineStart }
    @inline(__always)
    var isAtEnd: Bool { currentKind == .endOfFile }

    func token(after offset: Int) -> ScannedToken { stream.token(index + offset) }

    /// Moves past the current token (never past the end) and returns it.
    @discardableResult
    @inline(__always)
    func advance() -> ScannedToken {
        let token = current
        if token.kind != .endOfFile { index += 1 }
        return token
    }

    /// Moves past the current token (never past the end).
    @inline(__always)
    func skipToken() {
        if currentKind != .endOfFile { index += 1 }
    }

    /// `skipToken()` where the current token is known not to be the end of the text (its kind
    /// was just read), without reading it again.
    @inline(__always)
    func stepPastCurrent() {
        index += 1
    }

    /// The name of an identifier, quoted name or parameter; the contents of a string.
    func text(of token: ScannedToken) -> String { stream.text(of: token) }

    /// Whether the current token is the plain identifier `word` (declaration words, which
    /// are not `RuleKeyword`s, included).
    func isAtWord(_ word: StaticString) -> Bool {
        let token = current
        guard token.kind == .identifier, token.end - token.start == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { $0.elementsEqual(bytes[token.start..<token.end]) }
    }

    // MARK: - Ranges

    /// The range of token `tokenIndex`.
    @inline(__always)
    func range(ofToken tokenIndex: Int) -> SourceRange {
        let token = stream.lexedToken(tokenIndex)
        return SourceRange(fileNumber: fileNumber, start: token.startLocation, end: token.endLocation)
    }

    /// From the start of token `first` to the end of token `last`.
    @inline(__always)
    func range(fromToken first: Int, toToken last: Int) -> SourceRange {
        SourceRange(fileNumber: fileNumber, start: stream.lexedToken(first).startLocation,
                    end: stream.lexedToken(max(first, last)).endLocation)
    }

    /// A zero-width range where token `tokenIndex` starts.
    func emptyRange(atToken tokenIndex: Int) -> SourceRange {
        SourceRange(fileNumber: fileNumber, at: stream.lexedToken(tokenIndex).startLocation)
    }

    /// From the start of token `first` to the end of the last token consumed.
    func range(since first: Int) -> SourceRange {
        range(fromToken: first, toToken: max(first, index - 1))
    }

    // MARK: - Diagnostics

    /// The lexer's and the parser's diagnostics in reading order.
    var diagnosticsInOrder: [Diagnostic] {
        if !hasDiagnostics { return [] }
        return (stream.diagnostics + diagnostics).enumerated().sorted { a, b in
            a.element.range.start != b.element.range.start ? a.element.range.start < b.element.range.start : a.offset < b.offset
        }.map(\.element)
    }

    /// Whether the lexer or the parser reported anything.
    @inline(__always)
    var hasDiagnostics: Bool { stream.hasDiagnostics || !diagnostics.isEmpty }

    func report(_ code: DiagnosticCode, _ message: String, at range: SourceRange, help: String? = nil,
                         notes: [DiagnosticNote] = []) {
        guard !reportedErrorLimit else { return }
        if diagnostics.count + stream.diagnostics.count >= RuleParser.maximumErrorCount {
            // Stop reading: garbage must not cost a diagnostic per byte.
            reportedErrorLimit = true
            diagnostics.append(Diagnostic(.limit, "more than \(RuleParser.maximumErrorCount) errors; the rest of the text is not read", at: range))
            stream.abandon()
            index = min(index, stream.lexedCount - 1)
            return
        }
        diagnostics.append(Diagnostic(code, message, at: range, help: help, notes: notes))
    }

    /// Reports "expected X, found Y" at the current token.
    func reportExpected(_ expected: String, help: String? = nil, notes: [DiagnosticNote] = []) {
        let at = isAtEnd ? emptyRange(atToken: index) : range(ofToken: index)
        report(.syntax, "expected \(expected), found \(describe(current))", at: at, help: help, notes: notes)
    }

    /// How a token is named in a diagnostic.
    func describe(_ token: ScannedToken) -> String {
        switch token.kind {
        case .endOfFile: return lineBreaksEndExpressions ? "end of file" : "end of rule"
        case .identifier:
            if let keyword = token.keyword { return "keyword '\(keyword.spelling)'" }
            return "'\(text(of: token))'"
        case .quotedName: return "'`\(text(of: token))`'"
        case .parameter: return "parameter '$\(text(of: token))'"
        case .integer: return "integer literal '\(spelling(of: token))'"
        case .double: return "floating-point literal '\(spelling(of: token))'"
        case .duration: return "duration '\(spelling(of: token))'"
        case .string: return "string literal"
        default: return "'\(spelling(of: token))'"
        }
    }

    /// The token's text as written.
    func spelling(of token: ScannedToken) -> String {
        switch token.kind {
        case .leftParen: return "("
        case .rightParen: return ")"
        case .leftBracket: return "["
        case .rightBracket: return "]"
        case .leftBrace: return "{"
        case .rightBrace: return "}"
        case .comma: return ","
        case .colon: return ":"
        case .dot: return "."
        case .assign: return "="
        case .plus: return "+"
        case .minus: return "-"
        case .star: return "*"
        case .slash: return "/"
        case .percent: return "%"
        case .equalEqual: return "=="
        case .bangEqual: return "!="
        case .less: return "<"
        case .lessEqual: return "<="
        case .greater: return ">"
        case .greaterEqual: return ">="
        case .bang: return "!"
        case .ampAmp: return "&&"
        case .pipePipe: return "||"
        case .endOfFile: return ""
        case .identifier, .quotedName, .parameter, .string:
            return text(of: token)
        case .integer, .double, .duration:
            return sourceText(from: token.start, to: token.end)
        }
    }

    private func sourceText(from start: Int, to end: Int) -> String {
        guard start >= 0, end <= bytes.count, start <= end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
