import TipcCompiler
import TipcDriver

/// `tipc fmt PATHS… [--check]`: canonical formatting of `.tips` files and of the rules inside
/// YAML manifests (everything else in a YAML file stays byte for byte).
///
/// A file with errors is not formatted: its diagnostics are reported and the exit status is 1.
/// Without `--check` the files that change are rewritten in place, atomically; with `--check`
/// nothing is written and the files that would change are listed on stdout (exit status 1 if
/// any); with `--diff`, likewise, but a unified diff of the changes is printed instead.
public enum FmtCommand: TipcCommand {
    static let check = OptionDefinition.flag(
        "check", help: "Write nothing; list the files that are not formatted and exit with status 1 if there are any.")
    static let diff = OptionDefinition.flag(
        "diff", help: "Write nothing; print a unified diff of the changes on stdout and exit with status 1 if there are any.")
    static let color = OptionDefinition.choice(
        "color", of: ColorChoice.self, default: .auto,
        help: "Colour the diagnostics: auto colours a terminal unless NO_COLOR is non-empty or TERM=dumb; FORCE_COLOR colours anywhere.")
    static let paths = PositionalDefinition(
        "paths", repeated: true,
        help: "Manifest and rule files, or folders searched for *.yaml, *.yml and *.tips (timelines skipped); - formats standard input to standard output.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "fmt",
            abstract: "Format .tips files and the rules inside YAML manifests.",
            discussion: "Files are checked first (files given together form one program, as with 'tipc check'); a file with errors is left as it is. Exit status: 0 formatted (or, with --check or --diff, already formatted), 1 errors or, with --check or --diff, files to format, 2 usage or I/O error, 3 internal error.",
            positionals: [paths],
            options: [check, diff, color, RepositoryConfiguration.option, ReportOptions.stdinFilename])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let colorChoice = arguments.choice(color, as: ColorChoice.self) ?? .auto
        let reporter = TextReporter(colored: colorChoice.isEnabled(environment: context.environment,
                                                                   isTerminal: context.standardError.isTerminal))
        let showDiff = arguments.isSet(diff)
        let checkOnly = arguments.isSet(check) || showDiff
        let configuration = try RepositoryConfiguration.resolve(arguments, context: context)
        let standardInput = try ReportOptions.standardInput(arguments.values(of: paths), arguments, context: context)
        let loaded = Frontend.load(paths: arguments.values(of: paths), keepingParsedFiles: true, standardInput: standardInput,
                                   configuration: configuration)
        var ioFailures = loaded.unreadable
        if loaded.programs.isEmpty, ioFailures.isEmpty, let first = arguments.values(of: paths).first {
            let list = arguments.values(of: paths).map { "'\($0)'" }.joined(separator: ", ")
            ioFailures.append(Diagnostic(.io, "no source files (*.yaml, *.yml, *.tips) in \(list)", at: CheckCommand.startOfFile(first)))
        }

        var errors: [Diagnostic] = []
        var sources: [String: SourceFile] = [:]
        var unformatted: [String] = []
        var internalFailure = false
        for program in loaded.programs {
            sources.merge(program.sources) { first, _ in first }
            // Swift files are imported, never rewritten: fmt formats manifests only.
            for file in program.files where !SourceDiscovery.isSwift(file.path) {
                guard let source = program.sources[file.path] else { continue }
                let fileErrors = program.diagnostics.filter { $0.severity == .error && $0.range.file == file.path }
                guard fileErrors.isEmpty else {
                    errors += fileErrors
                    continue
                }
                let formatted: [UInt8]
                do {
                    formatted = try SourceFormatter.format(source, parsed: file)
                } catch {
                    context.standardError.write("error: internal error: \(error.description)\n")
                    internalFailure = true
                    continue
                }
                let isStandardInput = standardInput?.path == file.path && program.fileCount == 1
                if isStandardInput, !checkOnly {
                    // Standard input is formatted to standard output, changed or not.
                    context.standardOutput.write(String(decoding: formatted, as: UTF8.self))
                    continue
                }
                guard formatted != source.bytes else { continue }
                unformatted.append(file.path)
                if showDiff {
                    context.standardOutput.write(UnifiedDiff.render(old: String(decoding: source.bytes, as: UTF8.self),
                                                                    new: String(decoding: formatted, as: UTF8.self),
                                                                    oldName: file.path, newName: file.path))
                } else if checkOnly {
                    context.standardOutput.write(file.path + "\n")
                } else {
                    do {
                        try AtomicFileWriter.write(formatted, to: file.path)
                    } catch {
                        ioFailures.append(Diagnostic(.io, error.message, at: CheckCommand.startOfFile(file.path)))
                    }
                }
            }
        }
        let reported = (errors + ioFailures).sortedForDisplay()
        if !reported.isEmpty {
            let fileCount = loaded.programs.reduce(0) { $0 + $1.fileCount }
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: reported, sources: sources, fileCount: fileCount)))
        }
        if internalFailure { return .internalError }
        if !ioFailures.isEmpty { return .usageOrIOError }
        if !errors.isEmpty || (checkOnly && !unformatted.isEmpty) { return .inputHasErrors }
        return .success
    }
}
