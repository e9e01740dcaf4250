import TipRuntime

/// The rule language's lexer: splits text into tokens. Never fails: a problem (an unexpected
/// character, an unterminated string, a bad escape, an invalid duration, an integer too large)
/// is reported as a diagnostic and lexing goes on. Comments are collected separately.
///
/// A lexer is the state of one pass over `bytes`, which its owner keeps alive: the parser lexes
/// on demand through one (`RuleParser+Tokens`), `lex(_:)` a whole text at once. A value, so
/// that lexing a text checks no access to it at run time.
public struct RuleLexer {
    private(set) var comments: [RuleComment] = []
    private(set) var diagnostics: [Diagnostic] = []
    /// The decoded texts that tokens refer to (`ScannedToken.Value.decodedText`).
    private(set) var texts: [String] = []

    private var bytes: UnsafeBufferPointer<UInt8>
    /// The positions of tokens; its `source` places diagnostics too.
    private var locations: TokenLocationCursor
    private var position = 0
    /// Set at the error limit: the rest of the text is not scanned.
    private var stopped = false
    private var sawLineBreak = true
    private var lineHasContent = false

    init(bytes: UnsafeBufferPointer<UInt8>, source: consuming RuleText) {
        self.bytes = bytes
        locations = TokenLocationCursor(bytes: bytes, source: source)
        position = Self.startsWithByteOrderMark(bytes) ? 3 : 0
    }

    /// Starts over on another text (see `RuleParser.reset(source:)`).
    /// `isASCII` tells whether the bytes are all ASCII, when known.
    mutating func reset(bytes: UnsafeBufferPointer<UInt8>, source: consuming RuleText, isASCII: Bool?) {
        self.bytes = bytes
        locations.reset(bytes: bytes, source: source, isASCII: isASCII)
        rewind()
    }

    /// Starts over on the same text.
    mutating func rewind() {
        locations.rewind()
        if !comments.isEmpty { comments.removeAll(keepingCapacity: true) }
        if !diagnostics.isEmpty { diagnostics.removeAll(keepingCapacity: true) }
        if !texts.isEmpty { texts.removeAll(keepingCapacity: true) }
        position = Self.startsWithByteOrderMark(bytes) ? 3 : 0
        stopped = false
        sawLineBreak = true
        lineHasContent = false
    }

    private static func startsWithByteOrderMark(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// The next token; `.endOfFile` at the end (again and again).
    @inline(__always)
    mutating func next() -> ScannedToken {
        while !stopped {
            skipTrivia()
            guard position < bytes.count else { break }
            if let token = scanToken() { return token }
        }
        return endOfText()
    }

    /// Appends the rest of the tokens to `tokens`, the end-of-file token last.
    mutating func lexToEnd(into tokens: inout [ScannedToken]) {
        while true {
            let token = next()
            tokens.append(token)
            if token.kind == .endOfFile { return }
        }
    }

    /// The end-of-file token, at the end of the text.
    mutating func endOfText() -> ScannedToken {
        token(.endOfFile, from: bytes.count, to: bytes.count, atLineStart: true)
    }

    /// The text a token's value refers to: the name of an identifier, quoted name or
    /// parameter, the contents of a string; "" for values of other kinds.
    ///
    /// Inlined: the parser asks for the text of nearly every name and string.
    @inline(__always)
    func text(of value: ScannedToken.Value) -> String {
        switch value {
        case .sourceText(let start, let end): return Self.string(bytes[Int(start)..<Int(end)])
        case .decodedText(let index): return texts[Int(index)]
        default: return ""
        }
    }

    /// `bytes` as a string, through the standard library's initializer that makes a small
    /// ASCII string (at most 15 bytes: nearly every name) without validating it first, which
    /// `String(decoding:as:)` does; other bytes are validated (and repaired) as there.
    @inline(__always)
    private static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        let count = bytes.count
        guard count > 0, let base = bytes.base.baseAddress else { return "" }
        let source = base + bytes.startIndex
        return String(unsafeUninitializedCapacity: count) { buffer in
            buffer.baseAddress!.initialize(from: source, count: count)
            return count
        }
    }

