import TipRuntime

/// The `tipc` command line as a library: the executable is a thin wrapper around `run`.
public enum TipcCommandLine {
    /// The version `tipc --version` prints (`TipcVersion`, the one place it is set).
    public static var version: String { TipcVersion.current }

    /// The application with every built-in subcommand.
    public static var application: CommandLineApplication {
        CommandLineApplication(
            name: "tipc", version: version,
            abstract: "Check, compile and inspect contextual tips written as YAML manifests or .tips rule files.",
            commands: BuiltinCommands.all)
    }

    /// Runs `tipc` with `arguments` (without the program name) and returns the exit status.
    public static func run(arguments: [String], environment: [String: String],
                           stdout: any TextOutput, stderr: any TextOutput,
                           workingDirectory: String? = nil, standardInput: (() -> [UInt8])? = nil) -> Int32 {
        let context = CommandContext(environment: environment, standardOutput: stdout, standardError: stderr,
                                     workingDirectory: workingDirectory, readStandardInput: standardInput)
        return application.run(arguments, context: context).rawValue
    }
}
