import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI

/// Every command groups files the same way.
@Suite("Program grouping")
struct ProgramGroupingTests {
    /// The repository's `Examples` folder.
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    /// Two folders whose manifests each declare `opened`: one program, they would clash.
    func twoApps() throws -> TemporaryFolder {
        let folder = try TemporaryFolder()
        try folder.write("a/app.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opened.count > 0]\n")
        try folder.write("a/more.tips", "tipkit 1\ntip u {\n  title \"U\"\n  rule opened.count > 1\n}\n")
        try folder.write("a/app.timeline.yaml", "start: 2026-03-01T09:00:00Z\nsteps: []\n")
        try folder.write("b/app.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opened.count > 0]\n")
        return folder
    }

    @Test func aFolderAndItsFilesOneByOneAgree() throws {
        let folder = try twoApps()
        let byFolder = Invocation(["check", "--format", "json", folder.path])
        let files = ["a/app.yaml", "a/more.tips", "a/app.timeline.yaml", "b/app.yaml"].map { folder.path + "/" + $0 }
        let byFiles = Invocation(["check", "--format", "json"] + files)
        #expect(byFolder.status == 0)
        #expect(byFiles.status == 0, "\(byFiles.stdout)")
        #expect(byFiles.stdout == byFolder.stdout)
        #expect(byFolder.stdout.contains(#""summary":{"files":3,"errors":0,"warnings":0}"#))
    }

    @Test func theExamplesAgreeToo() throws {
        let paths = try FileManager.default.subpathsOfDirectory(atPath: Self.examples).sorted()
            .filter { SourceDiscovery.isSource($0) || SourceDiscovery.isSwift($0) }.map { Self.examples + "/" + $0 }
        let byFiles = Invocation(["check", "--format", "json"] + paths)
        let byFolder = Invocation(["check", "--format", "json", Self.examples])
        #expect(byFiles.stdout == byFolder.stdout)
        #expect(byFolder.status == 0)
    }

    @Test func nonManifestYAMLInAFolderIsSkippedButNamedIsAnError() throws {
        let folder = try TemporaryFolder()
        try folder.write("app.yaml", "tipkit: 1\n")
        let compose = try folder.write("docker-compose.yml", "services:\n  web:\n    image: nginx\n")
        let walked = Invocation(["check", folder.path])
        #expect(walked.status == 0)
        #expect(!walked.stdout.contains("docker-compose") && !walked.stderr.contains("docker-compose"))
        let named = Invocation(["check", "--format", "json", compose])
        #expect(named.status == 1)
        #expect(named.stdout.contains(#""code":"missing-key""#))
    }

    @Test func aMissingPathDoesNotHideTheOthersFindings() throws {
        let folder = try TemporaryFolder()
        let bad = try folder.write("bad.tips", "tipkit 1\ntip t {\n  title \"T\"\n  rule nope.count > 0\n}\n")
        let missing = folder.path + "/gone.yaml"
        let run = Invocation(["check", "--format", "json", missing, bad])
        #expect(run.status == 2)
        #expect(run.stdout.contains(#""code":"io""#))
        #expect(run.stdout.contains(#""code":"unknown-event""#))
    }

    @Test func compileRefusesSeveralPrograms() throws {
        let folder = try twoApps()
        let out = folder.path + "/app.tippack"
        let both = Invocation(["compile", folder.path, "-o", out])
        #expect(both.status == 2)
        #expect(both.stderr.contains("the paths hold 2 programs"))
        #expect(!FileManager.default.fileExists(atPath: out))
        let one = Invocation(["compile", folder.path + "/a", "-o", out])
        #expect(one.status == 0, "\(one.stderr)")
        let sameFiles = Invocation(["compile", folder.path + "/a/app.yaml", folder.path + "/a/more.tips", "-o", out + "2"])
        #expect(sameFiles.status == 0)
        #expect(FileManager.default.contents(atPath: out) == FileManager.default.contents(atPath: out + "2"))
    }

    @Test func theTopLevelTipkitKeyIsFoundInItsSpellings() {
        for text in ["tipkit: 1\n", "# c\n\"tipkit\" : 1\n", "'tipkit': 1", "{tipkit: 1}", "x: 1\r\ntipkit:\r\n"] {
            #expect(SourceDiscovery.hasTopLevelTipkitKey(Array(text.utf8)), "\(text)")
        }
        for text in ["", "services: {}\n", "  tipkit: 1\n", "tipkits: 1\n", "x:\n  tipkit: 1\n"] {
            #expect(!SourceDiscovery.hasTopLevelTipkitKey(Array(text.utf8)), "\(text)")
        }
    }
}
