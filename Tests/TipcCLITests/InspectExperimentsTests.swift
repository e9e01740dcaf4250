import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipcDriver
import TipRuntime

/// `tipc inspect` shows a pack's experiments table, as text and as JSON.
@Suite struct InspectExperimentsTests {
    static let manifest = """
        tipkit: 1
        defaultLocale: en
        events:
          favorited: {}
        tips:
          favorite:
            title: Save {trail} as a favorite
            placeholders: { trail: string }
            actions:
              - { id: save, title: Save }
        experiments:
          copy:
            tip: favorite
            arms:
              control: { weight: 45 }
              short:
                weight: 45
                title: { en: "Star {trail}", de: "{trail} merken" }
                image: { asset: star-badge }
                actions: []
              holdout: { weight: 10, hidden: true }
            goal: favorited within 7d

        """

    static func inspector() throws -> RulePackInspector {
        let result = Frontend.check(sources: [SourceFile(path: "copy.yaml", text: manifest)])
        let program = try #require(result.program, "\(result.diagnostics.map(\.message))")
        var diagnostics: [Diagnostic] = []
        let pack = try #require(RulePackCompiler.compileToBytes(program, diagnostics: &diagnostics))
        return try RulePackInspector(bytes: pack)
    }

    @Test func theTextListsEachExperimentAndItsArms() throws {
        let text = try Self.inspector().text()
        let section = text.components(separatedBy: "experiments (1):\n").last ?? ""
        #expect(section == """
              copy on favorite goal favorited within 7d salt "copy"
                arm control 45
                arm short 45
                  title en: "Star {trail}"
                  title de: "{trail} merken"
                  image asset "star-badge"
                  no actions
                arm holdout 10 hidden

            """)
    }

    @Test func theJSONHasTheExperimentsModel() throws {
        let json = try Self.inspector().json()
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let experiments = try #require(object["experiments"] as? [[String: Any]])
        #expect(experiments.count == 1)
        let experiment = experiments[0]
        #expect(experiment["name"] as? String == "copy" && experiment["tip"] as? String == "favorite" && experiment["salt"] as? String == "copy")
        #expect((experiment["goal"] as? [String: Any])?["event"] as? String == "favorited")
        let arms = try #require(experiment["arms"] as? [[String: Any]])
        #expect(arms.map { $0["name"] as? String } == ["control", "short", "holdout"])
        #expect(arms.map { $0["weight"] as? Int } == [45, 45, 10])
        #expect(arms.map { $0["hidden"] as? Bool } == [false, false, true])
        let title = try #require(arms[1]["title"] as? [[String: Any]])
        #expect(title.map { $0["locale"] as? String } == ["en", "de"])
        #expect(title.first?["text"] as? String == "Star {trail}")
        #expect(arms[1]["imageKind"] as? String == "asset")
        #expect((arms[1]["actions"] as? [Any])?.isEmpty == true)
        #expect(arms[0]["actions"] == nil)
    }

    @Test func aPackWithoutExperimentsHasNoExperimentsKeyOrSection() throws {
        let result = Frontend.check(sources: [SourceFile(path: "plain.yaml", text: "tipkit: 1\ntips:\n  t: { title: T }\n")])
        let program = try #require(result.program)
        var diagnostics: [Diagnostic] = []
        let inspector = try RulePackInspector(bytes: try #require(RulePackCompiler.compileToBytes(program, diagnostics: &diagnostics)))
        #expect(!inspector.text().contains("experiments"))
        #expect(!inspector.json().contains("\"experiments\""))
    }
}
