import Testing
import TipcCompiler
@testable import TipcCLI

@Suite struct TextReporterTests {
    typealias F = ReporterFixtures

    @Test func specExampleExactly() {
        let report = DiagnosticReport(diagnostics: [F.unknownEvent], sources: [F.shop])
        #expect(TextReporter(colored: false).render(report) == """
            Examples/shop.yaml:14:9: error[unknown-event]: no event named 'serchPerformed'
               |
            14 |       - serchPerformed.count >= 3 within 3d
               |         ^^^^^^^^^^^^^^
               = help: did you mean 'searchPerformed'?

            error: 1 error in 1 file

            """)
    }

    @Test func notesWithAndWithoutRangeAndSummary() {
        #expect(TextReporter(colored: false).render(F.report) == """
            Examples/shop.yaml:6:3: warning[unused]: event 'itemViewed' is never used
               |
             6 |   itemViewed: {}
               |   ^^^^^^^^^^
               = note: declared as an event here
              --> Examples/shop.yaml:14:9
               |
            14 |       - serchPerformed.count >= 3 within 3d
               |         ^^^^^^^^^^^^^^
               = note: remove it or use it in a rule

            Examples/shop.yaml:14:9: error[unknown-event]: no event named 'serchPerformed'
               |
            14 |       - serchPerformed.count >= 3 within 3d
               |         ^^^^^^^^^^^^^^
               = help: did you mean 'searchPerformed'?

            error: 1 error and 1 warning in 3 files

            """)
    }

    @Test func colouredOutput() {
        let report = DiagnosticReport(diagnostics: [F.unknownEvent], sources: [F.shop])
        let esc = "\u{1B}["
        #expect(TextReporter(colored: true).render(report) == """
            \(esc)1mExamples/shop.yaml:14:9:\(esc)0m \(esc)1;31merror[unknown-event]\(esc)0m\(esc)1m: no event named 'serchPerformed'\(esc)0m
            \(esc)1;34m   |\(esc)0m
            \(esc)1;34m14 |\(esc)0m       - serchPerformed.count >= 3 within 3d
            \(esc)1;34m   |\(esc)0m         \(esc)1;31m^^^^^^^^^^^^^^\(esc)0m
               \(esc)1;34m=\(esc)0m \(esc)1mhelp\(esc)0m: did you mean 'searchPerformed'?

            \(esc)1;31merror\(esc)0m\(esc)1m: 1 error in 1 file\(esc)0m

            """)
    }

    @Test func warningsOnlySummaryAndCleanReport() {
        let reporter = TextReporter(colored: false)
        let warnings = DiagnosticReport(diagnostics: [F.unusedEvent, F.unusedEvent], sources: [F.shop])
        #expect(reporter.summary(of: warnings) == "warning: 2 warnings in 1 file")
        #expect(reporter.render(DiagnosticReport(diagnostics: [], sources: [F.shop])) == "")
    }

    @Test func tabsExpandConsistentlyWithCarets() {
        let source = SourceFile(path: "t.tips", text: "\trule\t$x == 1\n")
        let diagnostic = Diagnostic(.unknownParameter, "no parameter named 'x'", at: F.range("t.tips", 1, 7, 1, 9))
        let text = TextReporter(colored: false).render(diagnostic, sources: ["t.tips": source])
        #expect(text == """
            t.tips:1:7: error[unknown-parameter]: no parameter named 'x'
              |
            1 |     rule    $x == 1
              |             ^^

            """)
    }

    @Test func multiLineRangeUnderlinesToEndOfFirstLine() {
        let source = SourceFile(path: "m.tips", text: "tip a {\n  title \"x\"\n}\n")
        let diagnostic = Diagnostic(.missingKey, "tip 'a' has no title", at: F.range("m.tips", 1, 5, 3, 2))
        let text = TextReporter(colored: false).render(diagnostic, sources: ["m.tips": source])
        #expect(text.contains("1 | tip a {\n  |     ^^^\n"))
    }

    @Test func zeroWidthAndPastEndRangesStillShowOneCaret() {
        let source = SourceFile(path: "z.tips", text: "rule a and\n")
        let atEnd = Diagnostic(.syntax, "expected an expression", at: F.range("z.tips", 1, 11, 1, 11))
        let text = TextReporter(colored: false).render(atEnd, sources: ["z.tips": source])
        #expect(text.hasSuffix("1 | rule a and\n  |           ^\n"))
    }

    @Test func wideCharactersTakeTwoColumns() {
        let source = SourceFile(path: "w.tips", text: "title \"日本\" x\n")
        let diagnostic = Diagnostic(.syntax, "unexpected 'x'", at: F.range("w.tips", 1, 12, 1, 13))
        let text = TextReporter(colored: false).render(diagnostic, sources: ["w.tips": source])
        #expect(text.hasSuffix("1 | title \"日本\" x\n  |              ^\n"))
    }

    @Test func controlCharactersAreNotPassedToTheTerminal() {
        let source = SourceFile(path: "c.tips", text: "a\u{1B}[31mb\n")
        let diagnostic = Diagnostic(.syntax, "bad \u{1B}[2J input", at: F.range("c.tips", 1, 1, 1, 2))
        let text = TextReporter(colored: false).render(diagnostic, sources: ["c.tips": source])
        #expect(!text.contains("\u{1B}"))
    }

    @Test func withoutSourceOnlyTheHeaderIsShown() {
        let diagnostic = Diagnostic(.io, "cannot read 'x.yaml'", at: F.range("x.yaml", 1, 1, 1, 1))
        #expect(TextReporter(colored: false).render(diagnostic, sources: [:])
            == "x.yaml:1:1: error[io]: cannot read 'x.yaml'\n")
    }

    @Test func gutterWidensForTheLargestLineShown() {
        let lines = (1...120).map { "line \($0)" }
        let source = SourceFile(path: "big.tips", text: lines.joined(separator: "\n"))
        let diagnostic = Diagnostic(.syntax, "bad", at: F.range("big.tips", 9, 1, 9, 5),
                                    notes: [DiagnosticNote("see", at: F.range("big.tips", 120, 1, 120, 5))])
        let text = TextReporter(colored: false).render(diagnostic, sources: ["big.tips": source])
        #expect(text.contains("\n    |\n  9 | line 9\n    | ^^^^\n"))
        #expect(text.contains("\n   --> big.tips:120:1\n    |\n120 | line 120\n"))
    }
}

@Suite struct LongLineSnippetTests {
    @Test func aVeryLongLineIsShownAsAWindowAroundTheRange() {
        let line = String(repeating: "a and ", count: 1_000) + "nope.count > 1"
        let source = SourceFile(path: "long.tips", text: "tipkit 1\n" + line + "\n")
        let column = line.count - "nope.count > 1".count + 1
        let diagnostic = Diagnostic(.unknownEvent, "no event named 'nope'",
                                    at: SourceRange(file: "long.tips", start: SourceLocation(line: 2, column: column),
                                                    end: SourceLocation(line: 2, column: column + 4)))
        let lines = TextReporter(colored: false).render(diagnostic, sources: ["long.tips": source]).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count < 300 })
        let shown = String(lines[2]), carets = String(lines[3])
        #expect(shown.contains("| …"), "the cut is marked")
        let caretStart = carets.firstIndex(of: "^")!
        let offset = carets.distance(from: carets.startIndex, to: caretStart)
        let underlined = shown.dropFirst(offset).prefix(4)
        #expect(underlined == "nope")
    }
}
