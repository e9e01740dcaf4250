import Testing
@testable import TipcCompiler
import TipRuntime

@Suite struct RuleLanguageLexerTests {
    private func lex(_ text: String) -> (tokens: [RuleToken], comments: [RuleComment], diagnostics: [Diagnostic]) {
        RuleLexer.lex(RuleText(file: SourceFile(path: "lex.tips", text: text)))
    }

    @Test func tokenKindsAndOffsets() {
        let lexer = lex("a.count >= 1_000 && !$x || `b-c`(2.5) != \"s\"")
        #expect(lexer.diagnostics.isEmpty)
        let kinds = lexer.tokens.map(\.kind)
        #expect(kinds == [.identifier, .dot, .identifier, .greaterEqual, .integer, .ampAmp, .bang, .parameter, .pipePipe,
                          .quotedName, .leftParen, .double, .rightParen, .bangEqual, .string, .endOfFile])
        let count = lexer.tokens[2]
        #expect(count.start == 2 && count.end == 7 && count.text == "count")
        #expect(lexer.tokens[4].value == .integer(1000))
        #expect(lexer.tokens[7].text == "x")
        #expect(lexer.tokens[9].text == "b-c")
        #expect(lexer.tokens[11].value == .double(2.5))
        #expect(lexer.tokens.last?.start == 44)
    }

    @Test func punctuationOfFiles() {
        let kinds = lex("{ } [ ] : , = == < <= > >= + - * / %").tokens.map(\.kind)
        #expect(kinds == [.leftBrace, .rightBrace, .leftBracket, .rightBracket, .colon, .comma, .assign, .equalEqual,
                          .less, .lessEqual, .greater, .greaterEqual, .plus, .minus, .star, .slash, .percent, .endOfFile])
    }

    @Test func stringEscapes() {
        let lexer = lex(#""q\"b\\n\nt\tu\u{1F600}e\u{e9}""#)
        #expect(lexer.diagnostics.isEmpty)
        #expect(lexer.tokens[0].text == "q\"b\\n\nt\tu😀eé")
        #expect(lexer.tokens[0].end == lexer.tokens[1].start)
    }

    @Test func badStrings() {
        let lexer = lex(#""a\qb" "\u{D800}" "open"#)
        let messages = lexer.diagnostics.map(\.message)
        #expect(messages == ["invalid escape sequence '\\q'", "invalid Unicode scalar '\\u{D800}'", "unterminated string literal"])
        #expect(lexer.diagnostics.allSatisfy { $0.code == .syntax })
        #expect(lexer.tokens.map(\.kind) == [.string, .string, .string, .endOfFile])
        #expect(lexer.tokens[0].text == "ab")
        #expect(span(lexer.diagnostics[0].range) == "1:3-1:5")
    }

    @Test func numbersAndDurations() {
        let lexer = lex("3d 1d12h 45s 2w 0.5 1e3 2.5E-2 7 3.count")
        #expect(lexer.diagnostics.isEmpty)
        #expect(lexer.tokens.prefix(8).map(\.value) == [.duration(259_200), .duration(129_600), .duration(45), .duration(1_209_600),
                                                        .double(0.5), .double(1000), .double(0.025), .integer(7)])
        #expect(lexer.tokens[8...].map(\.kind) == [.integer, .dot, .identifier, .endOfFile])
    }

    @Test func plainDurationsAgreeWithDurationText() {
        let texts = ["3d", "1d12h", "1_0m", "2w3d4h5m6s", "1d_5h", "007s", "0s", "1d2", "3y", "2mo", "1M", "3dd", "1.5d", "1e5d",
                     "1_d", "5ms", "2000ms", "1s500ms", "9223372036854775807s", "9223372036854775808s", "15250284452472w", "106751991167300d"]
        for text in texts {
            let bytes = Array(text.utf8)
            let plain = bytes.withUnsafeBufferPointer { RuleLexer.plainDurationSeconds($0[...]) }
            let general = try? DurationText.seconds(of: text).get()
            // The shortcut answers only when it agrees; otherwise it leaves the text to the general path.
            if let plain { #expect(plain == general, "\(text)") }
        }
        #expect(Array("1d12h".utf8).withUnsafeBufferPointer { RuleLexer.plainDurationSeconds($0[...]) } == 129_600)
        #expect(Array("3y".utf8).withUnsafeBufferPointer { RuleLexer.plainDurationSeconds($0[...]) } == nil)
    }

    @Test func keywordsAreRecognisedOnlyForPlainIdentifiers() {
        let file = SourceFile(path: "k.tips", text: "and or not within in true false now `and` $and andy In")
        var parser = RuleParser(bytes: file.bytes, source: RuleText(file: file), lineBreaksEndExpressions: true)
        parser.lexToEnd()
        #expect(parser.tokens.map(\.keyword) == [.and, .or, .not, .within, .in, .true, .false, .now, nil, nil, nil, nil, nil])
        #expect(parser.tokens.map { parser.text(of: $0) }.prefix(11) == ["and", "or", "not", "within", "in", "true", "false", "now",
                                                                         "and", "and", "andy"])
    }

    @Test func invalidDurationsAndIntegers() {
        let lexer = lex("3y 2mo 9223372036854775808 9223372036854775807 99999999999999999999d")
        #expect(lexer.diagnostics.map(\.code) == [.invalidDuration, .invalidDuration, .invalidValue, .invalidDuration])
        #expect(lexer.diagnostics[0].help == "years have no fixed length; write days instead (365d)")
        #expect(lexer.diagnostics[1].help == "months have no fixed length; write days instead (30d)")
        #expect(lexer.diagnostics[2].message == "integer literal '9223372036854775808' does not fit in Int")
        #expect(span(lexer.diagnostics[2].range) == "1:8-1:27")
        #expect(lexer.tokens[0].value == .duration(nil))
        #expect(lexer.tokens[2].value == .integer(nil))
        #expect(lexer.tokens[3].value == .integer(Int.max))
    }

    @Test func commentsAndLineStarts() {
        let lexer = lex("// first\nparam x // trailing\n  // own line  \nevent")
        #expect(lexer.comments.map(\.text) == ["first", "trailing", "own line"])
        #expect(lexer.comments.map(\.isOnOwnLine) == [true, false, true])
        #expect(lexer.tokens.map(\.isAtLineStart) == [true, false, true, true])
    }

    @Test func unexpectedCharactersAreDroppedWithHelp() {
        let lexer = lex("a & b # c ' é")
        #expect(lexer.tokens.map(\.kind) == [.identifier, .identifier, .identifier, .endOfFile])
        #expect(lexer.diagnostics.map(\.message) == ["unexpected character '&'", "unexpected character '#'",
                                                     "unexpected character '''", "unexpected character 'é'"])
        #expect(lexer.diagnostics[0].help == "use 'and' (or '&&') for logical and")
        #expect(span(lexer.diagnostics[3].range) == "1:13-1:14")
    }

    @Test func invalidUTF8IsReported() {
        let file = SourceFile(path: "bad.tips", bytes: Array("a ".utf8) + [0xFF] + Array(" \"x".utf8) + [0xC3] + Array("\"".utf8))
        let lexer = RuleLexer.lex(bytes: file.bytes, source: RuleText(file: file))
        #expect(lexer.diagnostics.map(\.message) == ["invalid UTF-8", "invalid UTF-8"])
        #expect(lexer.tokens.map(\.kind) == [.identifier, .string, .endOfFile])
    }

    @Test func quotedNamesAreChecked() {
        let lexer = lex("`ok-name.x` `1bad` `open")
        #expect(lexer.diagnostics.map(\.message) == ["'1bad' is not a valid name", "unterminated name: expected a closing '`'"])
        #expect(lexer.tokens[0].text == "ok-name.x")
    }

    @Test func byteOrderMarkIsSkipped() {
        let file = SourceFile(path: "bom.tips", bytes: [0xEF, 0xBB, 0xBF] + Array("tipkit 1".utf8))
        let lexer = RuleLexer.lex(bytes: file.bytes, source: RuleText(file: file))
        #expect(lexer.diagnostics.isEmpty)
        #expect(lexer.tokens.first?.start == 3)
        #expect(lexer.tokens.first?.isAtLineStart == true)
    }
}
