import Testing
@testable import TipcCompiler

/// The lexer's shortcuts (plain numbers read in one pass, cached short texts) must give what
/// the general paths give.
@Suite struct RuleLexerShortcutTests {
    private func tokens(_ text: String) -> [RuleToken] {
        RuleLexer.lex(RuleText(file: SourceFile(path: "shortcut.tips", text: text))).tokens
    }

    @Test func plainNumbersMatchTheGeneralReading() {
        let cases: [(String, RuleToken.Value)] = [
            ("0", .integer(0)), ("7", .integer(7)), ("007", .integer(7)),
            ("999999999999999", .integer(999_999_999_999_999)),
            ("1234567890123456", .integer(1_234_567_890_123_456)),
            ("9223372036854775807", .integer(Int.max)),
            ("1_000", .integer(1000)),
            ("4d", .duration(345_600)), ("12w", .duration(7_257_600)), ("90m", .duration(5400)),
            ("3h", .duration(10_800)), ("45s", .duration(45)), ("1d12h", .duration(129_600)),
            ("15250284452471w", .duration(15_250_284_452_471 * 604_800)),
            ("0.4", .double(0.4)), ("1e3", .double(1000)),
        ]
        for (text, value) in cases {
            let lexed = tokens(text)
            #expect(lexed.count == 2, "\(text)")
            #expect(lexed.first?.value == value, "\(text)")
            #expect(lexed.first?.end == text.utf8.count, "\(text)")
        }
    }

    @Test func numbersThatEndTheShortcutKeepTheirMeaning() {
        // A number directly before `.`, a letter or an over-long duration is read by the general path.
        #expect(tokens("3.count").map(\.kind) == [.integer, .dot, .identifier, .endOfFile])
        #expect(tokens("3dx").map(\.kind) == [.duration, .endOfFile])
        #expect(tokens("3dx").first?.value == .duration(nil))
        #expect(tokens("15250284452472w").first?.value == .duration(nil))
        #expect(tokens("4d)").map(\.kind) == [.duration, .rightParen, .endOfFile])
        #expect(tokens("2>=1").map(\.kind) == [.integer, .greaterEqual, .integer, .endOfFile])
    }

    @Test func namesAreReadFromTheSourceBytes() {
        let file = SourceFile(path: "names.tips", text: "event12.count event12 `event12` $event12 \"event12\" longerThanFifteenBytes")
        var parser = RuleParser(bytes: file.bytes, source: RuleText(file: file), lineBreaksEndExpressions: true)
        parser.lexToEnd()
        let texts = parser.tokens.map { parser.text(of: $0) }
        #expect(texts == ["event12", "", "count", "event12", "event12", "event12", "event12", "longerThanFifteenBytes", ""])
    }
}
