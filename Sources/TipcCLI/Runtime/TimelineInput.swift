import TipcCompiler

/// The timeline a runtime command replays (`simulate`, `preview --timeline`), read and decoded.
enum TimelineInput {
    /// Reads and decodes the timeline at `path`. Its errors are printed as text diagnostics
    /// and end the command with exit code 1.
    static func load(path: String, context: CommandContext) throws -> Timeline {
        let source: SourceFile
        switch Frontend.read(path: path) {
        case .success(let file): source = file
        case .failure(let diagnostic): throw CommandFailure.io(diagnostic.message)
        }
        var diagnostics: [Diagnostic] = []
        guard let timeline = TimelineDecoder.decode(source, diagnostics: &diagnostics) else {
            context.standardError.write(TextReporter(colored: false).render(
                DiagnosticReport(diagnostics: diagnostics.sortedForDisplay(), sources: [source], fileCount: 1)))
            throw CommandFailure.input("the timeline '\(path)' has errors; nothing was run")
        }
        return timeline
    }
}
