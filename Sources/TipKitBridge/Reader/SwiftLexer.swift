import TipcCompiler

/// Splits Swift source into `SwiftToken`s: comments and whitespace dropped, string literals
/// decoded (single-line, multi-line `"""`, raw `#"…"#`, escapes and `\u{…}`), brackets counted.
///
/// It never fails: text it cannot make sense of becomes `unknown` tokens, an unterminated
/// string or comment is a problem reported once, and the limits below stop it early.
struct SwiftLexer {
    /// The largest Swift file imported. App source files are a few hundred kilobytes at most.
    static let maximumFileSize = 4 * 1024 * 1024
    /// The most tokens read from one file (a 10,000-line Swift file has about 100,000).
    static let maximumTokenCount = 500_000
    /// The deepest nesting of `(`, `[` and `{`.
    static let maximumNestingDepth = 256
    /// Lexical problems reported per file before the rest is not read.
    static let maximumProblemCount = 100

    private let bytes: [UInt8]
    private var index = 0
    private var atLineStart = true
    /// The opening brackets not closed yet: the bracket and its offset.
    private var openBrackets: [(bracket: UInt8, offset: Int)] = []
    private(set) var tokens: [SwiftToken] = []
    private(set) var problems: [SwiftLexicalProblem] = []

    init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    static func tokenize(_ bytes: [UInt8]) -> (tokens: [SwiftToken], problems: [SwiftLexicalProblem]) {
        guard bytes.count <= maximumFileSize else {
            return ([], [SwiftLexicalProblem(code: .limit, message: "Swift file is larger than \(maximumFileSize / (1024 * 1024)) MiB; not imported",
                                             start: 0, end: 0)])
        }
        var lexer = SwiftLexer(bytes: bytes)
        lexer.run()
        return (lexer.tokens, lexer.problems)
    }

    private func byte(at offset: Int) -> UInt8? { offset < bytes.count ? bytes[offset] : nil }

    private mutating func report(_ code: DiagnosticCode = .syntax, _ message: String, from start: Int, to end: Int) {
        problems.append(SwiftLexicalProblem(code: code, message: message, start: start, end: end))
    }

    private var shouldStop: Bool { problems.count >= Self.maximumProblemCount }

