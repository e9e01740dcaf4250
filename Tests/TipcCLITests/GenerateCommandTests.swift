import Foundation
import Testing
@testable import TipcCLI

/// `tipc generate tipkit`: each example app as TipKit Swift replays its timeline unchanged.
@Suite struct GenerateCommandTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    @Test(arguments: [("backyard-birds", "ios17"), ("photo-privacy", "ios18")])
    func generatedSwiftReplaysTheAppsTimeline(_ app: String, _ minimum: String) throws {
        let folder = try TemporaryFolder()
        let output = folder.path + "/App/Tips.swift"
        try FileManager.default.createDirectory(atPath: folder.path + "/App", withIntermediateDirectories: true)
        let generated = Invocation(["generate", "tipkit", Self.examples + "/" + app, "-o", output, "--minimum-os", minimum])
        #expect(generated.status == 0, "\(generated.stderr)")
        let check = Invocation(["check", "--strict", folder.path + "/App"])
        #expect(check.status == 0, "\(check.stderr)")
        let simulated = Invocation(["simulate", folder.path + "/App", "--timeline", Self.examples + "/\(app)/\(app).timeline.yaml"])
        #expect(simulated.status == 0, "\(simulated.stdout)\(simulated.stderr)")
    }

    /// The news app's follow-up reads the welcome tip's record (`tip(welcome)`, format 2), which
    /// TipKit cannot say: refused at the rule, never dropped.
    @Test func aRuleAboutAnotherTipIsRefused() throws {
        let news = Invocation(["generate", "tipkit", Self.examples + "/news", "--minimum-os", "ios26"])
        #expect(news.status == 1)
        #expect(news.stderr.contains("news.yaml:43:9: error[tipkit-unsupported]"), "\(news.stderr)")
    }

    @Test func tooOldAMinimumAndUnbuiltKindsAreRefused() throws {
        let news = Invocation(["generate", "tipkit", Self.examples + "/news", "--minimum-os", "ios18"])
        #expect(news.status == 1)
        #expect(news.stderr.contains("error[tipkit-unsupported]: a donation limit other than TipKit's 1,000 newest needs TipKit of ios26"))
        let unknown = Invocation(["generate", "kotlin", Self.examples + "/news"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr.contains("unknown kind 'kotlin'"))
    }
}
