import Foundation
import Testing
@testable import TipcCLI
import TipRuntime

/// The repository's root, for the examples.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

@Suite("compile and inspect")
struct CompileInspectCommandTests {
    @Test func compileIsDeterministicAndInspectReadsThePack() throws {
        let folder = try TemporaryFolder()
        let news = repositoryRoot + "/Examples/news"
        let first = Invocation(["compile", news, "-o", folder.path + "/a.tippack"])
        let second = Invocation(["compile", news, "-o", folder.path + "/b.tippack"])
        #expect(first.status == 0 && second.status == 0, "\(first.stderr)")
        let a = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/a.tippack"))
        #expect(a == (try Data(contentsOf: URL(fileURLWithPath: folder.path + "/b.tippack"))))
        let inspected = Invocation(["inspect", folder.path + "/a.tippack"])
        #expect(inspected.status == 0)
        #expect(inspected.stdout.contains("advancedSearch"))
        let json = Invocation(["inspect", "--format", "json", folder.path + "/a.tippack"])
        #expect((try? JSONSerialization.jsonObject(with: Data(json.stdout.utf8))) != nil)
    }

    @Test func aDamagedPackIsRefusedWithExitOne() throws {
        let folder = try TemporaryFolder()
        _ = Invocation(["compile", repositoryRoot + "/Examples/news", "-o", folder.path + "/a.tippack"])
        var bytes = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/a.tippack"))
        bytes[bytes.count / 2] ^= 0x10
        try bytes.write(to: URL(fileURLWithPath: folder.path + "/bad.tippack"))
        let run = Invocation(["inspect", folder.path + "/bad.tippack"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("invalid rule pack"))
    }

    @Test func compileErrorsWriteNothingAndExitOne() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("bad.yaml", "tipkit: 1\ntips:\n  t:\n    title: T\n    rules: [nope.count > 1]\n")
        let run = Invocation(["compile", manifest, "-o", folder.path + "/out.tippack"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error[unknown-event]"))
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.tippack"))
        #expect(Invocation(["compile", manifest]).status == 2, "no -o is a usage error")
    }
}

@Suite("simulate")
struct SimulateCommandTests {
    static let examples = ["news", "photo-privacy", "backyard-birds", "hiking"]

    @Test(arguments: examples)
    func everyExampleTimelinePasses(_ example: String) throws {
        let folder = repositoryRoot + "/Examples/" + example
        let memory = Invocation(["simulate", folder, "--timeline", folder + "/\(example).timeline.yaml"])
        #expect(memory.status == 0, "\(memory.stdout)\(memory.stderr)")
        #expect(memory.stdout.contains(" 0 failed"))
        let temporary = try TemporaryFolder()
        let onSQLite = Invocation(["simulate", folder, "--timeline", folder + "/\(example).timeline.yaml", "--db", temporary.path + "/s.sqlite"])
        #expect(onSQLite.status == 0, "\(onSQLite.stderr)")
        #expect(onSQLite.stdout == memory.stdout, "the store does not change what a timeline does")
    }

    @Test func aFailedExpectationNamesItsLineAndExitsOne() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", "tipkit 1\nevent opened\ntip t {\n  title \"T\"\n  rule opened.count >= 2\n}\n")
        let timeline = try folder.write("t.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, donate: opened }
          - { at: +1h, expect: { t: available } }
          - { at: +2h, expect: { t: { shouldDisplay: false } } }
        """)
        let run = Invocation(["simulate", manifest, "--timeline", timeline, "--format", "json"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("t.timeline.yaml:4:"))
        #expect(run.stderr.contains("expected t status available, found pending"))
        #expect(!run.stderr.contains("t.timeline.yaml:5:"), "the second expectation holds")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any])
        #expect((json["failures"] as? [Any])?.count == 1)
    }

    @Test func timeGoingBackIsAnError() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", "tipkit 1\ntip t {\n  title \"T\"\n}\n")
        let timeline = try folder.write("t.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +2h, expect: { t: available } }
          - { at: +1h, expect: { t: available } }
        """)
        let run = Invocation(["simulate", manifest, "--timeline", timeline])
        #expect(run.status == 1)
        #expect(run.stderr.contains("t.timeline.yaml:4:5: error[invalid-value]: time goes back"))
    }
}

@Suite("store and explain")
struct StoreExplainCommandTests {
    static let manifest = """
    tipkit 1
    param plan: String = "free" in ["free", "pro"]
    event viewed { itemID: Int }
    tip upgrade {
      title "Upgrade"
      rule $plan == "free" and viewed.count >= 2 within 1d
    }
    """

