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

    /// A NaN or infinite Double default is an `invalid-value` error at the value, in both front
    /// ends and for every command (fmt used to exit 3: NaN never equals itself on re-reading).
    @Test(arguments: [
        ("d.yaml", "tipkit: 1\nparameters:\n  d: { type: double, default: .nan }\ntips:\n  t: { title: T, rules: [$d > 1.0] }\n",
         "d.yaml:3:31: error[invalid-value]: default of parameter 'd' must be a finite number"),
        ("i.yaml", "tipkit: 1\nparameters:\n  d: { type: double, default: -.inf }\ntips:\n  t: { title: T, rules: [$d > 1.0] }\n",
         "i.yaml:3:31: error[invalid-value]: default of parameter 'd' must be a finite number"),
        ("d.tips", "tipkit 1\nparam d: Double = 1e999\ntip t {\n  title \"T\"\n  rule $d > 1.0\n}\n",
         "d.tips:2:19: error[invalid-value]: floating-point literal '1e999' is out of range"),
    ])
    func aNonFiniteDoubleDefaultIsAnErrorForEveryCommand(_ name: String, _ text: String, _ expected: String) throws {
        let folder = try TemporaryFolder()
        let file = try folder.write(name, text)
        for command in [["check", file], ["fmt", file], ["fmt", "--check", file], ["compile", file, "-o", folder.path + "/out.tippack"]] {
            let run = Invocation(command)
            #expect(run.status == 1, "\(command): \(run.stdout)\(run.stderr)")
            #expect((run.stdout + run.stderr).contains(folder.path + "/" + expected), "\(command): \(run.stdout)\(run.stderr)")
        }
        #expect(try contents(file) == text, "fmt leaves a file with errors alone")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/out.tippack"))
    }

    @Test func missingFileIsAnIOError() throws {
        let folder = try TemporaryFolder()
        let run = Invocation(["fmt", folder.path + "/nope.tips"])
        #expect(run.status == 2)
        #expect(run.stderr.contains("error[io]"))
    }
}
