import TipcCompiler

/// The `.tipc.yml` a command works with: the one `--config` names, else the one in
/// the working directory or its nearest parent, else none. Options given on the command line
/// win over the file.
enum RepositoryConfiguration {
    static let option = OptionDefinition.value(
        "config", valueName: "file",
        help: "The configuration file (default: .tipc.yml in the current folder or its nearest parent).")

    /// The configuration; its errors are printed (text, on stderr) and end the command with
    /// exit status 2.
    static func resolve(_ arguments: ParsedArguments, context: CommandContext) throws -> LintConfiguration {
        let explicit = arguments.value(option)
        let found = explicit ?? LintConfiguration.find(from: context.workingDirectory)
        guard let path = found else { return .none }
        let source: SourceFile
        switch Frontend.read(path: path) {
        case .success(let read): source = read
        case .failure(let diagnostic): throw CommandFailure.io(diagnostic.message)
        }
        var diagnostics: [Diagnostic] = []
        let configuration = LintConfiguration.read(source, diagnostics: &diagnostics)
        if !diagnostics.isEmpty {
            let report = DiagnosticReport(diagnostics: diagnostics.sortedForDisplay(), sources: [path: source], fileCount: 1)
            context.standardError.write(TextReporter(colored: false).render(report))
            throw CommandFailure.io("the configuration '\(path)' is not valid")
        }
        return configuration
    }
}
