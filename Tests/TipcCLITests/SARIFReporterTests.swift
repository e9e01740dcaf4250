import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI

@Suite struct SARIFReporterTests {
    typealias F = ReporterFixtures

    func parse(_ report: DiagnosticReport) throws -> [String: Any] {
        let output = SARIFReporter(toolVersion: "9.9.9").render(report)
        return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
    }

    @Test func documentShape() throws {
        let document = try parse(F.report)
        #expect(document["version"] as? String == "2.1.0")
        #expect((document["$schema"] as? String)?.contains("sarif-2.1.0") == true)
        let runs = try #require(document["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let run = runs[0]
        #expect(run["columnKind"] as? String == "unicodeCodePoints")
        let driver = try #require((run["tool"] as? [String: Any])?["driver"] as? [String: Any])
        #expect(driver["name"] as? String == "tipc")
        #expect(driver["version"] as? String == "9.9.9")
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.compactMap { $0["id"] as? String } == DiagnosticCode.allCases.map(\.rawValue))
        let unknownEventRule = try #require(rules.first { $0["id"] as? String == "unknown-event" })
        #expect((unknownEventRule["shortDescription"] as? [String: Any])?["text"] as? String
            == DiagnosticCode.unknownEvent.summary)
    }

    @Test func results() throws {
        let run = try #require((try parse(F.report)["runs"] as? [[String: Any]])?.first)
        let results = try #require(run["results"] as? [[String: Any]])
        #expect(results.count == 2)
        let warning = results[0]
        #expect(warning["ruleId"] as? String == "unused")
        #expect(warning["level"] as? String == "warning")
        #expect((warning["message"] as? [String: Any])?["text"] as? String
            == "event 'itemViewed' is never used\nnote: remove it or use it in a rule")
        let related = try #require(warning["relatedLocations"] as? [[String: Any]])
        #expect(related.count == 1)
        #expect((related[0]["message"] as? [String: Any])?["text"] as? String == "declared as an event here")

        let error = results[1]
        #expect(error["ruleId"] as? String == "unknown-event")
        #expect(error["ruleIndex"] as? Int == DiagnosticCode.allCases.firstIndex(of: .unknownEvent))
        #expect(error["level"] as? String == "error")
        #expect((error["message"] as? [String: Any])?["text"] as? String
            == "no event named 'serchPerformed'\nhelp: did you mean 'searchPerformed'?")
        let location = try #require((error["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "Examples/shop.yaml")
        let region = try #require(location["region"] as? [String: Int])
        #expect(region == ["startLine": 14, "startColumn": 9, "endLine": 14, "endColumn": 23])
    }

    @Test func columnsAreAtLeastOneAndURIsEncoded() throws {
        let diagnostic = Diagnostic(.io, "cannot read", at: F.range("/tmp/my dir/a%b.yaml", 0, 0, 0, 0))
        let run = try #require((try parse(DiagnosticReport(diagnostics: [diagnostic], sources: []))["runs"] as? [[String: Any]])?.first)
        let location = try #require(((run["results"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])?
            .first?["physicalLocation"] as? [String: Any])
        #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "file:///tmp/my%20dir/a%25b.yaml")
        let region = try #require(location["region"] as? [String: Int])
        #expect(region["startColumn"] == 1)
        #expect(region["startLine"] == 1)
    }
}
