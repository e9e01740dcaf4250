import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI
import TipcDriver

@Suite struct CheckCommandTests {
    @Test func usageErrorsExitTwo() {
        let unknown = Invocation(["check", "--fromat", "json", "a.yaml"])
        #expect(unknown.status == 2)
        #expect(unknown.stderr == """
            Error: Unknown option '--fromat'
            Help: did you mean '--format'?
            Usage: tipc check [--format <format>] [--strict] [--color <color>] [--config <file>] [--quiet] [--output-file <file>] [--stdin-filename <name>] <paths> ...
              See 'tipc check --help' for more information.

            """)
        let noPaths = Invocation(["check", "--strict"])
        #expect(noPaths.status == 2)
        #expect(noPaths.stderr.hasPrefix("Error: Missing expected argument '<paths> ...'"))
        let badFormat = Invocation(["check", "--format=xml", "a.yaml"])
        #expect(badFormat.status == 2)
        #expect(badFormat.stderr.hasPrefix("Error: The value 'xml' is invalid for '--format <format>'\nHelp: the value must be one of 'text', 'json', 'sarif', 'github', 'xcode'\n"))
        let missing = Invocation(["check", "a.yaml", "--color"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("Error: Missing value for '--color <color>'"))
    }

    @Test func missingPathIsAnIOError() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path + "/nope.yaml"
        let run = Invocation(["check", missing])
        #expect(run.status == 2)
        // The text report on stdout says it, once: not again on stderr (where `2>&1` would
        // print it twice).
        #expect(run.stdout == "\(missing):1:1: error[io]: cannot read '\(missing)': no such file or directory\n\nerror: 1 error\n")
        #expect(run.stderr == "")
    }

    @Test func ioErrorsOfATextReportWrittenToAFileAreOnStderr() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path + "/nope.yaml"
        let run = Invocation(["check", missing, "--output-file", folder.path + "/report.txt"])
        #expect(run.status == 2)
        #expect(run.stdout == "")
        #expect(run.stderr == "\(missing):1:1: error[io]: cannot read '\(missing)': no such file or directory\n")
    }

    @Test func ioErrorsInJSONAreAlsoOnStderr() throws {
        let folder = try TemporaryFolder()
        let good = try folder.write("good.yaml", "tipkit: 1\n")
        let missing = folder.path + "/gone.tips"
        let run = Invocation(["check", "--format", "json", good, missing])
        #expect(run.status == 2)
        #expect(run.stdout.hasPrefix(#"{"version":1,"diagnostics":[{"file":"\#(missing)","line":1,"column":1,"endLine":1,"endColumn":1,"severity":"error","code":"io","#))
        #expect(run.stdout.hasSuffix(#""summary":{"files":1,"errors":1,"warnings":0}}"# + "\n"))
        #expect(run.stderr.contains("error[io]: cannot read '\(missing)'"))
    }

    @Test func emptyFolderIsAnIOError() throws {
        let folder = try TemporaryFolder()
        try folder.write("notes.txt", "not a manifest")
        let run = Invocation(["check", folder.path])
        #expect(run.status == 2)
        #expect(run.stdout.contains("error[io]: no source files (*.yaml, *.yml, *.tips) in '\(folder.path)'"))
    }

    @Test(.enabled(if: getuid() != 0, "root can read any file"))
    func unreadableFileIsAnIOError() throws {
        let folder = try TemporaryFolder()
        let locked = try folder.write("locked.yaml", "tipkit: 1\n")
        try FileManager.default.setAttributes([.posixPermissions: 0], ofItemAtPath: locked)
        let run = Invocation(["check", locked])
        #expect(run.status == 2)
        #expect(run.stdout.contains("error[io]: cannot read '\(locked)'"))
    }

    @Test func readableInputWithoutFindingsExitsZero() throws {
        let folder = try TemporaryFolder()
        try folder.write("a.yaml", "tipkit: 1\n")
        try folder.write("sub/b.tips", "tipkit 1\n")
        try folder.write("flow.timeline.yaml", "start: 2026-03-01T09:00:00Z\n")
        let result = Frontend.check(sources: [SourceFile(path: folder.path + "/a.yaml", text: "tipkit: 1\n"),
                                              SourceFile(path: folder.path + "/sub/b.tips", text: "tipkit 1\n")])
        let expected = ExitCode.forCheck(result.diagnostics, strict: true, inputUnreadable: false)
        let run = Invocation(["check", "--strict", "--format=json", folder.path])
        #expect(run.status == expected.rawValue)
        #expect(run.stdout.hasSuffix(#""summary":{"files":2,"errors":\#(result.diagnostics.errorCount),"warnings":\#(result.diagnostics.warningCount)}}"# + "\n"))
    }

    @Test func githubFormatIsTheDefaultUnderGitHubActions() throws {
        let folder = try TemporaryFolder()
        let missing = folder.path + "/x.yaml"
        let actions = Invocation(["check", missing], environment: ["GITHUB_ACTIONS": "true"])
        #expect(actions.stdout.hasPrefix("::error file=\(missing),line=1,col=1,"))
        #expect(actions.stderr.contains("error[io]"))
        let explicit = Invocation(["check", "--format", "text", missing], environment: ["GITHUB_ACTIONS": "true"])
        #expect(explicit.stdout.hasPrefix("\(missing):1:1: error[io]"))
        let local = Invocation(["check", missing], environment: [:])
        #expect(local.stdout.hasPrefix("\(missing):1:1: error[io]"))
    }

    @Test func sarifOnStdout() throws {
        let run = Invocation(["check", "--format", "sarif", "/nonexistent/tipc/x.yaml"])
        #expect(run.status == 2)
        let document = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8)) as? [String: Any]
        #expect(document?["version"] as? String == "2.1.0")
    }

    /// Colour follows standard output, where the report goes.
    @Test func colourFollowsTheColorOptionAndEnvironment() {
        let path = "/nonexistent/tipc/x.yaml"
        #expect(Invocation(["check", path], stdoutIsTerminal: true).stdout.contains("\u{1B}["))
        #expect(!Invocation(["check", path], stderrIsTerminal: true).stdout.contains("\u{1B}["))
        #expect(!Invocation(["check", path], environment: ["NO_COLOR": "1"], stdoutIsTerminal: true).stdout.contains("\u{1B}["))
        #expect(!Invocation(["check", path], environment: ["TERM": "dumb"], stdoutIsTerminal: true).stdout.contains("\u{1B}["))
        #expect(!Invocation(["check", "--color", "never", path], stdoutIsTerminal: true).stdout.contains("\u{1B}["))
        #expect(Invocation(["check", "--color=always", path], environment: ["NO_COLOR": "1"]).stdout.contains("\u{1B}["))
    }
}