    @Test func storeActionsWorkOnTheFileAndExportIsJSON() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let db = folder.path + "/tips.sqlite"
        let base = ["store", "--db", db, "--manifest", manifest, "--at", "2026-03-01T09:00:00Z"]
        #expect(Invocation(base + ["donate", "viewed", "--value", "{\"itemID\": 4}", "--count", "2"]).status == 0)
        let wrong = Invocation(base + ["donate", "viewed", "--value", "{\"itemID\": \"four\"}"])
        #expect(wrong.status == 1)
        #expect(Invocation(base + ["set", "plan", "gold"]).status == 1)
        let status = Invocation(base + ["status", "upgrade"])
        #expect(status.stdout.contains("upgrade  available"))
        let export = Invocation(base + ["export"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let donations = try #require(json["donations"] as? [[String: Any]])
        #expect(donations.count == 2)
        #expect(Set(donations[0].keys) == ["id", "event", "date", "value"])
        #expect(json["parameters"] != nil && json["tips"] != nil)

        let explain = Invocation(["explain", manifest, "--db", db, "--tip", "upgrade", "--at", "2026-03-02T10:00:00Z"])
        #expect(explain.status == 0)
        #expect(explain.stdout.contains("rule 1: $plan == \"free\" and viewed.count >= 2 within 1d = false"))
        #expect(explain.stdout.contains("viewed.count = 0"))
        #expect(Invocation(["explain", manifest, "--db", db, "--tip", "upgrad"]).stderr.contains("did you mean 'upgrade'?"))
    }

    @Test func mergeCombinesTwoDevicesStores() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let phone = folder.path + "/phone.sqlite", tablet = folder.path + "/tablet.sqlite"
        _ = Invocation(["store", "--db", phone, "--manifest", manifest, "donate", "viewed", "--value", "{\"itemID\": 1}"])
        _ = Invocation(["store", "--db", tablet, "--manifest", manifest, "donate", "viewed", "--value", "{\"itemID\": 2}"])
        let merged = Invocation(["store", "--db", phone, "--manifest", manifest, "merge", tablet])
        #expect(merged.status == 0, "\(merged.stderr)")
        #expect(merged.stdout.contains("2 donations"))
    }

    @Test func exportShowsOnlyValuesThePackCanRead() throws {
        let folder = try TemporaryFolder()
        let old = try folder.write("old.tips", "tipkit 1\nparam isSignedIn: Int = 0\nparam name: String = \"\"\n")
        let new = try folder.write("new.tips", "tipkit 1\nparam isSignedIn: Bool = false\nparam name: String = \"\"\n")
        let db = folder.path + "/tips.sqlite"
        #expect(Invocation(["store", "--db", db, "--manifest", old, "set", "isSignedIn", "7"]).status == 0)
        #expect(Invocation(["store", "--db", db, "--manifest", old, "set", "name", "Ada"]).status == 0)
        let export = Invocation(["store", "--db", db, "--manifest", new, "export"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let parameters = try #require(json["parameters"] as? [String: Any])
        #expect(parameters["isSignedIn"] == nil, "an Int stored under a Bool parameter is never shown as its value")
        #expect(parameters["name"] as? String == "Ada")
        // The value is kept: the old pack still reads it.
        #expect(Invocation(["store", "--db", db, "--manifest", old, "export"]).stdout.contains("\"isSignedIn\": 7"))
    }

    @Test func aCorruptStoreIsATypedErrorNotACrash() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let db = try folder.write("broken.sqlite", String(repeating: "not a database ", count: 400))
        let run = Invocation(["store", "--db", db, "--manifest", manifest, "status"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("not a tipc database or is damaged"))
    }
}
