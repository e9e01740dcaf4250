/// What a command may use while it runs: the environment and the two output streams.
public struct CommandContext {
    public var environment: [String: String]
    public var standardOutput: any TextOutput
    public var standardError: any TextOutput

    public init(environment: [String: String], standardOutput: any TextOutput, standardError: any TextOutput) {
        self.environment = environment
        self.standardOutput = standardOutput
        self.standardError = standardError
    }
}

/// One `tipc` subcommand: its signature (name, options, arguments, help) and what it does.
/// The command line parses and validates the arguments before `run` is called; `run` may
/// throw a `UsageError` (exit 2, with usage) and any other error is an internal error (exit 3).
public protocol TipcCommand {
    static var signature: CommandSignature { get }
    static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode
}
