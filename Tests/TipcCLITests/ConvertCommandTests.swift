import Foundation
import Testing
@testable import TipcCLI

@Suite struct ConvertCommandTests {
    static let yaml = """
        tipkit: 1
        events:
          # Opened the app.
          opened: {}
        tips:
          welcome:
            title: Hello
            rules: [opened.count > 0]

        """

    @Test func printsTheOtherFrontEnd() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("app.yaml", Self.yaml)
        let run = Invocation(["convert", path, "--to", "tips"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout == "tipkit 1\n\n// Opened the app.\nevent opened\n\ntip welcome {\n  title \"Hello\"\n  rule opened.count > 0\n}\n")
        let tips = try folder.write("app.tips", run.stdout)
        let back = Invocation(["convert", tips, "--to", "yaml"])
        #expect(back.status == 0)
        #expect(back.stdout.contains("  # Opened the app.\n  opened: {}\n"))
    }

    @Test func writesToAnOutputFile() throws {
        let folder = try TemporaryFolder()
        let path = try folder.write("app.yaml", Self.yaml)
        let output = folder.path + "/app.tips"
        let run = Invocation(["convert", path, "--to=tips", "-o", output])
        #expect(run.status == 0)
        #expect(run.stdout.isEmpty)
        #expect(try String(contentsOfFile: output, encoding: .utf8).hasPrefix("tipkit 1\n"))
        #expect(Invocation(["check", output]).status == 0)
    }

    @Test func errorsAndUsage() throws {
        let folder = try TemporaryFolder()
        let broken = try folder.write("broken.yaml", "tipkit: 1\ntips:\n  t:\n    title: T\n    rules: [a.count >]\n")
        let run = Invocation(["convert", broken, "--to", "tips"])
        #expect(run.status == 1)
        #expect(run.stderr.contains("error[syntax]"))
        #expect(run.stdout.isEmpty)
        #expect(Invocation(["convert", broken]).status == 2)
        #expect(Invocation(["convert", broken, "--to", "json"]).status == 2)
        #expect(Invocation(["convert", folder.path + "/missing.yaml", "--to", "tips"]).status == 2)
        let infinite = try folder.write("inf.yaml", "tipkit: 1\nparameters:\n  x: { type: double, default: .inf }\n")
        let unrepresentable = Invocation(["convert", infinite, "--to", "tips"])
        #expect(unrepresentable.status == 1)
        #expect(unrepresentable.stderr.contains("parameter 'x'"))
    }
}
