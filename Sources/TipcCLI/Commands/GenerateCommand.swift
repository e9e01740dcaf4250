import TipcCompiler

/// `tipc generate tipkit PATHS -o FILE.swift [--minimum-os ios17|ios18|ios26]` (SPEC §8): the
/// program as TipKit Swift. `tipc generate swift` (typed accessors over TipRuntime) is not built.
public enum GenerateCommand: TipcCommand {
    static let output = OptionDefinition.value("output", short: "o", valueName: "file", help: "Where to write the Swift file (stdout without it).")
    static let minimumOS = OptionDefinition.choice(
        "minimum-os", of: TipKitGenerator.MinimumOS.self, default: .ios17,
        help: "The oldest TipKit the app supports: what needs a newer one is an error (tipkit-unsupported).")
    static let kind = PositionalDefinition("kind", help: "tipkit (swift, typed accessors over TipRuntime, is not built).")
    static let paths = PositionalDefinition("paths", repeated: true, help: "Manifest and rule files, or a folder, forming one program.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "generate",
            abstract: "Write a program's tips as TipKit Swift.",
            discussion: "Each rule becomes #Rule declarations (a rule's top-level 'and' is split, one #Rule per parameter or event). Exit status: 0 written, 1 the program has errors or cannot be expressed in TipKit at the minimum OS, 2 usage or I/O error, 3 internal error.",
            positionals: [kind, paths],
            options: [output, minimumOS])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let kindValue = arguments.values(of: kind).first ?? ""
        guard kindValue == "tipkit" else {
            if kindValue == "swift" { throw UsageError("'tipc generate swift' is not built", help: "only 'tipc generate tipkit' exists") }
            throw UsageError("unknown kind '\(kindValue)'", help: "use 'tipc generate tipkit PATHS'")
        }
        let minimum = arguments.choice(minimumOS, as: TipKitGenerator.MinimumOS.self) ?? .ios17
        let given = arguments.values(of: paths)
        let loaded = Frontend.load(paths: given, keepingParsedFiles: true, keepingPrograms: false)
        if let failure = loaded.unreadable.first { throw CommandFailure.io(failure.message) }
        guard loaded.programs.count == 1, let program = loaded.programs.first else {
            throw UsageError(loaded.programs.isEmpty ? "no source files given" : "the paths form \(loaded.programs.count) programs; generate writes one",
                             help: "give the files of one program")
        }
        let reporter = TextReporter(colored: false)
        if program.diagnostics.contains(where: { $0.severity == .error }) {
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: program.diagnostics, sources: program.sources, fileCount: program.fileCount)))
            return .inputHasErrors
        }
        var diagnostics: [Diagnostic] = []
        let text = TipKitGenerator.generate(program.files, sources: program.files.map(\.path), minimumOS: minimum, diagnostics: &diagnostics)
        if !diagnostics.isEmpty {
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: diagnostics.sortedForDisplay(), sources: program.sources,
                                                                         fileCount: program.fileCount)))
        }
        guard let text else { return .inputHasErrors }
        return CommandOutput.write(text, to: arguments.value(output), context: context, reporter: reporter)
    }
}