    private mutating func run() {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        if byte(at: index) == UInt8(ascii: "#"), byte(at: index + 1) == UInt8(ascii: "!") { skipLine() }
        while index < bytes.count, !shouldStop {
            let c = bytes[index]
            switch c {
            case 0x0A, 0x0D:
                atLineStart = true
                index += 1
            case 0x20, 0x09, 0x0B, 0x0C, 0x00:
                index += 1
            case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "/"):
                skipLine()
            case UInt8(ascii: "/") where byte(at: index + 1) == UInt8(ascii: "*"):
                skipBlockComment()
            default:
                guard tokens.count < Self.maximumTokenCount else {
                    report(.limit, "Swift file has more than \(Self.maximumTokenCount) tokens; the rest is not imported", from: index, to: index)
                    return
                }
                lexToken()
            }
        }
        if let unclosed = openBrackets.first, !shouldStop {
            // A truncated file: the rest of a declaration is missing.
            report(.syntax, "the file ends inside the '\(String(UnicodeScalar(unclosed.bracket)))' opened here", from: unclosed.offset, to: unclosed.offset + 1)
        }
    }

    private mutating func skipLine() {
        while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
    }

    private mutating func skipBlockComment() {
        let start = index
        var nesting = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/"), byte(at: index + 1) == UInt8(ascii: "*") {
                nesting += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*"), byte(at: index + 1) == UInt8(ascii: "/") {
                nesting -= 1
                index += 2
                if nesting == 0 { return }
            } else {
                if bytes[index] == 0x0A { atLineStart = true }
                index += 1
            }
        }
        report(.syntax, "unterminated comment", from: start, to: start + 2)
    }

    private mutating func append(_ kind: SwiftToken.Kind, _ text: String, from start: Int, interpolated: Bool = false) {
        tokens.append(SwiftToken(kind: kind, text: text, start: start, end: index, isInterpolated: interpolated, startsLine: atLineStart))
        atLineStart = false
    }

    private static func isIdentifierStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == 0x5F || c >= 0x80
    }

    private static func isIdentifierPart(_ c: UInt8) -> Bool {
        isIdentifierStart(c) || (c >= 0x30 && c <= 0x39)
    }

    private static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }

    private static let operatorCharacters = Set("/=-+!*%<>&|^~?".utf8)

    private mutating func identifierText() -> String {
        let start = index
        while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func lexToken() {
        let start = index
        let c = bytes[index]
        if Self.isIdentifierStart(c) {
            append(.identifier, identifierText(), from: start)
        } else if Self.isDigit(c) {
            lexNumber()
        } else if c == UInt8(ascii: "`") {
            index += 1
            let nameStart = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != 0x0A { index += 1 }
            let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
            if byte(at: index) == UInt8(ascii: "`") { index += 1 }
            append(.identifier, name, from: start)
        } else if c == UInt8(ascii: "$") {
            index += 1
            append(.dollarIdentifier, identifierText(), from: start)
        } else if c == UInt8(ascii: "@") {
            index += 1
            append(.attribute, identifierText(), from: start)
        } else if c == UInt8(ascii: "#") {
            var hashes = 0
            while byte(at: index + hashes) == UInt8(ascii: "#") { hashes += 1 }
            if byte(at: index + hashes) == UInt8(ascii: "/") {
                lexExtendedRegex(from: start, hashes: hashes)
            } else if byte(at: index + hashes) == UInt8(ascii: "\"") {
                index += hashes
                lexString(from: start, hashes: hashes)
            } else {
                index += 1
                append(.poundIdentifier, identifierText(), from: start)
            }
        } else if c == UInt8(ascii: "\"") {
            lexString(from: start, hashes: 0)
        } else if c == UInt8(ascii: "/"), let end = bareRegexEnd() {
            index = end
            append(.regex, "", from: start)
        } else if "{([".utf8.contains(c) {
            openBrackets.append((c, start))
            index += 1
            append(.punctuation, String(UnicodeScalar(c)), from: start)
            if openBrackets.count > Self.maximumNestingDepth {
                report(.limit, "Swift brackets nest deeper than \(Self.maximumNestingDepth) levels; the rest is not imported", from: start, to: index)
                index = bytes.count
            }
        } else if "})]".utf8.contains(c) {
            let opener: UInt8 = c == UInt8(ascii: ")") ? UInt8(ascii: "(") : c == UInt8(ascii: "]") ? UInt8(ascii: "[") : UInt8(ascii: "{")
            if let last = openBrackets.popLast() {
                if last.bracket != opener {
                    report(.syntax, "'\(String(UnicodeScalar(c)))' does not close the '\(String(UnicodeScalar(last.bracket)))' opened before it", from: start, to: start + 1)
                }
            } else {
                report(.syntax, "'\(String(UnicodeScalar(c)))' closes no bracket", from: start, to: start + 1)
            }
            index += 1
            append(.punctuation, String(UnicodeScalar(c)), from: start)
        } else if ",:;.\\".utf8.contains(c) {
            index += 1
            append(.punctuation, String(UnicodeScalar(c)), from: start)
        } else if Self.operatorCharacters.contains(c) {
            while index < bytes.count, Self.operatorCharacters.contains(bytes[index]) {
                if bytes[index] == UInt8(ascii: "/"), let next = byte(at: index + 1), next == UInt8(ascii: "/") || next == UInt8(ascii: "*"), index > start { break }
                index += 1
            }
            append(.operator, String(decoding: bytes[start..<index], as: UTF8.self), from: start)
        } else {
            index += 1
            append(.unknown, "", from: start)
        }
    }

    private mutating func lexNumber() {
        let start = index
        var isFloat = false
        if bytes[index] == UInt8(ascii: "0"), let x = byte(at: index + 1), x == UInt8(ascii: "x") || x == UInt8(ascii: "b") || x == UInt8(ascii: "o") {
            index += 2
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
        } else {
            while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_") { index += 1 }
            if byte(at: index) == UInt8(ascii: "."), let next = byte(at: index + 1), Self.isDigit(next) {
                isFloat = true
                index += 1
                while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_") { index += 1 }
            }
            if let e = byte(at: index), e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
                var next = index + 1
                if let sign = byte(at: next), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { next += 1 }
                if let digit = byte(at: next), Self.isDigit(digit) {
                    isFloat = true
                    index = next
                    while index < bytes.count, Self.isDigit(bytes[index]) { index += 1 }
                }
            }
        }
        let text = String(decoding: bytes[start..<index].filter { $0 != UInt8(ascii: "_") }, as: UTF8.self)
        append(isFloat ? .floatingPoint : .integer, text, from: start)
    }

    // MARK: - Regex literals

    /// The end of a bare regex literal `/…/` starting at `index`, or nil when the `/` is an
    /// operator. As in Swift: a regex literal stands where an operand is expected (not after
    /// a name, a literal or a closing bracket), does not start with a space, a tab, `)` or
    /// `,`, does not end with a space or a tab, and ends on its line; `\` escapes a character.
    private func bareRegexEnd() -> Int? {
        if let previous = tokens.last, !Self.expectsOperand(after: previous) { return nil }
        return scanBareRegex()
    }

    private func scanBareRegex() -> Int? {
        guard let first = byte(at: index + 1), ![0x20, 0x09, 0x0A, 0x0D, UInt8(ascii: ")"), UInt8(ascii: ","),
                                                  UInt8(ascii: "/"), UInt8(ascii: "*")].contains(first) else { return nil }
        var k = index + 1
        while k < bytes.count {
            switch bytes[k] {
            case 0x0A, 0x0D: return nil
            case UInt8(ascii: "\\"): k += 2
            case UInt8(ascii: "/"):
                return bytes[k - 1] == 0x20 || bytes[k - 1] == 0x09 ? nil : k + 1
            default: k += 1
            }
        }
        return nil
    }

    /// Words after which an operand is expected, so that a `/` there starts a regex literal.
    private static let operandKeywords: Set<String> = [
        "return", "in", "case", "where", "if", "guard", "else", "while", "try", "await", "throw", "let", "var", "switch",
        "repeat", "defer", "do", "yield", "some", "any", "is", "as",
    ]

    /// Whether an operand (rather than an operator) follows `token`.
    private static func expectsOperand(after token: SwiftToken) -> Bool {
        switch token.kind {
        case .identifier: return operandKeywords.contains(token.text)
        case .dollarIdentifier, .integer, .floatingPoint, .string, .regex, .unknown: return false
        case .punctuation: return !(token.text == ")" || token.text == "]" || token.text == "}")
        case .operator, .attribute, .poundIdentifier: return true
        }
    }

    /// `#/…/#` with `hashes` `#`s at `index`: on one line, or over several when the opening
    /// delimiter ends its line.
    private mutating func lexExtendedRegex(from start: Int, hashes: Int) {
        index += hashes + 1
        var multiline = false
        var k = index
        while let d = byte(at: k), d == 0x20 || d == 0x09 { k += 1 }
        if byte(at: k) == 0x0A || byte(at: k) == 0x0D { multiline = true }
        while index < bytes.count {
            let d = bytes[index]
            if (d == 0x0A || d == 0x0D), !multiline { break }
            if d == UInt8(ascii: "\\") { index += 2; continue }
            if d == UInt8(ascii: "/"), closes(at: index + 1, hashes: hashes) {
                index += 1 + hashes
                append(.regex, "", from: start)
                return
            }
            index += 1
        }
        index = min(index, bytes.count)
        report(.syntax, "unterminated regex literal", from: start, to: min(start + hashes + 1, bytes.count))
        append(.regex, "", from: start)
    }

    // MARK: - Strings

    /// Lexes a string literal whose opening quote is at `index` (after `hashes` `#`s).
    private mutating func lexString(from start: Int, hashes: Int) {
        if byte(at: index + 1) == UInt8(ascii: "\""), byte(at: index + 2) == UInt8(ascii: "\"") {
            lexMultilineString(from: start, hashes: hashes)
            return
        }
        index += 1
        var content: [UInt8] = []
        var interpolated = false
        while true {
            guard index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D else {
                report(.syntax, "unterminated string literal", from: start, to: index)
                break
            }
            if bytes[index] == UInt8(ascii: "\""), closes(at: index + 1, hashes: hashes) {
                index += 1 + hashes
                break
            }
            if bytes[index] == UInt8(ascii: "\\"), closes(at: index + 1, hashes: hashes) {
                interpolated = decodeEscape(into: &content, hashes: hashes, multiline: false) || interpolated
                continue
            }
            content.append(bytes[index])
            index += 1
        }
        append(.string, String(decoding: content, as: UTF8.self), from: start, interpolated: interpolated)
    }

    /// Whether `hashes` `#`s follow at `offset`.
    private func closes(at offset: Int, hashes: Int) -> Bool {
        var k = 0
        while k < hashes {
            guard byte(at: offset + k) == UInt8(ascii: "#") else { return false }
            k += 1
        }
        return true
    }

    /// Decodes the escape whose `\` is at `index`; returns whether it was an interpolation.
    private mutating func decodeEscape(into content: inout [UInt8], hashes: Int, multiline: Bool) -> Bool {
        let escapeStart = index
        index += 1 + hashes
        guard let c = byte(at: index) else { return false }
        index += 1
        switch c {
        case UInt8(ascii: "n"): content.append(0x0A)
        case UInt8(ascii: "t"): content.append(0x09)
        case UInt8(ascii: "r"): content.append(0x0D)
        case UInt8(ascii: "0"): content.append(0x00)
        case UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "'"): content.append(c)
        case UInt8(ascii: "u"):
            guard byte(at: index) == UInt8(ascii: "{") else { return false }
            var end = index + 1
            while end < bytes.count, end - index <= 9, bytes[end] != UInt8(ascii: "}") { end += 1 }
            let hex = String(decoding: bytes[(index + 1)..<min(end, bytes.count)], as: UTF8.self)
            if let value = UInt32(hex, radix: 16), let scalar = Unicode.Scalar(value) {
                content.append(contentsOf: Array(String(Character(scalar)).utf8))
            }
            index = min(end + 1, bytes.count)
        case UInt8(ascii: "("):
            // Kept as written, for the warning and the closest literal; brackets and nested
            // strings inside are skipped over.
            var parentheses = 1
            while index < bytes.count, parentheses > 0 {
                let d = bytes[index]
                if d == 0x0A, !multiline { break }
                if d == UInt8(ascii: "(") { parentheses += 1 }
                if d == UInt8(ascii: ")") { parentheses -= 1 }
                if d == UInt8(ascii: "\"") {
                    index += 1
                    while index < bytes.count, bytes[index] != UInt8(ascii: "\""), bytes[index] != 0x0A {
                        index += bytes[index] == UInt8(ascii: "\\") ? 2 : 1
                    }
                }
                index += 1
            }
            index = min(index, bytes.count)
            content.append(contentsOf: bytes[escapeStart..<index])
            return true
        case 0x0A, 0x0D, 0x20, 0x09:
            // A line continuation: `\` at the end of a line joins it with the next.
            guard multiline else { content.append(c); return false }
            index -= 1
            while let d = byte(at: index), d == 0x20 || d == 0x09 { index += 1 }
            if byte(at: index) == 0x0D { index += 1 }
            if byte(at: index) == 0x0A { index += 1 }
            while let d = byte(at: index), d == 0x20 || d == 0x09 { index += 1 }
        default:
            content.append(c)
        }
        return false
    }

    /// A `"""` literal: its lines with the closing delimiter's indentation removed, the line
    /// breaks after the opening and before the closing delimiter dropped.
    private mutating func lexMultilineString(from start: Int, hashes: Int) {
        index += 3
        while let d = byte(at: index), d == 0x20 || d == 0x09 { index += 1 }
        if byte(at: index) == 0x0D { index += 1 }
        if byte(at: index) == 0x0A { index += 1 }
        // Find the closing delimiter first, for its indentation.
        var lines: [[UInt8]] = []
        var line: [UInt8] = []
        var closingIndentation: [UInt8]?
        var lineStart = index
        var interpolated = false
        var terminated = false
        while index < bytes.count {
            let c = bytes[index]
            if c == UInt8(ascii: "\""), byte(at: index + 1) == UInt8(ascii: "\""), byte(at: index + 2) == UInt8(ascii: "\""),
               closes(at: index + 3, hashes: hashes) {
                let prefix = bytes[lineStart..<index]
                if prefix.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { closingIndentation = Array(prefix) } else { lines.append(line) }
                index += 3 + hashes
                terminated = true
                break
            }
            if c == UInt8(ascii: "\\"), closes(at: index + 1, hashes: hashes) {
                // Keep escapes raw for now; decoded after the indentation is stripped.
                let escapeStart = index
                var scratch: [UInt8] = []
                interpolated = decodeEscape(into: &scratch, hashes: hashes, multiline: true) || interpolated
                line.append(contentsOf: bytes[escapeStart..<index])
                if let lineBreak = bytes[escapeStart..<index].lastIndex(of: 0x0A) {
                    // A continuation consumed a line break: the next line starts after it.
                    lineStart = lineBreak + 1
                }
                continue
            }
            if c == 0x0A {
                lines.append(line)
                line = []
                index += 1
                lineStart = index
                atLineStart = false
                continue
            }
            if c != 0x0D { line.append(c) }
            index += 1
        }
        if !terminated {
            report(.syntax, "unterminated multi-line string literal", from: start, to: min(start + 3 + hashes, bytes.count))
            lines.append(line)
        }
        let indentation = closingIndentation ?? []
        let stripped = lines.map { $0.starts(with: indentation) ? Array($0.dropFirst(indentation.count)) : $0 }
        let joined = Array(stripped.joined(separator: [0x0A]))
        // Decode the escapes of the joined text.
        var decoded: [UInt8] = []
        let saved = index
        var sub = SwiftLexer(bytes: joined)
        while sub.index < joined.count {
            if joined[sub.index] == UInt8(ascii: "\\"), sub.closes(at: sub.index + 1, hashes: hashes) {
                _ = sub.decodeEscape(into: &decoded, hashes: hashes, multiline: true)
            } else {
                decoded.append(joined[sub.index])
                sub.index += 1
            }
        }
        index = saved
        append(.string, String(decoding: decoded, as: UTF8.self), from: start, interpolated: interpolated)
    }
}

extension TipKitImporter {
    /// The number of tokens the Swift lexer reads from `source`: the first step of an import
    /// alone (the floor of `tipc-bench import`).
    public static func tokenCount(_ source: SourceFile) -> Int {
        SwiftLexer.tokenize(source.bytes).tokens.count
    }
}
