import Foundation
import Testing
@testable import TipcCLI

@Suite struct FormatCommandTests {
    static let messyTips = "tipkit 1\nevent e\ntip t {\n  title \"T\"\n  rule (e.count>1)\n}\n"
    static let cleanTips = "tipkit 1\n\nevent e\n\ntip t {\n  title \"T\"\n  rule e.count > 1\n}\n"
    static let messyYAML = "tipkit: 1  # v\nevents: { e: {} }\ntips:\n  t:\n    title: T\n    rules: [ 'e.count>1' ]\n"

    private func contents(_ path: String) throws -> String {
        try String(contentsOfFile: path, encoding: .utf8)
    }

    @Test func checkListsFilesThatWouldChangeAndWritesNothing() throws {
        let folder = try TemporaryFolder()
        let messy = try folder.write("a/messy.tips", Self.messyTips)
        let clean = try folder.write("b/clean.tips", Self.cleanTips)
        let yaml = try folder.write("c/rules.yaml", Self.messyYAML)
        let run = Invocation(["fmt", "--check", folder.path])
        #expect(run.status == 1)
        #expect(run.stdout == "\(messy)\n\(yaml)\n")
        #expect(try contents(messy) == Self.messyTips)
        #expect(try contents(yaml) == Self.messyYAML)
        let cleanRun = Invocation(["fmt", "--check", clean])
        #expect(cleanRun.status == 0)
        #expect(cleanRun.stdout.isEmpty)
    }

    @Test func rewritesFilesInPlace() throws {
        let folder = try TemporaryFolder()
        let messy = try folder.write("messy.tips", Self.messyTips)
        let yaml = try folder.write("y/rules.yaml", Self.messyYAML)
        // Files given together form one program: one at a time, as they declare the same names.
        let run = Invocation(["fmt", messy])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(Invocation(["fmt", yaml]).status == 0)
        #expect(try contents(messy) == Self.cleanTips)
        #expect(try contents(yaml) == Self.messyYAML.replacingOccurrences(of: "'e.count>1'", with: "'e.count > 1'"))
        #expect(Invocation(["fmt", "--check", messy]).status == 0)
        #expect(Invocation(["fmt", "--check", yaml]).status == 0)
        let leftovers = try FileManager.default.subpathsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".tmp") }
        #expect(leftovers.isEmpty)
    }

    @Test func filesWithErrorsAreReportedAndLeftAlone() throws {
        let folder = try TemporaryFolder()
        let broken = "tipkit 1\ntip t {\n  title \"T\"\n  rule nope.count >  1\n}\n"
        let path = try folder.write("broken.tips", broken)
        let run = Invocation(["fmt", path])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error[unknown-event]"))
        #expect(try contents(path) == broken)
    }

    @Test func missingFileIsAnIOError() throws {
        let folder = try TemporaryFolder()
        let run = Invocation(["fmt", folder.path + "/nope.tips"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error[io]"))
    }
}
