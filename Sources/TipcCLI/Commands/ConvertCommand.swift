import TipcCompiler

/// `tipc convert FILE --to yaml|tips [-o FILE]`: a manifest written with the other front end.
///
/// The file must parse without errors (it may be one file of a larger program: names it does
/// not declare are not checked). Comments above declarations and at the top of the file are
/// carried. Compiling the output gives the same rule pack as the input, source positions aside.
public enum ConvertCommand: TipcCommand {
    enum Target: String, CaseIterable {
        case yaml, tips

        var format: SourceFormat { self == .yaml ? .yaml : .tips }
    }

    static let target = OptionDefinition.choice("to", of: Target.self, help: "The front end to write: yaml or tips.").required
    static let output = OptionDefinition.value(
        "output", short: "o", valueName: "file", help: "Write to this file instead of stdout.")
    static let color = OptionDefinition.choice(
        "color", of: ColorChoice.self, default: .auto,
        help: "Colour the diagnostics: auto colours a terminal unless NO_COLOR is non-empty or TERM=dumb; FORCE_COLOR colours anywhere.")
    static let file = PositionalDefinition("file", help: "A YAML manifest (*.yaml, *.yml) or a rule file (*.tips).")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "convert",
            abstract: "Convert a manifest between YAML and the rule language.",
            discussion: "Exit status: 0 converted, 1 the input has errors or cannot be written in the other form, 2 usage or I/O error, 3 internal error.",
            positionals: [file],
            options: [target, output, color])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let target = arguments.choice(target, as: Target.self) else {
            throw UsageError("Missing expected option '--to <to>'", help: "give --to yaml or --to tips")
        }
        let colorChoice = arguments.choice(color, as: ColorChoice.self) ?? .auto
        let reporter = TextReporter(colored: colorChoice.isEnabled(environment: context.environment,
                                                                   isTerminal: context.standardError.isTerminal))
        let path = arguments.values(of: file).first ?? ""
        let source: SourceFile
        switch Frontend.read(path: path) {
        case .success(let read):
            source = read
        case .failure(let diagnostic):
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: [diagnostic], sources: [:], fileCount: 1)))
            return .usageOrIOError
        }
        var diagnostics: [Diagnostic] = []
        let parsed = Frontend.parse(source, diagnostics: &diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }.sortedForDisplay()
        guard errors.isEmpty else {
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: errors, sources: [source], fileCount: 1)))
            return .inputHasErrors
        }
        let text: String
        do {
            text = try ManifestConverter.convert(source, parsed: parsed, to: target.format)
        } catch {
            context.standardError.write("error: \(error.description)\n")
            return .inputHasErrors
        }
        return CommandOutput.write(text, to: arguments.value(output), context: context, reporter: reporter)
    }
}
