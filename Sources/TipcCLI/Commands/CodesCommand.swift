import TipcCompiler

/// `tipc codes [CODE]`: every diagnostic code with its severity and meaning, or one code
/// explained with a file that gives it.
public enum CodesCommand: TipcCommand {
    static let code = PositionalDefinition("code", optional: true, help: "A diagnostic code, e.g. unsatisfiable.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "codes",
            abstract: "List the diagnostic codes, or explain one.",
            discussion: "Codes are stable: CI configurations, suppression comments and SARIF rule ids refer to them.",
            positionals: [code],
            options: [])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
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
}
