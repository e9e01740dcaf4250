import Foundation
import Testing
import TipRuntime

/// One program, one pack: `tipc compile` writes the same bytes whatever folder it runs in, however
/// the program's folder is named on the command line, and whether the program is written as YAML
/// or as the `.tips` that `tipc convert` makes of it.
@Suite("reproducible packs")
struct ReproduciblePackTests {
    static let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Examples").path

    /// `tipc compile PATH -o -` run by the built tipc in `folder`: the pack's bytes.
    static func compile(_ path: String, in folder: String) throws -> [UInt8] {
        let process = Process()
        process.executableURL = try ExecutableTests.executable()
        process.arguments = ["compile", path, "-o", "-"]
        process.currentDirectoryURL = URL(fileURLWithPath: folder)
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let bytes = out.fileHandleForReading.readDataToEndOfFile()
        let errors = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "compile \(path) in \(folder): \(String(decoding: errors, as: UTF8.self))")
        return [UInt8](bytes)
    }

    @Test(arguments: ["news", "hiking", "photo-privacy", "backyard-birds"])
    func sameBytesFromAnyFolderAndEitherFrontEnd(app: String) throws {
        let root = try TemporaryFolder()
        let manifest = try String(contentsOfFile: "\(Self.examples)/\(app)/\(app).yaml", encoding: .utf8)
        try root.write("one/\(app)/\(app).yaml", manifest)
        try root.write("two/nested/deeper/\(app)/\(app).yaml", manifest)
        let converted = Invocation(["convert", "\(root.path)/one/\(app)/\(app).yaml", "--to", "tips"])
        #expect(converted.status == 0, "\(converted.stderr)")
        try root.write("tips/\(app)/\(app).tips", converted.stdout)

        let reference = try Self.compile(app, in: root.path + "/one")
        let pack = try RulePackLoader.decode(reference).pack
        #expect(!pack.tips.isEmpty)
        #expect(!pack.strings.contains { $0.hasSuffix(".yaml") || $0.hasSuffix(".tips") }, "no file name is kept")
        #expect(try Self.compile(".", in: "\(root.path)/two/nested/deeper/\(app)") == reference, "compiled from inside the folder")
        #expect(try Self.compile("\(root.path)/two/nested/deeper/\(app)", in: "/") == reference, "compiled by absolute path")
        #expect(try Self.compile("deeper/\(app)/\(app).yaml", in: "\(root.path)/two/nested") == reference, "compiled by file")
        #expect(try Self.compile(app, in: root.path + "/tips") == reference, "compiled from the converted .tips")
    }

    /// TipKit Swift sources too: the positions of their tips stay out of the pack.
    @Test func swiftSourcesGiveTheSameBytesFromAnyFolder() throws {
        let root = try TemporaryFolder()
        for file in try FileManager.default.contentsOfDirectory(atPath: "\(Self.examples)/backyard-birds-swift") {
            let text = try String(contentsOfFile: "\(Self.examples)/backyard-birds-swift/\(file)", encoding: .utf8)
            try root.write("one/app/\(file)", text)
            try root.write("two/elsewhere/app/\(file)", text)
        }
        let reference = try Self.compile("app", in: root.path + "/one")
        #expect(!reference.isEmpty)
        #expect(try Self.compile(".", in: root.path + "/two/elsewhere/app") == reference)
    }

    /// Packs compiled in memory keep their positions, for `explain` to quote the sources; a pack
    /// file names its rules by number.
    @Test func packsCompiledInMemoryKeepTheirPositions() throws {
        let root = try TemporaryFolder()
        let manifest = try root.write("app.yaml", "tipkit: 1\nevents:\n  opened: {}\ntips:\n  t:\n    title: T\n    rules: [opened.count > 1]\n")
        let db = root.path + "/store.sqlite"
        #expect(Invocation(["store", "--db", db, "--manifest", manifest, "--at", "2026-03-01T09:00:00Z", "donate", "opened"]).status == 0)
        let fromSources = Invocation(["explain", manifest, "--db", db, "--tip", "t", "--at", "2026-03-02T10:00:00Z"])
        #expect(fromSources.status == 0, "\(fromSources.stderr)")
        #expect(fromSources.stdout.contains("opened.count > 1 = false"), "\(fromSources.stdout)")
        #expect(fromSources.stdout.contains("opened.count = 1"), "\(fromSources.stdout)")

        #expect(Invocation(["compile", manifest, "-o", root.path + "/app.tippack"]).status == 0)
        let fromPack = Invocation(["explain", root.path + "/app.tippack", "--db", db, "--tip", "t", "--at", "2026-03-02T10:00:00Z"])
        #expect(fromPack.status == 0, "\(fromPack.stderr)")
        #expect(fromPack.stdout.contains("rule 1 = false"), "\(fromPack.stdout)")
    }
}