    /// `token` in its public, self-contained form.
    func publicToken(_ token: ScannedToken) -> RuleToken {
        let value: RuleToken.Value
        switch token.value {
        case .none: value = .none
        case .sourceText, .decodedText: value = .text(text(of: token.value))
        case .integer(let integer): value = .integer(integer)
        case .double(let double): value = .double(double)
        case .duration(let seconds): value = .duration(seconds)
        }
        return RuleToken(kind: token.kind, start: token.start, end: token.end, value: value, isAtLineStart: token.isAtLineStart)
    }

    /// A token from `start` to `end`, with its file positions (tokens are made in order).
    @inline(__always)
    private mutating func token(_ kind: RuleTokenKind, from start: Int, to end: Int, value: ScannedToken.Value = .none,
                       keyword: RuleKeyword? = nil, atLineStart: Bool) -> ScannedToken {
        ScannedToken(kind: kind, keyword: keyword, isAtLineStart: atLineStart, start: start, end: end, value: value,
                     startLocation: locations.location(at: start), endLocation: locations.location(at: end))
    }

    /// Stores decoded `text` in the text table and returns the value that refers to it.
    private mutating func decodedText(_ text: String) -> ScannedToken.Value {
        texts.append(text)
        return .decodedText(UInt32(truncatingIfNeeded: texts.count - 1))
    }

    // MARK: - Scanning

    private func peek(_ offset: Int = 0) -> UInt8? {
        let index = position + offset
        return index < bytes.count ? bytes[index] : nil
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, from start: Int, to end: Int, help: String? = nil) {
        guard diagnostics.count < RuleParser.maximumErrorCount else { return }
        if diagnostics.count == RuleParser.maximumErrorCount - 1 {
            // Stop scanning: garbage must not cost a diagnostic per byte.
            diagnostics.append(Diagnostic(.limit, "more than \(RuleParser.maximumErrorCount) errors; the rest of the text is not read",
                                          at: locations.source.range(fromUTF8: start, to: end)))
            stopped = true
            return
        }
        diagnostics.append(Diagnostic(code, message, at: locations.source.range(fromUTF8: start, to: end), help: help))
    }

    /// Scans the token at `position` (which is not the end, nor trivia); nil after dropping
    /// an unexpected character.
    @inline(__always)
    private mutating func scanToken() -> ScannedToken? {
        let start = position
        let byte = bytes[start]
        let atLineStart = sawLineBreak
        sawLineBreak = false
        lineHasContent = true
        @inline(__always)
        func make(_ kind: RuleTokenKind, length: Int) -> ScannedToken {
            position = start + length
            return token(kind, from: start, to: start + length, atLineStart: atLineStart)
        }
        switch byte {
        case 0x28 /* ( */: return make(.leftParen, length: 1)
        case 0x29 /* ) */: return make(.rightParen, length: 1)
        case 0x5B /* [ */: return make(.leftBracket, length: 1)
        case 0x5D /* ] */: return make(.rightBracket, length: 1)
        case 0x7B /* { */: return make(.leftBrace, length: 1)
        case 0x7D /* } */: return make(.rightBrace, length: 1)
        case 0x2C /* , */: return make(.comma, length: 1)
        case 0x3A /* : */: return make(.colon, length: 1)
        case 0x2E /* . */: return make(.dot, length: 1)
        case 0x2B /* + */: return make(.plus, length: 1)
        case 0x2D /* - */: return make(.minus, length: 1)
        case 0x2A /* * */: return make(.star, length: 1)
        case 0x2F /* / */: return make(.slash, length: 1)
        case 0x25 /* % */: return make(.percent, length: 1)
        case 0x3D /* = */:
            return peek(1) == 0x3D /* = */ ? make(.equalEqual, length: 2) : make(.assign, length: 1)
        case 0x21 /* ! */:
            return peek(1) == 0x3D /* = */ ? make(.bangEqual, length: 2) : make(.bang, length: 1)
        case 0x3C /* < */:
            return peek(1) == 0x3D /* = */ ? make(.lessEqual, length: 2) : make(.less, length: 1)
        case 0x3E /* > */:
            return peek(1) == 0x3D /* = */ ? make(.greaterEqual, length: 2) : make(.greater, length: 1)
        case 0x26 /* & */ where peek(1) == 0x26 /* & */: return make(.ampAmp, length: 2)
        case 0x7C /* | */ where peek(1) == 0x7C /* | */: return make(.pipePipe, length: 2)
        case 0x22 /* \" */:
            return lexString(start: start, atLineStart: atLineStart)
        case 0x60 /* ` */:
            let name = lexQuotedName()
            return token(.quotedName, from: start, to: position, value: decodedText(name), atLineStart: atLineStart)
        case 0x24 /* $ */:
            position += 1
            let name: ScannedToken.Value
            if peek() == 0x60 /* ` */ {
                name = decodedText(lexQuotedName())
            } else if let next = peek(), Self.isIdentifierStart(next) {
                let nameStart = position
                skipIdentifier()
                name = .source(from: nameStart, to: position)
            } else {
                reportMissingParameterName(from: start)
                name = .source(from: position, to: position)
            }
            return token(.parameter, from: start, to: position, value: name, atLineStart: atLineStart)
        case _ where Self.isDigit(byte):
            return plainNumber(start: start, atLineStart: atLineStart) ?? lexNumber(start: start, atLineStart: atLineStart)
        case _ where Self.isIdentifierStart(byte):
            skipIdentifier()
            return token(.identifier, from: start, to: position, value: .source(from: start, to: position),
                         keyword: position - start <= RuleKeyword.longestSpelling ? RuleKeyword.spelled(in: bytes, from: start, to: position) : nil,
                         atLineStart: atLineStart)
        default:
            dropUnexpectedCharacter(start: start, atLineStart: atLineStart)
            return nil
        }
    }

