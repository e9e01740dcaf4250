import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler

/// A report prints at most `DiagnosticReport.maximumShown` diagnostics, errors first, and says
/// how many it left out; the summary counts them all.
@Suite struct ReportCapTests {
    /// A manifest with `count` duplicate `title` keys: one `duplicate-key` error each.
    static func duplicateKeys(_ count: Int) -> String {
        "tipkit: 1\ntips:\n  t:\n    title: T\n" + String(repeating: "    title: T\n", count: count)
    }

    @Test func aReportOfManyDiagnosticsPrintsTheCapAndCountsTheRest() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/dup.yaml"
        try Self.duplicateKeys(2_500).write(toFile: path, atomically: true, encoding: .utf8)

        let text = Invocation(["check", path])
        #expect(text.status == 1)
        #expect(text.stdout.components(separatedBy: "error[duplicate-key]").count - 1 == DiagnosticReport.maximumShown)
        #expect(text.stdout.contains("note: 1500 more diagnostics not shown (a report prints the first 1000)\nerror: 2500 errors in 1 file\n"),
                "\(text.stdout.suffix(300))")

        let json = Invocation(["check", "--format", "json", path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect((document["diagnostics"] as? [Any])?.count == DiagnosticReport.maximumShown)
        let summary = try #require(document["summary"] as? [String: Int])
        #expect(summary == ["files": 1, "errors": 2_500, "warnings": 0, "omitted": 1_500])

        let github = Invocation(["check", "--format", "github", path])
        let lines = github.stdout.split(separator: "\n")
        #expect(lines.count == DiagnosticReport.maximumShown + 1)
        #expect(lines.last == "::notice::1500 more diagnostics not shown (a report prints the first 1000)")

        let sarif = Invocation(["check", "--format", "sarif", path])
        let log = try #require(try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any])
        let run = try #require((log["runs"] as? [[String: Any]])?.first)
        #expect((run["results"] as? [Any])?.count == DiagnosticReport.maximumShown)
        let notification = ((run["invocations"] as? [[String: Any]])?.first?["toolExecutionNotifications"] as? [[String: Any]])?.first
        #expect((notification?["message"] as? [String: String])?["text"] == "1500 more diagnostics not shown (a report prints the first 1000)")
    }

    @Test func aReportThatFitsSaysNothingMore() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/dup.yaml"
        try Self.duplicateKeys(DiagnosticReport.maximumShown).write(toFile: path, atomically: true, encoding: .utf8)
        let json = Invocation(["check", "--format", "json", path])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["summary"] as? [String: Int] == ["files": 1, "errors": 1_000, "warnings": 0])
        #expect(!Invocation(["check", path]).stdout.contains("not shown"))
    }

    /// Errors take the places first: warnings found before an error do not push it out.
    @Test func errorsArePrintedBeforeWarningsTakeThePlaces() {
        let file = "many.yaml"
        func at(_ line: Int) -> SourceRange { SourceRange(file: file, at: SourceLocation(line: line, column: 1)) }
        let warnings = (1...1_500).map { Diagnostic(.unused, "warning \($0)", at: at($0)) }
        let errors = [Diagnostic(.limit, "late error", at: at(2_000))]
        let report = DiagnosticReport(diagnostics: warnings + errors, sources: [:], fileCount: 1)
        #expect(report.diagnostics.count == DiagnosticReport.maximumShown)
        #expect(report.diagnostics.last?.message == "late error")
        #expect(report.diagnostics.first?.message == "warning 1")
        #expect(report.omittedCount == 501)
        #expect(report.errorCount == 1 && report.warningCount == 1_500)
    }
}
