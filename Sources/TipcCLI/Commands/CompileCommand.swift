#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipRuntime

/// `tipc compile PATHS -o FILE`: check, then write a rule pack. The same input always gives
/// the same bytes.
public enum CompileCommand: TipcCommand {
    static let output = OptionDefinition.value("output", short: "o", valueName: "file", help: "Where to write the rule pack (.tippack); - writes it to standard output.").required
    static let paths = PositionalDefinition("paths", repeated: true, help: "Manifest and rule files of one folder, or that folder: one program.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "compile",
            abstract: "Check manifests, then write them as one rule pack.",
            discussion: "The pack is written only when the program has no errors; diagnostics go to stderr. The pack is byte-identical for the same program, whatever folder it is compiled from and whether it is written as YAML or .tips: it holds no source positions.",
            positionals: [paths],
            options: [output, RepositoryConfiguration.option, DiagnosticStyle.option])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let destination = arguments.value(output) else { throw UsageError("missing '--output <file>'", help: "write the pack with -o app.tippack") }
        let configuration = try RepositoryConfiguration.resolve(arguments, context: context)
        let checked = try SingleProgram.load(arguments.values(of: paths), configuration: configuration, context: context)
        let (result, pack) = Frontend.compile(checked)
        let report = DiagnosticReport(diagnostics: result.diagnostics, sources: result.sources, fileCount: result.fileCount)
        context.standardError.write(DiagnosticStyle.render(report, arguments))
        guard let pack else { return .inputHasErrors }
        let bytes = RulePackCompiler.fileBytes(pack)
        // The checker refuses what the runtime's limits refuse; this holds the two together, so
        // that a pack `compile` confirms is always one the runtime loads.
        do {
            _ = try RulePackLoader.decode(bytes)
        } catch {
            throw CommandFailure(.internalError, "the compiled pack fails the runtime's own verification, a bug in tipc (\(error)); nothing was written")
        }
        if destination == "-" {
            context.standardOutput.write(bytes: bytes)
            return .success
        }
        do {
            try AtomicFileWriter.write(bytes, to: destination)
        } catch {
            throw CommandFailure.io(error.message)
        }
        context.standardError.write("wrote \(destination): \(bytes.count) bytes, \(pack.tips.count) tips\n")
        return .success
    }
}