    /// Reports a `$` at `start` that no name follows.
    @inline(never)
    private mutating func reportMissingParameterName(from start: Int) {
        report(.syntax, "expected a parameter name after '$'", from: start, to: position,
               help: "write '$name', or '$`name`' for a name that is not a plain identifier")
    }

    /// Reports the character at `start`, which starts no token, and steps over it.
    @inline(never)
    private mutating func dropUnexpectedCharacter(start: Int, atLineStart: Bool) {
        let (scalar, length) = decodeScalar(at: position)
        position += length
        if let scalar {
            let help: String?
            switch scalar {
            case "&": help = "use 'and' (or '&&') for logical and"
            case "|": help = "use 'or' (or '||') for logical or"
            case "'": help = "strings are written in double quotes"
            case "#": help = "comments start with '//'"
            default: help = nil
            }
            report(.syntax, "unexpected character '\(Self.printable(scalar))'", from: start, to: position, help: help)
        } else {
            report(.syntax, "invalid UTF-8", from: start, to: position)
        }
        // The character is dropped; lex on.
        sawLineBreak = atLineStart
    }

    /// Skips whitespace and comments before a token. Inlined for the usual case, where
    /// nothing or one space precedes it.
    @inline(__always)
    private mutating func skipTrivia() {
        if position < bytes.count {
            let byte = bytes[position]
            if byte > 0x20 /* space */ && byte != 0x2F /* / */ { return }
            if byte == 0x20 /* space */, position + 1 < bytes.count {
                let next = bytes[position + 1]
                if next > 0x20 /* space */ && next != 0x2F /* / */ {
                    position += 1
                    return
                }
            }
        }
        skipTriviaAndComments()
    }

    private mutating func skipTriviaAndComments() {
        var index = position
        defer { position = index }
        while index < bytes.count {
            switch bytes[index] {
            case 0x20 /* space */, 0x09 /* \t */:
                index += 1
            case 0x0A /* \n */, 0x0D /* \r */:
                index += 1
                sawLineBreak = true
                lineHasContent = false
            case 0x2F /* / */ where index + 1 < bytes.count && bytes[index + 1] == 0x2F /* / */:
                let start = index
                index += 2
                if index < bytes.count, bytes[index] == 0x20 /* space */ { index += 1 }
                let textStart = index
                while index < bytes.count, bytes[index] != 0x0A /* \n */, bytes[index] != 0x0D /* \r */ { index += 1 }
                var textEnd = index
                while textEnd > textStart, bytes[textEnd - 1] == 0x20 /* space */ || bytes[textEnd - 1] == 0x09 /* \t */ {
                    textEnd -= 1
                }
                let text = String(decoding: bytes[textStart..<textEnd], as: UTF8.self)
                comments.append(RuleComment(text: text, start: start, isOnOwnLine: !lineHasContent))
            default:
                return
            }
        }
    }

    // MARK: - Names

    @inline(__always)
    private mutating func skipIdentifier() {
        let bytes = self.bytes
        var end = position
        while end < bytes.count, Self.isIdentifierContinue(bytes[end]) { end += 1 }
        position = end
    }

