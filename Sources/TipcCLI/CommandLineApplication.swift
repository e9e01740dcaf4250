import TipcCompiler

/// The root of a command line with subcommands: dispatches to a command, answers `--help`,
/// `-h`, `help <subcommand>` and `--version`, and turns usage errors and unexpected
/// failures into messages and exit codes.
public struct CommandLineApplication {
    public var name: String
    public var version: String
    public var abstract: String
    public var commands: [any TipcCommand.Type]
    /// Subcommands that are executables of their own beside this one.
    public var externalCommands: [ExternalCommand]

    public init(name: String, version: String, abstract: String, commands: [any TipcCommand.Type],
                externalCommands: [ExternalCommand] = []) {
        self.name = name
        self.version = version
        self.abstract = abstract
        self.commands = commands
        self.externalCommands = externalCommands
    }

    var formatter: HelpFormatter { HelpFormatter(programName: name) }

    /// Runs the command named by `arguments` (the program name excluded).
    public func run(_ arguments: [String], context: CommandContext) -> ExitCode {
        guard let first = arguments.first else {
            context.standardError.write(rootHelp)
            return .usageOrIOError
        }
        if ArgumentParser.helpSpellings.contains(first) {
            context.standardOutput.write(rootHelp)
            return .success
        }
        if first == "--version" {
            context.standardOutput.write("\(name) \(version)\n")
            return .success
        }
        if first == "help" {
            return runHelp(Array(arguments.dropFirst()), context: context)
        }
        if ArgumentParser.looksLikeOption(first) {
            let candidates = ["--help", "--version"]
            return rootUsageError(UsageError("Unknown option '\(first)'", help: Suggestions.didYouMean(first, in: candidates)),
                                  context: context)
        }
        if let external = externalCommand(named: first) {
            return external.launch(Array(arguments.dropFirst()), programName: name, context: context)
        }
        guard let command = command(named: first) else {
            return rootUsageError(unknownCommand(first), context: context)
        }
        return run(command, Array(arguments.dropFirst()), context: context)
    }

    /// Runs one command with its arguments (the program and subcommand names excluded): how an
    /// external command's executable runs its one command.
    public func run(_ command: any TipcCommand.Type, _ arguments: [String], context: CommandContext) -> ExitCode {
        let signature = command.signature
        if ArgumentParser.asksForHelp(arguments) {
            context.standardOutput.write(formatter.help(for: signature))
            return .success
        }
        do {
            let parsed = try ArgumentParser.parse(arguments, for: signature)
            return try command.run(parsed, context: context)
        } catch let failure as CommandFailure {
            context.standardError.write("error: \(failure.message)\n")
            return failure.exitCode
        } catch let error as UsageError {
            context.standardError.write(formatter.usageError(error, usage: formatter.usage(for: signature),
                                                             helpCommand: "\(name) \(signature.name) --help"))
            return .usageOrIOError
        } catch {
            context.standardError.write("error: internal error: \(String(describing: error))\n")
            return .internalError
        }
    }

    /// `help`, `help <subcommand>`.
    func runHelp(_ arguments: [String], context: CommandContext) -> ExitCode {
        guard let name = arguments.first else {
            context.standardOutput.write(rootHelp)
            return .success
        }
        if arguments.count > 1 {
            return rootUsageError(UsageError("Unexpected argument '\(arguments[1])'"), context: context)
        }
        if let external = externalCommand(named: name) {
            return external.launch(["--help"], programName: self.name, context: context)
        }
        guard let command = command(named: name) else {
            return rootUsageError(unknownCommand(name), context: context)
        }
        context.standardOutput.write(formatter.help(for: command.signature))
        return .success
    }

    func command(named name: String) -> (any TipcCommand.Type)? {
        commands.first { $0.signature.name == name }
    }

    func externalCommand(named name: String) -> ExternalCommand? {
        externalCommands.first { $0.name == name }
    }

    func unknownCommand(_ name: String) -> UsageError {
        let names = commands.map { $0.signature.name } + externalCommands.map(\.name) + ["help"]
        return UsageError("Unknown subcommand '\(name)'", help: Suggestions.didYouMean(name, in: names))
    }

    func rootUsageError(_ error: UsageError, context: CommandContext) -> ExitCode {
        context.standardError.write(formatter.usageError(error, usage: formatter.rootUsage, helpCommand: "\(name) --help"))
        return .usageOrIOError
    }

    var rootHelp: String {
        formatter.rootHelp(abstract: abstract, commands: commands.map { $0.signature }
                           + externalCommands.map { CommandSignature(name: $0.name, abstract: $0.abstract) })
    }
}
