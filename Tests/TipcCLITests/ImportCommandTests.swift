import Foundation
import Testing
@testable import TipcCLI

/// `tipc import` and Swift paths given to `check`, `compile` and `simulate`.
@Suite struct ImportCommandTests {
    static let tips = """
    import TipKit

    struct SearchTip: Tip {
        static let searched = Tips.Event(id: "searchPerformed")
        @Parameter static var isLoggedIn: Bool = false

        var id: String { "advancedSearch" }
        var title: Text { Text("Try Advanced Search") }
        var rules: [Rule] {
            #Rule(Self.$isLoggedIn) { $0 }
            #Rule(Self.searched) { $0.donations.donatedWithin(.days(3)).count >= 3 }
        }
    }
    """

    @Test func importsAFolderAsYAMLAndTips() throws {
        let folder = try TemporaryFolder()
        try folder.write("App/Tips/SearchTip.swift", Self.tips)
        try folder.write("App/Views/ContentView.swift", "import SwiftUI\nstruct ContentView: View { var body: some View { Text(\"Hi\") } }\n")
        let yaml = Invocation(["import", folder.path + "/App"])
        #expect(yaml.status == 0)
        #expect(yaml.stderr.isEmpty)
        #expect(yaml.stdout.contains("  advancedSearch:\n    title: Try Advanced Search\n    rules:\n      - $isLoggedIn\n      - searchPerformed.within(3d).count >= 3\n"))
        #expect(yaml.stdout.contains("searchPerformed:\n    donationLimit: { maximumCount: 1000 }"))

        let output = folder.path + "/out.tips"
        let tips = Invocation(["import", folder.path + "/App", "--to", "tips", "-o", output])
        #expect(tips.status == 0)
        let written = try String(contentsOfFile: output, encoding: .utf8)
        #expect(written.contains("tip advancedSearch {"))
        // The written manifest checks clean.
        #expect(Invocation(["check", output]).status == 0)
    }

    /// A whole app: a TipKit file beside App Intents, regex literals and a file the Swift reader
    /// cannot read. The tips are imported; the unreadable file is a warning naming it.
    @Test func importsAWholeAppFolder() throws {
        let folder = try TemporaryFolder()
        try folder.write("App/Tips/SearchTip.swift", Self.tips)
        try folder.write("App/Intents/SearchIntent.swift", """
            import AppIntents
            struct SearchIntent: AppIntent {
                static let title: LocalizedStringResource = "Search"
                @Parameter(title: "Logged in", default: true) var isLoggedIn: Bool
                @Parameter(title: "Query") var query: String
            }
            """)
        try folder.write("App/Model/Parser.swift", "let quote = /a\"b/\nlet tag = #/<\"[a-z]+\">/#\nfunc half(_ n: Int) -> Int { n / 2 }\n")
        try folder.write("App/Model/Truncated.swift", "import SwiftUI\nstruct Half: View {\n    var body: some View {\n        Text(\"cut off\")\n")
        let run = Invocation(["import", folder.path + "/App"])
        #expect(run.status == 0)
        #expect(run.stderr.contains("Truncated.swift:2:19: warning[syntax]: "))
        #expect(run.stderr.contains("Truncated.swift cannot be read as Swift (the file ends inside the '{' opened here)"))
        #expect(run.stdout.contains("# left out: \(folder.path)/App/Model/Truncated.swift (cannot be read as Swift)"))
        #expect(run.stdout.contains("parameters:\n  isLoggedIn: { type: bool, default: false }\n\nevents:"))
        #expect(run.stdout.contains("  advancedSearch:\n    title: Try Advanced Search\n"))
        #expect(!run.stdout.contains("query"))
        let check = Invocation(["check", folder.path + "/App"])
        #expect(check.status == 0)
        #expect(check.stdout.contains("warning[syntax]"))
    }

    /// A truncated Swift file given alone does not pass: nothing of it could be read.
    @Test func aTruncatedFileAloneIsAnError() throws {
        let folder = try TemporaryFolder()
        let truncated = try folder.write("Tip.swift", String(Self.tips.dropLast(40)))
        let check = Invocation(["check", truncated])
        #expect(check.status == 1)
        #expect(check.stdout.contains("Tip.swift:3:23: error[syntax]: "))
        #expect(check.stdout.contains("cannot be read as Swift (the file ends inside the '{' opened here)"))
        #expect(Invocation(["import", truncated]).status == 1)
    }

    @Test func approximationsAreWarnedButImported() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("Hello.swift", "import TipKit\nstruct HelloTip: Tip {\n    var name = \"you\"\n    var title: Text { Text(\"Hi \\(name)\") }\n}\n")
        let run = Invocation(["import", file])
        #expect(run.status == 0)
        #expect(run.stderr.contains("Hello.swift:4:23: warning[import-approximated]"))
        #expect(run.stdout.contains("# left out: text built at run time"))
    }

    @Test func errorsAndUsage() throws {
        let folder = try TemporaryFolder()
        #expect(Invocation(["import", folder.path + "/missing"]).status == 2)
        try folder.write("notes.yaml", "tipkit: 1\n")
        let empty = Invocation(["import", folder.path])
        #expect(empty.status == 2)
        #expect(empty.stderr.contains("no Swift files"))
        let broken = try folder.write("Broken.swift", "let s = \"never closed\n")
        #expect(Invocation(["import", broken]).status == 1)
    }

    @Test func checkOnAFolderOfSwiftReportsSwiftPositions() throws {
        let folder = try TemporaryFolder()
        try folder.write("App/Events.swift", "import TipKit\nenum Events { static let opened = Tips.Event(id: \"opened\") }\n")
        try folder.write("App/Tips.swift", """
        import TipKit
        struct OpenTip: Tip {
            var title: Text { Text("Open") }
            var rules: [Rule] {
                #Rule(Events.opened) { event in
                    event.donations.count >= true
                }
            }
        }
        """)
        // A manifest beside the Swift files is a program of its own.
        try folder.write("App/other.yaml", "tipkit: 1\ntips:\n  other: { title: Other }\n")
        let run = Invocation(["check", "--format", "json", folder.path + "/App"])
        #expect(run.status == 1)
        #expect(run.stdout.contains("\"file\":\"\(folder.path)/App/Tips.swift\",\"line\":6,\"column\":13"))
        #expect(run.stdout.contains("type-mismatch"))
    }

    @Test func compileAndSimulateSwift() throws {
        let folder = try TemporaryFolder()
        try folder.write("App/SearchTip.swift", Self.tips)
        let timeline = try folder.write("search.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, set: { isLoggedIn: true } }
          - { at: +1h, donate: searchPerformed }
          - { at: +2h, donate: searchPerformed }
          - { at: +2h, expect: { advancedSearch: pending } }
          - { at: +3h, donate: searchPerformed }
          - { at: +3h, expect: { advancedSearch: available } }
          - { at: +4d, expect: { advancedSearch: pending } }
        """)
        let pack = folder.path + "/app.tippack"
        #expect(Invocation(["compile", folder.path + "/App", "-o", pack]).status == 0)
        let simulated = Invocation(["simulate", folder.path + "/App", "--timeline", timeline])
        #expect(simulated.status == 0, "\(simulated.stdout)\(simulated.stderr)")
        #expect(simulated.stdout.contains("0 failed"))
    }

    @Test func fmtNeverRewritesSwift() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("App/SearchTip.swift", Self.tips)
        #expect(Invocation(["fmt", folder.path + "/App"]).status == 0)
        #expect(try String(contentsOfFile: file, encoding: .utf8) == Self.tips)
    }
}
