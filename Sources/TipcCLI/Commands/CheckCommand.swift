import TipcCompiler
import TipcDriver

/// `tipc check PATHS…`: parse, check and lint manifests and rule files, and report every
/// problem in the chosen format, on standard output (or `--output-file`).
///
/// When an input cannot be read, the other programs are still checked and reported; the I/O
/// problems are reported in the chosen format, and also on stderr as text when that format
/// is not text; exit code 2.
public enum CheckCommand: TipcCommand {
    static let format = OptionDefinition.choice(
        "format", of: ReportFormat.self,
        help: "The report's format (on stdout, or in --output-file). Without --format: github under GitHub Actions (GITHUB_ACTIONS=true), else text.")
    static let strict = OptionDefinition.flag(
        "strict", help: "Count warnings as failures (exit code 1); overrides 'strict: false' of .tipc.yml.")
    static let color = OptionDefinition.choice(
        "color", of: ColorChoice.self, default: .auto,
        help: "Colour the text output: auto colours a terminal unless NO_COLOR is non-empty or TERM=dumb; FORCE_COLOR colours anywhere.")
    static let paths = PositionalDefinition(
        "paths", repeated: true,
        help: "Manifest and rule files, or folders searched for *.yaml, *.yml and *.tips (timelines skipped); - reads standard input.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "check",
            abstract: "Parse, check and lint manifests and rule files.",
            discussion: "The files of one folder form one program, whether the folder is given or its files one by one; timelines (*.timeline.yaml) are skipped, and so are YAML files without a top-level tipkit key met in a folder. Exit status: 0 no problems, 1 errors (or warnings with --strict), 2 usage or I/O error, 3 internal error.",
            positionals: [paths],
            options: [format, strict, color, RepositoryConfiguration.option, ReportOptions.quiet,
                      ReportOptions.outputFile, ReportOptions.stdinFilename])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let format = arguments.choice(format, as: ReportFormat.self) ?? .automatic(environment: context.environment)
        let colorChoice = arguments.choice(color, as: ColorChoice.self) ?? .auto
        let toFile = arguments.value(ReportOptions.outputFile) != nil
        let colored = !toFile && colorChoice.isEnabled(environment: context.environment, isTerminal: context.standardOutput.isTerminal)
        let paths = arguments.values(of: paths)

        let configuration = try RepositoryConfiguration.resolve(arguments, context: context)
        let standardInput = try ReportOptions.standardInput(paths, arguments, context: context)
        let loaded = Frontend.load(paths: paths, keepingPrograms: false, standardInput: standardInput, configuration: configuration)
        var failures = loaded.unreadable
        if loaded.programs.isEmpty, failures.isEmpty, let first = paths.first {
            let list = paths.map { "'\($0)'" }.joined(separator: ", ")
            failures.append(Diagnostic(.io, "no source files (*.yaml, *.yml, *.tips) in \(list)", at: startOfFile(first)))
        }
        let sources = loaded.programs.reduce(into: [String: SourceFile]()) { $0.merge($1.sources) { first, _ in first } }
        let fileCount = loaded.programs.reduce(0) { $0 + $1.fileCount }
        // A path that cannot be read does not hide the other programs' findings (exit 2 still).
        let diagnostics = (failures + loaded.programs.flatMap(\.diagnostics)).sortedForDisplay()
        let shown = arguments.isSet(ReportOptions.quiet) ? diagnostics.filter { $0.severity == .error } : diagnostics
        let report = DiagnosticReport(diagnostics: shown, sources: sources, fileCount: fileCount)

        // The report goes to stdout (or the output file). Unreadable inputs are printed once: a
        // text report on stdout says them; otherwise (a file, or a format for machines) they
        // are also tipc's own errors, on stderr.
        if format != .text || toFile {
            let textReporter = TextReporter(colored: false)
            for failure in failures {
                context.standardError.write(textReporter.render(failure, sources: [:]))
            }
        }
        let rendered = format == .text ? TextReporter(colored: colored).render(report) : render(report, as: format)
        try ReportOptions.write(rendered, arguments, context: context)
        return ExitCode.forCheck(diagnostics, strict: arguments.isSet(strict) || configuration.strict == true,
                                 inputUnreadable: !failures.isEmpty)
    }

    static func render(_ report: DiagnosticReport, as format: ReportFormat) -> String {
        switch format {
        case .text: return TextReporter(colored: false).render(report)
        case .json: return JSONReporter().render(report)
        case .sarif: return SARIFReporter(toolVersion: TipcCommandLine.version).render(report)
        case .github: return GitHubReporter().render(report)
        case .xcode: return XcodeReporter().render(report)
        }
    }

    static func startOfFile(_ path: String) -> SourceRange {
        SourceRange(file: path, at: SourceLocation(line: 1, column: 1))
    }
}
