import TipcCompiler
import TipcDriver
import TipKitBridge

/// `tipc generate tipkit PATHS -o FILE.swift [--minimum-os ios17|ios18|ios26]`: the
/// program as TipKit Swift; `tipc generate swift PATHS -o FILE.swift [--type-name NAME] [--public]`:
/// typed accessors over TipRuntime's `TipCenter` for the program.
public enum GenerateCommand: TipcCommand {
    static let output = OptionDefinition.value("output", short: "o", valueName: "file", help: "Where to write the Swift file (stdout without it).")
    static let minimumOS = OptionDefinition.choice(
        "minimum-os", of: TipKitGenerator.MinimumOS.self, default: .ios17,
        help: "tipkit: the oldest TipKit the app supports: what needs a newer one is an error (tipkit-unsupported).")
    static let typeName = OptionDefinition.value("type-name", valueName: "name",
                                                 help: "swift: the type that holds the accessors (AppTips without it).")
    static let isPublic = OptionDefinition.flag("public", help: "swift: make the accessors public, for a library (framework) whose clients use them.")
    static let kind = PositionalDefinition("kind", help: "tipkit (TipKit declarations) or swift (typed accessors over TipRuntime).")
    static let paths = PositionalDefinition("paths", repeated: true, help: "Manifest and rule files, or a folder, forming one program.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "generate",
            abstract: "Write a program's tips as TipKit Swift, or typed accessors over TipRuntime.",
            discussion: "tipkit: each rule becomes #Rule declarations (a rule's top-level 'and' is split, one #Rule per parameter or event). swift: parameters, events with payload structs, tips and groups over a TipCenter, so that a misspelled name or a wrong type does not compile. Exit status: 0 written, 1 the program has errors or cannot be expressed in TipKit at the minimum OS, 2 usage or I/O error, 3 internal error.",
            positionals: [kind, paths],
            options: [output, minimumOS, typeName, isPublic, DiagnosticStyle.option])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        let kindValue = arguments.values(of: kind).first ?? ""
        guard kindValue == "tipkit" || kindValue == "swift" else {
            throw UsageError("unknown kind '\(kindValue)'", help: "use 'tipc generate tipkit PATHS' or 'tipc generate swift PATHS'")
        }
        let root = arguments.value(typeName) ?? "AppTips"
        if kindValue == "tipkit", arguments.wasGiven(typeName) {
            throw UsageError("--type-name is for 'tipc generate swift'", help: "TipKit declarations are named after the program's tips")
        }
        if kindValue == "tipkit", arguments.isSet(isPublic) {
            throw UsageError("--public is for 'tipc generate swift'", help: "TipKit declarations are written as the app's own")
        }
        if kindValue == "swift", arguments.wasGiven(minimumOS) {
            throw UsageError("--minimum-os is for 'tipc generate tipkit'", help: "the accessors need what TipRuntime needs")
        }
        guard SwiftAccessorGenerator.isValidTypeName(root) else {
            throw UsageError("'\(root)' is not a Swift type name", help: "use letters, digits and '_', not starting with a digit, and not a keyword")
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
            context.standardError.write(DiagnosticStyle.render(DiagnosticReport(diagnostics: program.diagnostics, sources: program.sources,
                                                                                fileCount: program.fileCount), arguments))
            return .inputHasErrors
        }
        if kindValue == "swift" {
            let text = SwiftAccessorGenerator.generate(program.files, sources: program.files.map(\.path), typeName: root,
                                                         isPublic: arguments.isSet(isPublic))
            return CommandOutput.write(text, to: arguments.value(output), context: context, reporter: reporter)
        }
        var diagnostics: [Diagnostic] = []
        let text = TipKitGenerator.generate(program.files, sources: program.files.map(\.path), minimumOS: minimum, diagnostics: &diagnostics)
        if !diagnostics.isEmpty {
            context.standardError.write(DiagnosticStyle.render(DiagnosticReport(diagnostics: diagnostics.sortedForDisplay(), sources: program.sources,
                                                                                fileCount: program.fileCount), arguments))
        }
        guard let text else { return .inputHasErrors }
        return CommandOutput.write(text, to: arguments.value(output), context: context, reporter: reporter)
    }
}
