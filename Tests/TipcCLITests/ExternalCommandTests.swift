import Foundation
import Testing
import TipcCLI

/// `tipc serve` runs `tipc-serve` from the folder of the running `tipc`; without it, it says so.
@Suite("external commands")
struct ExternalCommandTests {
    @Test func serveWithoutTipcServeBesideTipcSaysItIsNotInstalled() throws {
        let folder = try TemporaryFolder()
        try FileManager.default.copyItem(atPath: try ExecutableTests.executable().path, toPath: folder.path + "/tipc")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: folder.path + "/tipc")
        process.arguments = ["serve", "--pack", "app.tippack"]
        let err = Pipe()
        process.standardError = err
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(stderr.contains("error: 'tipc serve' runs 'tipc-serve', which is not installed beside tipc (no '\(folder.path)/tipc-serve')"), "\(stderr)")
        #expect(stderr.contains("swift build --product tipc-serve"))
    }

    @Test func serveAndItsHelpRunTipcServe() throws {
        let help = try ExecutableTests.run(["help", "serve"])
        #expect(help.status == 0)
        #expect(help.stdout.contains("--pack <path>") && help.stdout.contains("tipc serve"), "\(help.stdout)")
        #expect(try ExecutableTests.run(["serve", "--help"]).stdout == help.stdout)
        let wrong = try ExecutableTests.run(["serve", "--pak", "x"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("See 'tipc serve --help'"), "\(wrong.stderr)")
    }

    @Test func theRootHelpListsServeAndInProcessThereIsNoExecutable() {
        #expect(Invocation(["--help"]).stdout.contains("  serve "))
        let inProcess = Invocation(["serve", "--pack", "app.tippack"])
        #expect(inProcess.status == 2)
        #expect(inProcess.stderr.contains("'tipc-serve', which is not installed beside tipc"))
    }
}
