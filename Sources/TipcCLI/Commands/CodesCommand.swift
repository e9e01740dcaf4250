import TipcCompiler
import TipcDriver

/// `tipc codes [CODE]`: every diagnostic code with its severity and meaning, or one code
/// explained with a file that gives it.
public enum CodesCommand: TipcCommand {
    enum Format: String, CaseIterable { case text, markdown }

    static let code = PositionalDefinition("code", optional: true, help: "A diagnostic code, e.g. unsatisfiable.")
    static let format = OptionDefinition.choice("format", of: Format.self, default: .text,
                                                help: "Text, or the whole reference as Markdown (docs/diagnostics.md is that page).")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "codes",
            abstract: "List the diagnostic codes, or explain one.",
            discussion: "Codes are stable: CI configurations, suppression comments and SARIF rule ids refer to them.",
            positionals: [code],
            options: [format])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        if arguments.choice(format, as: Format.self) == .markdown {
            guard arguments.values(of: code).isEmpty else { throw UsageError("'--format markdown' writes every code; give no code") }
            context.standardOutput.write(markdown())
            return .success
        }
        guard let name = arguments.values(of: code).first else {
            let width = DiagnosticCode.allCases.map(\.rawValue.count).max() ?? 0
            for code in DiagnosticCode.allCases {
                let padded = code.rawValue + String(repeating: " ", count: width - code.rawValue.count)
                let severity = code.defaultSeverity.rawValue
                context.standardOutput.write("\(padded)  \(severity)\(String(repeating: " ", count: 7 - severity.count))  \(code.summary)\n")
            }
            return .success
        }
        guard let code = DiagnosticCode(rawValue: name) else {
            throw UsageError("no diagnostic code '\(name)'",
                             help: Suggestions.didYouMean(name, in: DiagnosticCode.allCases.map(\.rawValue)) ?? "'tipc codes' lists them")
        }
        context.standardOutput.write(explanation(of: code) + "\n")
        return .success
    }

    /// The whole explanation as text: summary, severity, meaning and the example.
    static func explanation(of code: DiagnosticCode) -> String {
        var text = "\(code.rawValue) (\(code.defaultSeverity.rawValue)): \(code.summary)\n\n\(code.explanation)"
        if let example = code.example {
            text += "\n\nFor example, \(example.file):\n\n" + example.text.split(separator: "\n", omittingEmptySubsequences: false)
                .dropLast().map { "    " + $0 }.joined(separator: "\n")
        }
        return text
    }

    /// The reference page of every code: a table, then each code's meaning, its example and
    /// what `tipc check` prints for it. docs/diagnostics.md is this text (a test keeps them equal).
    static func markdown() -> String {
        var page = """
            # Diagnostic codes

            Every problem `tipc check` reports has a stable code: CI configurations (`.tipc.yml`'s
            `codes`), suppression comments (`# tipc-disable-next-line CODE`) and SARIF rule ids refer to
            them. Errors stop `tipc compile`; warnings do not, unless `--strict`. The severity of a
            warning can be raised or turned off in `.tipc.yml`; errors cannot be lowered.

            This page is written by `tipc codes --format markdown > docs/diagnostics.md`;
            `tipc codes CODE` prints one code's entry.

            | code | severity | meaning |
            |---|---|---|

            """
        for code in DiagnosticCode.allCases {
            page += "| [`\(code.rawValue)`](#\(code.rawValue)) | \(code.defaultSeverity.rawValue) | \(code.summary.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|")) |\n"
        }
        for code in DiagnosticCode.allCases {
            page += "\n## \(code.rawValue)\n\n\(code.defaultSeverity.rawValue.capitalized): \(code.summary)\n\n\(code.explanation)\n"
            guard let example = code.example else { continue }
            let fence = example.file.hasSuffix(".yaml") ? "yaml" : example.file.hasSuffix(".swift") ? "swift" : ""
            page += "\nFor example, `\(example.file)`:\n\n```\(fence)\n\(example.text)```\n"
            let source = SourceFile(path: example.file, text: example.text)
            let result = Frontend.check(sources: [source])
            let shown = result.diagnostics.filter { $0.code == code }
            let report = DiagnosticReport(diagnostics: shown, sources: result.sources, fileCount: 1)
            page += "\n`tipc check \(example.file)` reports:\n\n```\n\(TextReporter(colored: false).render(report))```\n"
        }
        return page
    }
}