    /// Lexes `` `name` `` starting at the opening backtick; reports an unterminated or
    /// malformed name.
    private mutating func lexQuotedName() -> String {
        let start = position
        position += 1
        let nameStart = position
        while let byte = peek(), byte != 0x60 /* ` */, byte != 0x0A /* \n */, byte != 0x0D /* \r */ {
            position += 1
        }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        if peek() == 0x60 /* ` */ {
            position += 1
        } else {
            report(.syntax, "unterminated name: expected a closing '`'", from: start, to: position)
            return name
        }
        if !NameSyntax.isValidName(name) {
            report(.syntax, "'\(name)' is not a valid name", from: start, to: position,
                   help: "names start with a letter or '_' and continue with letters, digits, '_', '.' or '-'")
        }
        return name
    }

    // MARK: - Numbers and durations

    /// The usual number, lexed in one pass: up to 15 plain digits, alone (an integer) or
    /// followed by one unit letter `s m h d w` (a duration), and then neither a letter, a digit,
    /// `_` nor `.`. Nil, with nothing read, for any other number, which `lexNumber` reads.
    @inline(__always)
    private mutating func plainNumber(start: Int, atLineStart: Bool) -> ScannedToken? {
        let bytes = self.bytes
        var end = start
        var value = 0
        // Fifteen digits stay far below Int.max (a duration checks its product).
        while end < bytes.count, end - start < 15, Self.isDigit(bytes[end]) {
            value = value &* 10 &+ Int(bytes[end] &- 0x30 /* 0 */)
            end += 1
        }
        func endsNumber(_ index: Int) -> Bool {
            index == bytes.count || (!Self.isIdentifierContinue(bytes[index]) && bytes[index] != 0x2E /* . */)
        }
        if endsNumber(end) {
            position = end
            return token(.integer, from: start, to: end, value: .integer(value), atLineStart: atLineStart)
        }
        guard let secondsPerUnit = DurationText.seconds(perUnitLetter: bytes[end]) else { return nil }
        let (seconds, overflow) = value.multipliedReportingOverflow(by: secondsPerUnit)
        guard !overflow, endsNumber(end + 1) else { return nil }
        position = end + 1
        return token(.duration, from: start, to: end + 1, value: .duration(seconds), atLineStart: atLineStart)
    }

    private mutating func lexNumber(start: Int, atLineStart: Bool) -> ScannedToken {
        var isDouble = false
        skipDigits()
        if peek() == 0x2E /* . */, let next = peek(1), Self.isDigit(next) {
            isDouble = true
            position += 1
            skipDigits()
        }
        if let e = peek(), e == 0x65 /* e */ || e == 0x45 /* E */ {
            var length = 1
            if let sign = peek(1), sign == 0x2B /* + */ || sign == 0x2D /* - */ { length = 2 }
            if let digit = peek(length), Self.isDigit(digit) {
                isDouble = true
                position += length
                skipDigits()
            }
        }
        // A number directly followed by letters is a duration (`3d`, `1d12h`).
        if let next = peek(), Self.isIdentifierStart(next) {
            skipIdentifier()
            var seconds = Self.plainDurationSeconds(bytes[start..<position])
            if seconds == nil {
                // Anything but the plain form: `DurationText` decides, and explains.
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                switch DurationText.seconds(of: text) {
                case .success(let value):
                    seconds = value
                case .failure(let failure):
                    report(.invalidDuration, "\(failure.message) in '\(text)'", from: start, to: position, help: failure.help)
                }
            }
            return token(.duration, from: start, to: position, value: .duration(seconds), atLineStart: atLineStart)
        }
        if isDouble {
            let digits = String(decoding: bytes[start..<position].filter { $0 != 0x5F /* _ */ }, as: UTF8.self)
            var value = Double(digits)
            if let finite = value, !finite.isFinite {
                let text = String(decoding: bytes[start..<position], as: UTF8.self)
                report(.invalidValue, "floating-point literal '\(text)' is out of range", from: start, to: position)
                value = nil
            }
            return token(.double, from: start, to: position, value: .double(value), atLineStart: atLineStart)
        }
        var value: Int? = 0
        for byte in bytes[start..<position] where byte != 0x5F /* _ */ {
            guard let current = value else { break }
            let (product, overflow1) = current.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = product.addingReportingOverflow(Int(byte - 0x30 /* 0 */))
            value = overflow1 || overflow2 ? nil : sum
        }
        if value == nil {
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            report(.invalidValue, "integer literal '\(text)' does not fit in Int", from: start, to: position,
                   help: "the largest Int is \(Int.max)")
        }
        return token(.integer, from: start, to: position, value: .integer(value), atLineStart: atLineStart)
    }

