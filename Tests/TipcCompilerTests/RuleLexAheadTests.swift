import Testing
@testable import TipcCompiler

/// Rules lexed ahead of parsing must parse exactly as rules lexed token by token.
@Suite struct RuleLexAheadTests {
    /// The parse of `text` with tokens lexed only as the parser asks for them.
    private func parsedOnDemand(_ text: RuleText) -> (Expression, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        var parser = RuleParser(bytes: text.text.utf8, source: text, lineBreaksEndExpressions: false)
        let expression = RuleParser.parseLexedRule(with: &parser, diagnostics: &diagnostics)
        return (expression, diagnostics)
    }

    @Test(arguments: [
        "event12.where(category == \"shoes\" and itemID != 0).count >= 2",
        "$plan7 in [\"pro\", \"team\"] or not $flag8 // a comment",
        "a b c",
        "a @ b # c",
        "\"unterminated",
        String(repeating: ", ", count: 150),
        String(repeating: "+ ", count: 150),
        String(repeating: "+ ", count: 90) + String(repeating: "@", count: 20),
        String(repeating: "a.", count: 140) + "b",
        String(repeating: "(", count: 300) + "a" + String(repeating: ")", count: 300),
        "x in [" + String(repeating: "1 2 ", count: 120) + "]",
    ])
    func lexingAheadChangesNothing(_ text: String) {
        let source = RuleText(text: text, path: "ahead.yaml", mapping: .singleLine(start: SourceLocation(line: 3, column: 9)))
        var diagnostics: [Diagnostic] = []
        let expression = RuleParser.parseRule(source, diagnostics: &diagnostics)
        let (expected, expectedDiagnostics) = parsedOnDemand(source)
        #expect(expression == expected)
        #expect(diagnostics == expectedDiagnostics)
    }

    @Test func aReusedParserGivesUpOnOneRuleAndReadsTheNext() {
        var parser = RuleParser(reusableFor: SourcePaths.number(of: "ahead.yaml"))
        var diagnostics: [Diagnostic] = []
        let garbage = RuleText(text: String(repeating: "+ ", count: 150), path: "ahead.yaml",
                               mapping: .singleLine(start: SourceLocation(line: 1, column: 1)))
        _ = RuleParser.parseRule(garbage, reusing: &parser, diagnostics: &diagnostics)
        #expect(diagnostics.count == RuleParser.maximumErrorCount + 1)
        #expect(diagnostics.contains { $0.code == .limit })
        diagnostics.removeAll()
        let rule = RuleText(text: "event4.count > 1", path: "ahead.yaml", mapping: .singleLine(start: SourceLocation(line: 2, column: 1)))
        let expression = RuleParser.parseRule(rule, reusing: &parser, diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty)
        #expect(expression == parsedOnDemand(rule).0)
    }

    /// A reused parser finds out anew for each text whether it is ASCII (positions of ASCII
    /// text are plain arithmetic; others count characters): non-ASCII bytes in the first
    /// eight, in a later group of eight and in the last few, between ASCII texts.
    @Test func aReusedParserPlacesEachTextByItsOwnCharacters() {
        var parser = RuleParser(reusableFor: SourcePaths.number(of: "ahead.yaml"))
        let texts = ["a == \"é\"", "event1.count > 2", "abcdefgh == \"é\"", "xy", "abcdefghijklmnop == \"xyzé\"",
                     "b == \"ü\" and c", "abcdefghijklmno", "\"日本\" != name"]
        for (line, text) in texts.enumerated() {
            let start = SourceLocation(line: line + 1, column: 7)
            let source = RuleText(text: text, path: "ahead.yaml", mapping: .singleLine(start: start))
            var diagnostics: [Diagnostic] = []
            let expression = RuleParser.parseRule(source, reusing: &parser, diagnostics: &diagnostics)
            #expect(diagnostics.isEmpty, "\(text)")
            let end = SourceLocation(line: line + 1, column: 7 + text.unicodeScalars.count)
            #expect(expression.range == SourceRange(file: "ahead.yaml", start: start, end: end), "\(text)")
        }
    }

    /// A rule text placed so far right that its columns would pass the largest one: positions
    /// stop there instead of wrapping around.
    @Test func columnsNearTheLargestStopThere() {
        let start = SourceLocation(line: 3, column: Int(Int32.max) - 4)
        let text = RuleText(text: "$signedIn and $count >= 3", path: "far.yaml", mapping: .singleLine(start: start))
        var diagnostics: [Diagnostic] = []
        let expression = RuleParser.parseRule(text, diagnostics: &diagnostics)
        #expect(expression.range.start == start)
        #expect(expression.range.end.column == Int(Int32.max))
        #expect(expression.range.end.line == 3)
    }
}

