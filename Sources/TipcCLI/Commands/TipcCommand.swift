#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a command may use while it runs: the environment, the working directory (where
/// `.tipc.yml` is looked for), standard input and the two output streams.
public struct CommandContext {
    public var environment: [String: String]
    public var standardOutput: any TextOutput
    public var standardError: any TextOutput
    public var workingDirectory: String
    /// Reads all of standard input (`-` as a path).
    public var readStandardInput: () -> [UInt8]
    /// The folder of the running `tipc`, where external commands' executables are looked for
    /// (nil when `tipc` runs inside another program, which then has none).
    public var executableFolder: String?

    public init(environment: [String: String], standardOutput: any TextOutput, standardError: any TextOutput,
                workingDirectory: String? = nil, readStandardInput: (() -> [UInt8])? = nil, executableFolder: String? = nil) {
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
        self.workingDirectory = workingDirectory ?? FileManager.default.currentDirectoryPath
        self.readStandardInput = readStandardInput ?? { FileDescriptorOutput.readAll(descriptor: 0) }
        self.executableFolder = executableFolder
    }
}

/// One `tipc` subcommand: its signature (name, options, arguments, help) and what it does.
/// The command line parses and validates the arguments before `run` is called; `run` may
/// throw a `UsageError` (exit 2, with usage) and any other error is an internal error (exit 3).
public protocol TipcCommand {
    static var signature: CommandSignature { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}
