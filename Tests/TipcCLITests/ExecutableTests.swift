import Foundation
import Testing

/// Runs the built `tipc` executable as a separate process.
@Suite struct ExecutableTests {
    /// The `tipc` binary next to the test bundle (`.build/debug/tipc`).
    static func executable() throws -> URL {
        var candidates: [URL] = []
        if let bundle = Bundle.main.executableURL {
            candidates.append(bundle.deletingLastPathComponent().appendingPathComponent("tipc"))
        }
        let ownExecutable = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        candidates.append(ownExecutable.deletingLastPathComponent().appendingPathComponent("tipc"))
        for bundle in Bundle.allBundles {
            candidates.append(bundle.bundleURL.deletingLastPathComponent().appendingPathComponent("tipc"))
        }
        let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        candidates.append(packageRoot.appendingPathComponent(".build/debug/tipc"))
        let found = candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        return try #require(found, "no tipc executable among \(candidates.map(\.path))")
    }

    static func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = try executable()
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment.removeValue(forKey: "GITHUB_ACTIONS")
        process.environment = environment
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: stdout, as: UTF8.self), String(decoding: stderr, as: UTF8.self))
    }

    @Test func version() throws {
        let result = try Self.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("tipc "))
        #expect(result.stderr.isEmpty)
    }

    @Test func unknownCommandExitsTwo() throws {
        let result = try Self.run(["chek", "x.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("Error: Unknown subcommand 'chek'\nHelp: did you mean 'check'?\n"))
    }

    @Test func missingFileExitsTwoWithoutColourOnAPipe() throws {
        let result = try Self.run(["check", "/nonexistent/tipc/x.yaml"])
        #expect(result.status == 2)
        #expect(result.stdout.hasPrefix("/nonexistent/tipc/x.yaml:1:1: error[io]: "))
        #expect(!result.stdout.contains("\u{1B}"))
    }
}
