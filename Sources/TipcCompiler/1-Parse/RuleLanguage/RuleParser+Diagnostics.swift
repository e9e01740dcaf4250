/// Source ranges and diagnostics of the rule parser: the parser's and the lexer's diagnostics,
/// in reading order, up to `RuleParser.maximumErrorCount`.
extension RuleParser {
    // MARK: - Ranges

    /// The range of token `tokenIndex`.
    @inline(__always)
    mutating func range(ofToken tokenIndex: Int) -> SourceRange {
        let token = lexedToken(tokenIndex)
        return SourceRange(fileNumber: fileNumber, start: token.startLocation, end: token.endLocation)
    }

    /// From the start of token `first` to the end of token `last`.
    @inline(__always)
    mutating func range(fromToken first: Int, toToken last: Int) -> SourceRange {
        SourceRange(fileNumber: fileNumber, start: lexedToken(first).startLocation,
                    end: lexedToken(max(first, last)).endLocation)
    }

    /// A zero-width range where token `tokenIndex` starts.
    mutating func emptyRange(atToken tokenIndex: Int) -> SourceRange {
        SourceRange(fileNumber: fileNumber, at: lexedToken(tokenIndex).startLocation)
    }

    /// From the start of token `first` to the end of the last token consumed.
    mutating func range(since first: Int) -> SourceRange {
        range(fromToken: first, toToken: max(first, index - 1))
    }

    // MARK: - Diagnostics

    /// The lexer's and the parser's diagnostics in reading order.
    var diagnosticsInOrder: [Diagnostic] {
        if !hasDiagnostics { return [] }
        return (lexer.diagnostics + diagnostics).enumerated().sorted { a, b in
            a.element.range.start != b.element.range.start ? a.element.range.start < b.element.range.start : a.offset < b.offset
        }.map(\.element)
    }

    /// Whether the lexer or the parser reported anything.
    @inline(__always)
    var hasDiagnostics: Bool { !lexer.diagnostics.isEmpty || !diagnostics.isEmpty }

    mutating func report(_ code: DiagnosticCode, _ message: String, at range: SourceRange, help: String? = nil,
                         notes: [DiagnosticNote] = []) {
        guard !reportedErrorLimit else { return }
        if diagnostics.count + lexer.diagnostics.count >= RuleParser.maximumErrorCount {
            // Stop reading: garbage must not cost a diagnostic per byte.
            reportedErrorLimit = true
            diagnostics.append(Diagnostic(.limit, "more than \(RuleParser.maximumErrorCount) errors; the rest of the text is not read", at: range))
            abandonLexing()
            index = min(index, lexedCount - 1)
            return
        }
        diagnostics.append(Diagnostic(code, message, at: range, help: help, notes: notes))
    }

    /// Reports "expected X, found Y" at the current token.
    mutating func reportExpected(_ expected: String, help: String? = nil, notes: [DiagnosticNote] = []) {
        let at = isAtEnd ? emptyRange(atToken: index) : range(ofToken: index)
        report(.syntax, "expected \(expected), found \(describe(current))", at: at, help: help, notes: notes)
    }

    /// How a token is named in a diagnostic.
    mutating func describe(_ token: ScannedToken) -> String {
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
    mutating func spelling(of token: ScannedToken) -> String {
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

    private mutating func sourceText(from start: Int, to end: Int) -> String {
        guard start >= 0, end <= bytes.count, start <= end else { return "" }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