    private mutating func skipDigits() {
        while let byte = peek(), Self.isDigit(byte) || byte == 0x5F /* _ */ { position += 1 }
    }

    /// The seconds of a duration in the plain form `DurationText` reads — runs of digits
    /// (and `_`), each followed by one of the unit letters `s m h d w` — when the total fits in
    /// an Int; nil for any other text (which `DurationText.seconds(of:)` then reads).
    static func plainDurationSeconds(_ text: Slice<UnsafeBufferPointer<UInt8>>) -> Int? {
        var total = 0
        var index = text.startIndex
        while index < text.endIndex {
            var value = 0
            var digitCount = 0
            while index < text.endIndex, Self.isDigit(text[index]) || text[index] == 0x5F /* _ */ {
                if text[index] != 0x5F /* _ */ {
                    let (product, overflow1) = value.multipliedReportingOverflow(by: 10)
                    let (sum, overflow2) = product.addingReportingOverflow(Int(text[index] - 0x30 /* 0 */))
                    if overflow1 || overflow2 { return nil }
                    value = sum
                    digitCount += 1
                }
                index += 1
            }
            guard digitCount > 0, index < text.endIndex else { return nil }
            guard let secondsPerUnit = DurationText.seconds(perUnitLetter: text[index]) else { return nil }
            index += 1
            // A second letter would make a longer unit (`mo`, `yrs`): not the plain form.
            if index < text.endIndex, Self.isIdentifierStart(text[index]), text[index] != 0x5F /* _ */ { return nil }
            let (product, overflow1) = value.multipliedReportingOverflow(by: secondsPerUnit)
            let (sum, overflow2) = total.addingReportingOverflow(product)
            if overflow1 || overflow2 { return nil }
            total = sum
        }
        return total
    }

    // MARK: - Strings

    private mutating func lexString(start: Int, atLineStart: Bool) -> ScannedToken {
        position += 1
        if let contents = plainStringContents() {
            return token(.string, from: start, to: position, value: contents, atLineStart: atLineStart)
        }
        var value = String.UnicodeScalarView()
        var terminated = false
        while let byte = peek() {
            if byte == 0x22 /* \" */ {
                position += 1
                terminated = true
                break
            }
            if byte == 0x0A /* \n */ || byte == 0x0D /* \r */ { break }
            if byte == 0x5C /* \\ */ {
                if let scalar = lexEscape() { value.append(scalar) }
                continue
            }
            let (scalar, length) = decodeScalar(at: position)
            if let scalar {
                value.append(scalar)
            } else {
                report(.syntax, "invalid UTF-8", from: position, to: position + length)
                value.append("\u{FFFD}")
            }
            position += length
        }
        if !terminated {
            report(.syntax, "unterminated string literal", from: start, to: position,
                   help: "close the string with '\"' on the same line")
        }
        return token(.string, from: start, to: position, value: decodedText(String(value)), atLineStart: atLineStart)
    }

    /// The contents of a string literal of printable ASCII without escapes, which are its
    /// bytes, read from just after the opening quote up to and including the closing one; nil
    /// (nothing read) for any other string, which the general path decodes.
    private mutating func plainStringContents() -> ScannedToken.Value? {
        var end = position
        while end < bytes.count {
            let byte = bytes[end]
            if byte == 0x22 /* \" */ {
                let contents = ScannedToken.Value.source(from: position, to: end)
                position = end + 1
                return contents
            }
            guard byte >= 0x20, byte < 0x7F, byte != 0x5C /* \\ */ else { return nil }
            end += 1
        }
        return nil
    }

