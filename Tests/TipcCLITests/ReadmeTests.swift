import Foundation
import Testing
import TipcCompiler
import TipRuntime
@testable import TipcCLI
import TipcDriver

/// The README's examples, and the reference pages' examples of the same program, as a newcomer
/// would try them: the manifest checks cleanly, its `.tips` twin (docs/rule-language.md)
/// compiles to the same pack, its timeline (docs/cli.md) holds, the first-tip steps run, the
/// diagnostic is what `tipc check` prints and the service answers. The Swift blocks are
/// `DocsSwiftSnippetTests`'.
@Suite("README examples")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Fenced blocks of a page of the repository (the README by default) as (info string, text).
    static func blocks(in page: String = "README.md") throws -> [(info: String, text: String)] {
        try FencedBlock.all(in: page).map { ($0.info, $0.text) }
    }

    static func manifest() throws -> String { try #require(try blocks().first { $0.info == "yaml" && $0.text.contains("tipkit: 1") }).text }
    static func twin() throws -> String { try #require(try blocks(in: "docs/rule-language.md").first { $0.info.isEmpty && $0.text.hasPrefix("tipkit 1\n") }).text }

    @Test func theFrontDoorIsShort() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.split(separator: "\n", omittingEmptySubsequences: false).count <= 266)
    }

    /// The layout section lists the modules and folders that exist, in Package.swift's order.
    @Test func theLayoutSectionIsTheTree() throws {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", Self.root.appendingPathComponent("scripts/layout.py").path, "--check"]
        let errors = Pipe()
        python.standardError = errors
        try python.run()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "\(message)")
    }

    /// "A first tip in five minutes": each command, run in a folder holding the manifest as
    /// `tips/app.yaml`, succeeds, and `explain` says the tip is available.
    @Test func theFirstTipStepsRun() throws {
        let steps = try #require(try Self.blocks().first { $0.info == "sh" && $0.text.contains("tipc explain") }).text
        let folder = try TemporaryFolder()
        try folder.write("tips/app.yaml", try Self.manifest())
        let local: Set<String> = ["tips", "app.tippack", "user.sqlite"]
        var last = Invocation(["--version"])
        for line in steps.split(separator: "\n") {
            let words = line.split(separator: " ").map(String.init)
            #expect(words.first == "tipc")
            last = Invocation(words.dropFirst().map { local.contains($0) ? folder.path + "/" + $0 : $0 })
            #expect(last.status == 0, "\(line): \(last.stdout)\(last.stderr)")
        }
        #expect(last.stdout.contains("available"), "\(last.stdout)")
    }

    @Test func theManifestAndItsTwinCheckCleanlyAndAreTheSameProgram() throws {
        var packs: [RulePack] = []
        for source in [SourceFile(path: "app.yaml", text: try Self.manifest()), SourceFile(path: "app.tips", text: try Self.twin())] {
            let (result, pack) = Frontend.compile(sources: [source])
            #expect(result.diagnostics.isEmpty, "\(source.path): \(result.diagnostics.map { "\($0.range.start.line): \($0.message)" })")
            var stripped = try #require(pack)
            stripped.tips = stripped.tips.map { tip in
                var tip = tip
                tip.rules = tip.rules.map { RuleProgram(code: $0.code) }
                return tip
            }
            packs.append(stripped)
        }
        #expect(packs[0] == packs[1])
    }

    @Test func theTimelineHoldsOnTheManifest() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.yaml", try Self.manifest())
        let timeline = try folder.write("app.timeline.yaml", try #require(try Self.blocks(in: "docs/cli.md").first { $0.info == "yaml" && $0.text.hasPrefix("start:") }).text)
        let run = Invocation(["simulate", manifest, "--timeline", timeline])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains(", 0 failed"))
    }

    @Test func theDiagnosticIsWhatCheckPrintsForTheFileItNames() throws {
        let block = try #require(try Self.blocks().first { $0.text.contains("error[unknown-event]") }).text
        let path = String(try #require(block.split(separator: ":").first))
        #expect(FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(path).path))
        // Run on the absolute path (the working directory is shared by parallel tests), then
        // read the output as if run from the repository's root.
        let run = Invocation(["check", "--color", "never", Self.root.appendingPathComponent(path).path])
        #expect(run.status == 1)
        #expect((run.stdout + run.stderr).replacingOccurrences(of: Self.root.path + "/", with: "") == block)
    }

    /// "The service": the README's requests, sent to a real `tipc serve` of the backyard-birds
    /// app, give the answer its last comment shows.
    @Test func theServiceExampleAnswersAsShown() throws {
        let block = try #require(try Self.blocks().first { $0.info == "sh" && $0.text.contains("tipc serve --pack") }).text
        let folder = try TemporaryFolder()
        let pack = folder.path + "/backyard-birds.tippack"
        #expect(Invocation(["compile", Self.root.appendingPathComponent("Examples/backyard-birds").path, "-o", pack]).status == 0)
        let server = try ServerProcess(pack: pack, store: folder.path + "/serve.sqlite")
        var reply: HTTPReply?
        for line in block.split(separator: "\n") where line.hasPrefix("curl ") {
            let method = line.contains("-X PUT") ? "PUT" : line.contains("-X POST") ? "POST" : "GET"
            let url = try #require(line.range(of: "http://127.0.0.1:8080").map { line[$0.upperBound...] })
            let path = String(url.prefix { $0 != " " && $0 != "'" })
            let body = line.range(of: "-d '").map { range in String(line[range.upperBound...].prefix { $0 != "'" }) }
            let times = line.hasSuffix("# three times") ? 3 : 1
            for _ in 0..<times {
                reply = try server.request(method, path, body: body)
                #expect(reply?.status ?? 0 < 300, "\(line): \(reply?.text ?? "")")
            }
        }
        let shown = try #require(block.split(separator: "\n").last?.split(separator: "# ").last)
        #expect(reply?.text.hasPrefix(String(shown.dropLast(4))) == true, "\(reply?.text ?? "")")
    }

    /// Excerpts of the example apps (a YAML block whose first line names the file) say what
    /// those files say: every line of the excerpt, its comments left out, is a line of the file.
    @Test func theExcerptsAreOfTheExamples() throws {
        let pages = ["README.md"] + (try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("docs").path))
            .filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        let excerpts = try pages.flatMap { try Self.blocks(in: $0) }.filter { $0.info == "yaml" && $0.text.hasPrefix("# Examples/") }
        #expect(excerpts.count >= 3)
        func code(_ line: Substring) -> String {
            let text = line.range(of: "  #").map { line[..<$0.lowerBound] } ?? line
            return text.trimmingCharacters(in: .whitespaces)
        }
        for excerpt in excerpts {
            let lines = excerpt.text.split(separator: "\n")
            let path = String(lines[0].dropFirst(2))
            let file = try String(contentsOf: Self.root.appendingPathComponent(path), encoding: .utf8)
            let fileLines = Set(file.split(separator: "\n").map(code))
            for line in lines.dropFirst() where !code(line).isEmpty {
                #expect(fileLines.contains(code(line)), "\(path) has no line '\(code(line))'")
            }
        }
    }

    /// "In a repository" (docs/cli.md): the `.tipc.yml` reads cleanly, the suppression example
    /// leaves nothing to report (and each comment is needed); and the README's pre-commit
    /// configuration names a hook this repository defines.
    @Test func theRepositoryExamplesHold() throws {
        let blocks = try Self.blocks(in: "docs/cli.md") + Self.blocks() + Self.blocks(in: "docs/install.md")
        let configuration = try #require(blocks.first { $0.info == "yaml" && $0.text.hasPrefix("include:") }).text
        var diagnostics: [Diagnostic] = []
        let read = LintConfiguration.read(SourceFile(path: ".tipc.yml", text: configuration), diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
        #expect(read.codes[.unused] == .off && read.strict == true)

        let suppressed = try #require(blocks.first { $0.text.hasPrefix("# tipc-disable-file") }).text
        #expect(Frontend.check(sources: [SourceFile(path: "app.yaml", text: suppressed)]).diagnostics.isEmpty)
        for comment in ["# tipc-disable-file always-true -- the welcome rule is a placeholder\n", "  # tipc-disable-next-line unused\n"] {
            #expect(!Frontend.check(sources: [SourceFile(path: "app.yaml", text: suppressed.replacingOccurrences(of: comment, with: "\n"))]).diagnostics.isEmpty)
        }

        let preCommit = try #require(blocks.first { $0.info == "yaml" && $0.text.hasPrefix("repos:") }).text
        let hooks = try String(contentsOf: Self.root.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
        #expect(preCommit.contains("- id: tipc-check") && hooks.contains("- id: tipc-check"))
        let workflow = try #require(blocks.first { $0.info == "yaml" && $0.text.hasPrefix("jobs:") }).text
        #expect(workflow.contains("github/codeql-action/upload-sarif") && workflow.contains("sarif: tipc.sarif"))
    }
}
