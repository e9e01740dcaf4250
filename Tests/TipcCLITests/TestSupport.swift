import Foundation
@testable import TipcCLI

/// Runs the command line in-process with captured output.
struct Invocation {
    var status: Int32
    var stdout: String
    var stderr: String

    /// `workingDirectory` is where `.tipc.yml` is looked for (the process's own by default: it
    /// has none); `stdin` is what `-` reads.
    init(_ arguments: [String], environment: [String: String] = [:], stderrIsTerminal: Bool = false,
         stdoutIsTerminal: Bool = false, workingDirectory: String? = nil, stdin: String = "") {
        let out = CapturedOutput(isTerminal: stdoutIsTerminal)
        let err = CapturedOutput(isTerminal: stderrIsTerminal)
        status = TipcCommandLine.run(arguments: arguments, environment: environment, stdout: out, stderr: err,
                                     workingDirectory: workingDirectory, standardInput: { Array(stdin.utf8) })
        stdout = out.text
        stderr = err.text
    }
}

/// A temporary folder removed at the end of a test.
final class TemporaryFolder {
    let path: String

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = path + "/" + name
        try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent,
                                                withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: file))
        return file
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
