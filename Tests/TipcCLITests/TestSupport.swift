import Foundation
import TipcTestSupport
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

/// A temporary folder removed at the end of a test (shared by the test targets).
typealias TemporaryFolder = TipcTestSupport.TemporaryFolder
