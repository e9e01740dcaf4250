import TipcCompiler
import TipKitBridge

/// `tipc import PATHS [-o FILE] [--to yaml|tips]`: the TipKit tips, parameters,
/// events, groups and display frequency of Swift files, as one manifest.
///
/// All the Swift files given (folders searched recursively) form one module. What a manifest
/// cannot hold is an `import-approximated` warning on stderr and a comment in the output.
public enum ImportCommand: TipcCommand {
    enum Target: String, CaseIterable {
        case yaml, tips

        var format: SourceFormat { self == .yaml ? .yaml : .tips }
    }

    static let target = OptionDefinition.choice("to", of: Target.self, default: .yaml, help: "The front end to write: yaml (the default) or tips.")
    static let output = OptionDefinition.value(
        "output", short: "o", valueName: "file", help: "Write to this file instead of stdout.")
    static let color = OptionDefinition.choice(
        "color", of: ColorChoice.self, default: .auto,
        help: "Colour the diagnostics: auto colours a terminal unless NO_COLOR is set or TERM=dumb.")
    static let paths = PositionalDefinition("paths", repeated: true, help: "Swift files, or folders searched recursively for *.swift.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "import",
            abstract: "Write the TipKit tips declared in Swift as a manifest.",
            discussion: "All the Swift files given form one module. Exit status: 0 imported (warnings say what was approximated), 1 the Swift cannot be read or the result cannot be written in that form, 2 usage or I/O error, 3 internal error.",
            positionals: [paths],
            options: [target, output, color])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let target = arguments.choice(target, as: Target.self) ?? .yaml
        let colorChoice = arguments.choice(color, as: ColorChoice.self) ?? .auto
        let reporter = TextReporter(colored: colorChoice.isEnabled(environment: context.environment,
                                                                   isTerminal: context.standardError.isTerminal))
        let given = arguments.values(of: paths)
        let found = TipKitImporter.swiftFiles(in: given)
        var failures = found.failures.map { Diagnostic(.io, "cannot read '\($0.path)': \($0.message)", at: CheckCommand.startOfFile($0.path)) }
        if found.files.isEmpty, failures.isEmpty, let first = given.first {
            failures.append(Diagnostic(.io, "no Swift files in " + given.map { "'\($0)'" }.joined(separator: ", "), at: CheckCommand.startOfFile(first)))
        }
        var sources: [SourceFile] = []
        for path in found.files {
            switch Frontend.read(path: path) {
            case .success(let source): sources.append(source)
            case .failure(let diagnostic): failures.append(diagnostic)
            }
        }
        guard failures.isEmpty else {
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: failures, sources: [:], fileCount: given.count)))
            return .usageOrIOError
        }
        var diagnostics: [Diagnostic] = []
        let module = TipKitImporter.importModule(sources, diagnostics: &diagnostics)
        let sorted = diagnostics.sortedForDisplay()
        if !sorted.isEmpty {
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: sorted, sources: sources, fileCount: sources.count)))
        }
        if sorted.contains(where: { $0.severity == .error }) { return .inputHasErrors }
        let text: String
        do {
            text = try TipKitImporter.write(module, sources: found.files, to: target.format)
        } catch {
            context.standardError.write("error: \(error.description)\n")
            return .inputHasErrors
        }
        return CommandOutput.write(text, to: arguments.value(output), context: context, reporter: reporter)
    }
}
