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
            commands: BuiltinCommands.all, externalCommands: [serve])
    }

    /// `tipc serve`: the tip service, in its own executable (libmicrohttpd, libpq).
    public static let serve = ExternalCommand(
        name: "serve", abstract: "Serve tips over HTTP for many users (JSON; SQLite or PostgreSQL store).",
        executable: "tipc-serve")

    /// Runs `tipc` with `arguments` (without the program name) and returns the exit status.
    /// `executableFolder` is where external commands (`tipc-serve`) are looked for.
    public static func run(arguments: [String], environment: [String: String],
                           stdout: any TextOutput, stderr: any TextOutput,
                           workingDirectory: String? = nil, standardInput: (() -> [UInt8])? = nil,
                           executableFolder: String? = nil) -> Int32 {
        let context = CommandContext(environment: environment, standardOutput: stdout, standardError: stderr,
                                     workingDirectory: workingDirectory, readStandardInput: standardInput,
                                     executableFolder: executableFolder)
        return application.run(arguments, context: context).rawValue
    }
}
