import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI
import TipcDriver

/// `tipc codes`, and the same explanations in SARIF; partial fingerprints; notes in JSON.
@Suite("Codes explained")
struct CodesCommandTests {
    @Test func listsEveryCodeWithItsSeverity() {
        let run = Invocation(["codes"])
        #expect(run.status == 0)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == DiagnosticCode.allCases.count)
        #expect(lines.contains { $0.hasPrefix("unsatisfiable") && $0.contains("warning") && $0.contains("can never all hold") })
    }

    @Test func explainsOneCodeWithAnExample() {
        let run = Invocation(["codes", "unknown-event"])
        #expect(run.status == 0)
        #expect(run.stdout.hasPrefix("unknown-event (error): "))
        #expect(run.stdout.contains("For example, app.tips:\n\n    tipkit 1\n"))
        let typo = Invocation(["codes", "unsatisfiabel"])
        #expect(typo.status == 2)
        #expect(typo.stderr.contains("did you mean 'unsatisfiable'?"))
    }

    /// Every example in `tipc codes CODE` really gives that code.
    @Test(arguments: DiagnosticCode.allCases.filter { $0.example != nil })
    func theExampleGivesItsCode(_ code: DiagnosticCode) throws {
        let example = try #require(code.example)
        let result = Frontend.check(sources: [SourceFile(path: example.file, text: example.text)])
        #expect(result.diagnostics.contains { $0.code == code }, "\(result.diagnostics.map { "\($0.code): \($0.message)" })")
    }

    @Test func sarifRulesCarryTheExplanationsAndResultsAFingerprint() throws {
        func sarif(_ text: String) throws -> [String: Any] {
            let source = SourceFile(path: "app.tips", text: text)
            let result = Frontend.check(sources: [source])
            let output = SARIFReporter(toolVersion: "test").render(DiagnosticReport(diagnostics: result.diagnostics, sources: result.sources, fileCount: 1))
            return try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        }
        func run(_ document: [String: Any]) throws -> [String: Any] {
            try #require((document["runs"] as? [[String: Any]])?.first)
        }
        let text = "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count >= 0\n}\n"
        let first = try run(try sarif(text))
        let driver = try #require((first["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        for rule in rules {
            #expect((rule["fullDescription"] as? [String: Any])?["text"] as? String != nil)
            #expect(((rule["help"] as? [String: Any])?["text"] as? String)?.isEmpty == false)
        }
        func fingerprints(_ run: [String: Any]) throws -> [String] {
            try #require(run["results"] as? [[String: Any]]).compactMap { ($0["partialFingerprints"] as? [String: String])?["tipcDiagnostic/v1"] }
        }
        let before = try fingerprints(first)
        #expect(before.count == 1 && before[0].count == 16)
        // A line added above moves the finding but keeps its fingerprint; another finding differs.
        #expect(try fingerprints(try run(try sarif("// a comment\n" + text))) == before)
        #expect(try fingerprints(try run(try sarif(text.replacingOccurrences(of: ">= 0", with: ">= 0 or true")))) != before)
    }

    @Test func jsonKeepsNotesAndSaysItsVersion() throws {
        let source = SourceFile(path: "app.yaml", text: "tipkit: 1\ntips:\n  t:\n    title: One\n    title: Two\n")
        let result = Frontend.check(sources: [source])
        let output = JSONReporter().render(DiagnosticReport(diagnostics: result.diagnostics, sources: result.sources, fileCount: 1))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        #expect(document["version"] as? Int == 1)
        let diagnostic = try #require((document["diagnostics"] as? [[String: Any]])?.first)
        let note = try #require((diagnostic["notes"] as? [[String: Any]])?.first)
        #expect(note["message"] as? String == "'title' is first defined here")
        #expect(note["line"] as? Int == 4 && note["file"] as? String == "app.yaml")
    }
}
