import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI

@Suite struct JSONReporterTests {
    typealias F = ReporterFixtures

    @Test func exactBytesAndKeyOrder() {
        #expect(JSONReporter().render(F.report) == """
            {"version":1,"diagnostics":[\
            {"file":"Examples/shop.yaml","line":6,"column":3,"endLine":6,"endColumn":13,"severity":"warning","code":"unused","message":"event 'itemViewed' is never used",\
            "notes":[{"message":"declared as an event here","file":"Examples/shop.yaml","line":14,"column":9},{"message":"remove it or use it in a rule"}]},\
            {"file":"Examples/shop.yaml","line":14,"column":9,"endLine":14,"endColumn":23,"severity":"error","code":"unknown-event","message":"no event named 'serchPerformed'","help":"did you mean 'searchPerformed'?"}\
            ],"summary":{"files":3,"errors":1,"warnings":1}}

            """)
    }

    @Test func emptyReport() {
        #expect(JSONReporter().render(DiagnosticReport(diagnostics: [], sources: [], fileCount: 2))
            == #"{"version":1,"diagnostics":[],"summary":{"files":2,"errors":0,"warnings":0}}"# + "\n")
    }

    @Test func stringsAreEscaped() throws {
        let message = "quote \" backslash \\ newline \n tab \t bell \u{07} unicode é 😀"
        let diagnostic = Diagnostic(.syntax, message, at: F.range("dir/a \"b\".yaml", 1, 1, 1, 2))
        let output = JSONReporter().render(DiagnosticReport(diagnostics: [diagnostic], sources: [], fileCount: 1))
        #expect(output.contains(#""message":"quote \" backslash \\ newline \n tab \t bell \u0007 unicode é 😀""#))
        let parsed = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let first = (parsed?["diagnostics"] as? [[String: Any]])?.first
        #expect(first?["message"] as? String == message)
        #expect(first?["file"] as? String == "dir/a \"b\".yaml")
    }
}
