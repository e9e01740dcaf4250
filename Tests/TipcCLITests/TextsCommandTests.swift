import Foundation
import Testing
@testable import TipcCLI

/// Localized texts through the commands: `explain --locale`, `inspect` and `compile`.
@Suite("texts in the commands")
struct TextsCommandTests {
    static let manifest = """
        tipkit: 1
        defaultLocale: en
        parameters:
          userName: { type: string, default: friend }
        events:
          searched: {}
        tips:
          quickSearch:
            title: { en: Search faster, de: Schneller suchen, de-CH: Schnäller sueche }
            message:
              en: "Press {shortcut} to search, {$userName}."
              de: "Drücke {shortcut} zum Suchen, {$userName}."
            placeholders: { shortcut: string }
            actions:
              - { id: learn-more, title: { en: Learn more, de: Mehr erfahren } }
            rules:
              - searched.count >= 1
        """

    @Test func explainShowsTheTextsInTheLocaleAskedFor() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.yaml", Self.manifest)
        let db = folder.path + "/tips.sqlite"
        let set = Invocation(["store", "--db", db, "--manifest", manifest, "set", "userName", "Alex"])
        #expect(set.status == 0, "\(set.stderr)")
        let swiss = Invocation(["explain", manifest, "--db", db, "--tip", "quickSearch", "--locale", "de-CH"])
        #expect(swiss.status == 0, "\(swiss.stderr)")
        #expect(swiss.stdout.contains("""
              texts (de-CH):
                title: Schnäller sueche
                message: Drücke {shortcut} zum Suchen, Alex.
                action learn-more: Mehr erfahren

            """))
        let french = Invocation(["explain", manifest, "--db", db, "--tip", "quickSearch", "--locale", "fr", "--format", "json"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(french.stdout.utf8)) as? [String: Any])
        let texts = try #require(json["texts"] as? [String: Any])
        #expect(texts["title"] as? String == "Search faster")
        #expect(texts["message"] as? String == "Press {shortcut} to search, Alex.")
        // Without --locale, explain shows no texts.
        #expect(!Invocation(["explain", manifest, "--db", db, "--tip", "quickSearch"]).stdout.contains("texts"))
    }

    @Test func inspectListsTheTextsTable() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.yaml", Self.manifest)
        let pack = folder.path + "/app.tippack"
        #expect(Invocation(["compile", manifest, "-o", pack]).status == 0)
        let text = Invocation(["inspect", pack])
        #expect(text.stdout.contains("texts (1), default locale: en:\n  quickSearch placeholders { shortcut: String }\n"))
        #expect(text.stdout.contains("    message de: \"Drücke {shortcut} zum Suchen, {$userName}.\"\n"))
        #expect(text.stdout.contains("    action \"learn-more\" de: \"Mehr erfahren\"\n"))
        let json = Invocation(["inspect", pack, "--format", "json"])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let texts = try #require(document["texts"] as? [String: Any])
        #expect(texts["defaultLocale"] as? String == "en")
    }
}
