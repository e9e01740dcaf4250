import Foundation
import Testing
import TipcCompiler
import TipRuntime
@testable import TipcCLI
import TipcDriver

/// What users notice (issue 16, item 8): did-you-means, one diagnostic per mistake, grammar,
/// streams and usage.
@Suite("Small things users notice")
struct SmallThingsTests {
    static let app = "tipkit 1\nparam n: Int = 0\nevent e\ntip welcome {\n  title \"T\"\n  rule e.count > 0 or $n > 0\n}\n"

    func check(_ path: String, _ text: String) -> [Diagnostic] {
        Frontend.check(sources: [SourceFile(path: path, text: text)]).diagnostics
    }

    @Test func didYouMeanForTipsMembersAndStatuses() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.app)
        let db = folder.path + "/s.sqlite"
        #expect(Invocation(["store", "--db", db, "--manifest", manifest, "donate", "e"]).status == 0)
        for action in [["status", "welcom"], ["invalidate", "welcom"], ["reset", "welcom"]] {
            let run = Invocation(["store", "--db", db, "--manifest", manifest] + action)
            #expect(run.status == 1)
            #expect(run.stderr == "error: no tip named 'welcom'; did you mean 'welcome'?\n")
        }
        let member = check("app.tips", "tipkit 1\nevent e\ntip t {\n  title \"T\"\n  rule e.cnt > 1\n}\n")
        #expect(member.map(\.help) == ["did you mean 'count'?"])
        let timeline = try folder.write("app.timeline.yaml", "start: 2026-03-01T09:00:00Z\nsteps:\n  - { at: +1m, expect: { welcome: availble } }\n")
        let run = Invocation(["simulate", manifest, "--timeline", timeline])
        #expect(run.status == 1)
        #expect(run.stderr.contains("unknown status 'availble'") && run.stderr.contains("did you mean 'available'?"))
    }

    @Test func oneDiagnosticForOneMistake() throws {
        #expect(check("app.yaml", "tipkit: 1\nparameters:\n  a: { type: bol, default: false }\n").filter { $0.severity == .error }.map(\.message)
            == ["unknown type 'bol'"])
        #expect(check("app.yaml", "tipkit: 1\nevents:\n  e:\n    value: { id: integer }\n").filter { $0.severity == .error }.map(\.message)
            == ["unknown type 'integer'"])
        #expect(check("app.tips", "tipkit 1\nparam a: Bol = false\n").filter { $0.severity == .error }.map(\.code) == [.invalidValue])
        #expect(check("app.yaml", "").map(\.message) == ["a manifest must be a mapping, found nothing"])
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.app)
        let timeline = try folder.write("t.timeline.yaml", "start: 2026-03-01T09:00:00Z\nsteps:\n  - { at: 5m, donate: e }\n")
        let run = Invocation(["simulate", manifest, "--timeline", timeline])
        #expect(run.stderr.components(separatedBy: "error[").count == 2, "\(run.stderr)")
        #expect(run.stderr.contains("did you mean '+5m'?"))
    }

    @Test func grammar() throws {
        #expect(EnglishText.withArticle("Int") == "an Int" && EnglishText.withArticle("Bool") == "a Bool")
        #expect(EnglishText.count(1, "step") == "1 step" && EnglishText.count(2, "step") == "2 steps")
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.app)
        let set = Invocation(["store", "--db", folder.path + "/s.sqlite", "--manifest", manifest, "set", "n", "yes"])
        #expect(set.stderr == "error: 'yes' is not an Int (parameter 'n')\n")
        let timeline = try folder.write("t.timeline.yaml", "start: 2026-03-01T09:00:00Z\nsteps:\n  - { at: +1m, donate: e }\n")
        #expect(Invocation(["simulate", manifest, "--timeline", timeline]).stdout.hasSuffix("1 step, 0 expectations, 0 failed\n"))
        #expect(check("app.tips", "tipkit 1\nparam n: Int = \"x\"\n").first { $0.severity == .error }?.help == "write an int such as 0")
    }

    @Test func compileWritesToStandardOutputAndSaysWhyItCannotWrite() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.app)
        let out = CapturedOutput()
        let err = CapturedOutput()
        #expect(TipcCommandLine.run(arguments: ["compile", manifest, "-o", "-"], environment: [:], stdout: out, stderr: err) == 0)
        #expect(Array(out.bytes.prefix(PackFormat.magic.count)) == PackFormat.magic)
        #expect(err.text.isEmpty)
        let onFile = folder.path + "/app.tippack"
        #expect(Invocation(["compile", manifest, "-o", onFile]).status == 0)
        #expect(FileManager.default.contents(atPath: onFile).map { [UInt8]($0) } == out.bytes)
        let intoFolder = Invocation(["compile", manifest, "-o", folder.path])
        #expect(intoFolder.status == 2)
        #expect(intoFolder.stderr == "error: cannot write '\(folder.path)': is a directory\n")
        let noFolder = Invocation(["compile", manifest, "-o", folder.path + "/none/app.tippack"])
        #expect(noFolder.stderr.contains("no such directory"))
    }

    @Test func usageMarksRequiredOptionsAndRefusesExtraArguments() {
        #expect(Invocation(["compile", "--help"]).stdout.contains("USAGE: tipc compile --output <file> [--config <file>] [--diagnostics <diagnostics>] <paths> ..."))
        #expect(Invocation(["explain", "--help"]).stdout.contains("USAGE: tipc explain --db <file> --tip <id> [--at <date>]"))
        #expect(Invocation(["simulate", "--help"]).stdout.contains("USAGE: tipc simulate --timeline <file> [--db <file>]"))
        #expect(Invocation(["convert", "--help"]).stdout.contains("USAGE: tipc convert --to <to> "))
        let extra = Invocation(["codes", "unused", "extra"])
        #expect(extra.status == 2 && extra.stderr.hasPrefix("Error: Unexpected argument 'extra'"))
    }

    @Test func simulateDoesNotEmptyAStoreSilently() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.app)
        let timeline = try folder.write("t.timeline.yaml", "start: 2026-03-01T09:00:00Z\nsteps:\n  - { at: +1m, donate: e }\n")
        let db = folder.path + "/s.sqlite"
        #expect(Invocation(["simulate", manifest, "--timeline", timeline, "--db", db]).status == 0)
        let again = Invocation(["simulate", manifest, "--timeline", timeline, "--db", db])
        #expect(again.status == 2)
        #expect(again.stderr.contains("holds data, which a simulation replaces; add --fresh"))
        #expect(Invocation(["simulate", manifest, "--timeline", timeline, "--db", db, "--fresh"]).status == 0)
    }
}
