import TipcCompiler

/// Where a command's result text goes: to `-o FILE` (written atomically; a failure is an `io`
/// diagnostic) or to standard output.
enum CommandOutput {
    static func write(_ text: String, to destination: String?, context: CommandContext, reporter: TextReporter) -> ExitCode {
        guard let destination else {
            context.standardOutput.write(text)
            return .success
        }
        do {
            try AtomicFileWriter.write(Array(text.utf8), to: destination)
            return .success
        } catch {
            let diagnostic = Diagnostic(.io, error.message, at: CheckCommand.startOfFile(destination))
            context.standardError.write(reporter.render(DiagnosticReport(diagnostics: [diagnostic], sources: [:], fileCount: 1)))
            return .usageOrIOError
        }
    }
}
