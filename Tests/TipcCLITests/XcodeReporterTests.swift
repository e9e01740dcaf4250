import Testing
import TipcCompiler
@testable import TipcCLI

/// `--format xcode` and `--diagnostics xcode`: one `path:line:col: severity: message [code]`
/// line per diagnostic, help and notes as `note:` lines, for Xcode, SwiftPM and the build plugin.
@Suite struct XcodeReporterTests {
    typealias F = ReporterFixtures

    @Test func oneLinePerDiagnosticHelpAndNote() {
        #expect(XcodeReporter().render(F.report) == """
            Examples/shop.yaml:6:3: warning: event 'itemViewed' is never used [unused]
            Examples/shop.yaml:14:9: note: declared as an event here
            Examples/shop.yaml:6:3: note: remove it or use it in a rule
            Examples/shop.yaml:14:9: error: no event named 'serchPerformed' [unknown-event]
            Examples/shop.yaml:14:9: note: help: did you mean 'searchPerformed'?

            """)
    }

    @Test func aLineBreakInAMessageDoesNotStartALine() {
        let diagnostic = Diagnostic(.yaml, "first\nsecond", at: F.range("a.yaml", 2, 1, 2, 1))
        #expect(XcodeReporter().render(diagnostic) == "a.yaml:2:1: error: first second [yaml]\n")
    }

    @Test func checkCompileAndGenerateWriteIt() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opend.count > 0\n}\n")
        let expected = "\(path):5:8: error: no event named 'opend' [unknown-event]\n\(path):5:8: note: help: did you mean 'opened'?\n"
        let check = Invocation(["check", path, "--format", "xcode"])
        #expect(check.status == 1 && check.stdout == expected, "\(check.stdout)")
        let compile = Invocation(["compile", path, "-o", folder.path + "/app.tippack", "--diagnostics", "xcode"])
        #expect(compile.status == 1 && compile.stderr == expected, "\(compile.stderr)")
        let generate = Invocation(["generate", "swift", path, "--diagnostics", "xcode"])
        #expect(generate.status == 1 && generate.stderr == expected, "\(generate.stderr)")
        let text = Invocation(["compile", path, "-o", folder.path + "/app.tippack"])
        #expect(text.stderr.contains("error[unknown-event]"))
    }
}