    /// Lexes one escape sequence starting at the backslash.
    private mutating func lexEscape() -> Unicode.Scalar? {
        let start = position
        position += 1
        let help = #"the escapes are \" \\ \n \t and \u{…}"#
        guard let byte = peek(), byte != 0x0A /* \n */, byte != 0x0D /* \r */ else {
            report(.syntax, "incomplete escape sequence", from: start, to: position, help: help)
            return nil
        }
        position += 1
        switch byte {
        case 0x22 /* \" */: return "\""
        case 0x5C /* \\ */: return "\\"
        case 0x6E /* n */: return "\n"
        case 0x74 /* t */: return "\t"
        case 0x75 /* u */:
            guard peek() == 0x7B /* { */ else {
                report(.syntax, "expected '{' after '\\u'", from: start, to: position, help: #"write a Unicode escape as \u{1F600}"#)
                return nil
            }
            position += 1
            let digitsStart = position
            while let next = peek(), Self.isHexDigit(next) { position += 1 }
            let digits = String(decoding: bytes[digitsStart..<position], as: UTF8.self)
            guard peek() == 0x7D /* } */ else {
                report(.syntax, "expected '}' to end the Unicode escape", from: start, to: position, help: #"write a Unicode escape as \u{1F600}"#)
                return nil
            }
            position += 1
            guard digits.count <= 8, let code = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(code) else {
                report(.syntax, "invalid Unicode scalar '\\u{\(digits)}'", from: start, to: position,
                       help: "a scalar is 1 to 8 hex digits, at most 10FFFF, and not a surrogate")
                return nil
            }
            return scalar
        default:
            let (scalar, length) = decodeScalar(at: position - 1)
            position += length - 1
            let shown = scalar.map { Self.printable($0) } ?? "?"
            report(.syntax, "invalid escape sequence '\\\(shown)'", from: start, to: position, help: help)
            return nil
        }
    }

    // MARK: - UTF-8

    /// Decodes the scalar at `index`: the scalar (nil when the bytes are not valid UTF-8) and
    /// how many bytes to step over (at least 1).
    private func decodeScalar(at index: Int) -> (Unicode.Scalar?, Int) {
        let first = bytes[index]
        if first < 0x80 { return (Unicode.Scalar(first), 1) }
        let length: Int
        var value: UInt32
        switch first {
        case 0xC2...0xDF: length = 2; value = UInt32(first & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(first & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(first & 0x07)
        default: return (nil, 1)
        }
        guard index + length <= bytes.count else { return (nil, 1) }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return (nil, offset) }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 3 ? 0x800 : length == 4 ? 0x10000 : 0x80
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return (nil, length) }
        return (scalar, length)
    }
}

extension RuleLexer {
    /// Lexes `bytes` whole, reporting positions through `source` (whose UTF-8 offsets are those
    /// of `bytes`): every token (the end-of-file token last), the comments, the diagnostics.
    public static func lex(bytes: [UInt8], source: RuleText)
        -> (tokens: [RuleToken], comments: [RuleComment], diagnostics: [Diagnostic]) {
        bytes.withUnsafeBufferPointer { buffer in
            var lexer = RuleLexer(bytes: buffer, source: source)
            var tokens: [ScannedToken] = []
            lexer.lexToEnd(into: &tokens)
            return (tokens.map(lexer.publicToken), lexer.comments, lexer.diagnostics)
        }
    }

    /// Lexes the text of `source` whole.
    public static func lex(_ source: RuleText)
        -> (tokens: [RuleToken], comments: [RuleComment], diagnostics: [Diagnostic]) {
        lex(bytes: Array(source.text.utf8), source: source)
    }

    @inline(__always)
    static func isDigit(_ byte: UInt8) -> Bool { byte &- 0x30 /* 0 */ < 10 }

    @inline(__always)
    static func isIdentifierStart(_ byte: UInt8) -> Bool {
        // One bit per byte 64–127: A–Z (65–90), _ (95), a–z (97–122).
        byte >= 64 && byte < 128 && (0x07FF_FFFE_87FF_FFFE as UInt64) >> UInt64(byte &- 64) & 1 != 0
    }

    @inline(__always)
    static func isIdentifierContinue(_ byte: UInt8) -> Bool { isIdentifierStart(byte) || isDigit(byte) }

    static func isHexDigit(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte >= 0x61 /* a */ && byte <= 0x66 /* f */) || (byte >= 0x41 /* A */ && byte <= 0x46 /* F */)
    }

    static func printable(_ scalar: Unicode.Scalar) -> String {
        scalar.properties.generalCategory == .control ? "\\u{\(String(scalar.value, radix: 16, uppercase: true))}" : String(scalar)
    }
}
