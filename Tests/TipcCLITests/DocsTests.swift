import Foundation
import Testing
@testable import TipcCLI

/// The reference pages stay true to the tool: the diagnostics page is what
/// `tipc codes --format markdown` writes, and the manifest page names every key of the schema.
@Suite("Reference documentation")
struct DocsTests {
    static func page(_ name: String) throws -> String {
        try String(contentsOf: ReadmeTests.root.appendingPathComponent("docs/" + name), encoding: .utf8)
    }

    @Test func theDiagnosticsPageIsWhatCodesWrites() throws {
        let run = Invocation(["codes", "--format", "markdown"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try Self.page("diagnostics.md") == run.stdout,
                "docs/diagnostics.md is stale: run 'tipc codes --format markdown > docs/diagnostics.md'")
        for code in ["unknown-event", "unknown-locale", "unsatisfiable"] {
            #expect(run.stdout.contains("\n## \(code)\n"))
        }
    }

    @Test func everyManifestKeyOfTheSchemaIsInTheManifestPage() throws {
        let run = Invocation(["schema"])
        #expect(run.status == 0)
        let schema = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        var keys = Set<String>()
        func collect(_ node: Any) {
            if let object = node as? [String: Any] {
                if let properties = object["properties"] as? [String: Any] { keys.formUnion(properties.keys) }
                object.values.forEach(collect)
            } else if let array = node as? [Any] {
                array.forEach(collect)
            }
        }
        collect(schema)
        #expect(keys.isSuperset(of: ["tipkit", "displayFrequency", "maximumAge", "ignoresDisplayFrequency", "asset", "priority"]))
        let page = try Self.page("manifest.md")
        for key in keys.sorted() {
            #expect(page.contains("`\(key)`") || page.contains(".\(key)`") || page.contains("[].\(key)`"),
                    "docs/manifest.md does not name the key '\(key)'")
        }
    }

    @Test func theRuleLanguagePageNamesEveryOperatorAndMember() throws {
        let page = try Self.page("rule-language.md")
        for construct in ["within", "where", "largestSubset", "smallestSubset", "distinct", "count", "now", "date(",
                          "tip(X).invalidated", "tip(X).displays", "tip(X).invalidations", "tip(X, k)", "key",
                          "and", "or", "not", "in [", "==", "%"] {
            #expect(page.contains(construct), "docs/rule-language.md does not mention '\(construct)'")
        }
    }
}

/// No source comment or document cites the team's specification, which is not in the
/// repository: they say the thing, or point to the repository's own docs.
@Suite("No citations of documents outside the repository")
struct NoOutsideCitationsTests {
    @Test func noFileCitesTheSpecification() throws {
        let root = ReadmeTests.root
        let citations = ["SPEC" + ".md", "SPEC" + "'s", "\u{A7}"]  // the section sign, in any form
        var files = ["README.md", "CHANGELOG.md"]
        for folder in ["Sources", "Tests", "docs", "scripts", "Grammar", "clients", "Examples"] {
            let found = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path)?.compactMap { $0 as? String } ?? []
            files += found.filter { name in [".swift", ".md", ".sh", ".ebnf", ".py", ".yaml", ".yml", ".js", ".mjs", ".ts", ".tips"].contains { name.hasSuffix($0) } }.map { folder + "/" + $0 }
        }
        #expect(files.count > 100)
        for file in files {
            // Some fixtures are deliberately not UTF-8.
            let text = String(decoding: try Data(contentsOf: root.appendingPathComponent(file)), as: UTF8.self)
            for citation in citations {
                #expect(!text.contains(citation), "\(file) cites '\(citation)'")
            }
        }
    }
}
