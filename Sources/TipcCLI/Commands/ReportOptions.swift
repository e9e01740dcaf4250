#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler

/// Where a report goes and what reads standard input: reports go to
/// standard output, or to `--output-file`; tipc's own errors go to standard error.
enum ReportOptions {
    static let outputFile = OptionDefinition.value(
        "output-file", valueName: "file", help: "Write the report to this file instead of standard output.")
    static let quiet = OptionDefinition.flag(
        "quiet", short: "q", help: "Report errors only (warnings still count under --strict).")
    static let stdinFilename = OptionDefinition.value(
        "stdin-filename", valueName: "name",
        help: "The name standard input ('-' as a path) has in diagnostics; its extension chooses the language (default <stdin>.yaml).")

    /// Standard input as a source when `-` is among `paths`; nil otherwise (nothing is read).
    static func standardInput(_ paths: [String], _ arguments: ParsedArguments, context: CommandContext) throws -> SourceFile? {
        guard paths.contains(SourceDiscovery.standardInputPath) else {
            if let name = arguments.value(stdinFilename) {
                throw UsageError("'--stdin-filename \(name)' names standard input, but '-' is not among the paths")
            }
            return nil
        }
        let bytes = context.readStandardInput()
        guard bytes.count <= Frontend.maximumFileSize else {
            throw CommandFailure.io("standard input is larger than \(Frontend.maximumFileSize / (1024 * 1024)) MiB")
        }
        return SourceFile(path: arguments.value(stdinFilename) ?? "<stdin>.yaml", bytes: bytes)
    }

    /// Writes `text` where the report goes.
    static func write(_ text: String, _ arguments: ParsedArguments, context: CommandContext) throws {
        guard let path = arguments.value(outputFile) else {
            context.standardOutput.write(text)
            return
        }
        do {
            try AtomicFileWriter.write(Array(text.utf8), to: path)
        } catch {
            throw CommandFailure.io(error.message)
        }
    }
}
