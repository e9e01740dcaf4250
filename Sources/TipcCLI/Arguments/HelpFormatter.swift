/// Lays out help and usage text in the shape of swift-argument-parser:
/// OVERVIEW / USAGE / ARGUMENTS / OPTIONS (/ SUBCOMMANDS for the root).
public struct HelpFormatter: Sendable {
    /// The program name shown in usage lines.
    public var programName: String
    /// Where text is wrapped.
    public var lineWidth = 80
    /// The column at which descriptions in the ARGUMENTS/OPTIONS lists start.
    public var labelColumn = 26

    public init(programName: String) {
        self.programName = programName
    }

    /// The `--help` and `-h` entry every command lists.
    static let helpEntry = (label: "-h, --help", text: "Show help information.")

    /// `tipc check [--format <format>] [--strict] <paths> ...`.
    public func usage(for signature: CommandSignature) -> String {
        var parts = [programName, signature.name]
        for option in signature.options {
            parts.append(option.isRequired ? option.usageSpelling : "[\(option.usageSpelling)]")
        }
        for positional in signature.positionals {
            parts.append(positional.isOptional ? "[\(positional.usageSpelling)]" : positional.usageSpelling)
        }
        return parts.joined(separator: " ")
    }

    /// The full help of one command.
    public func help(for signature: CommandSignature) -> String {
        var sections = ["OVERVIEW: \(signature.abstract)"]
        if let discussion = signature.discussion {
            sections.append(wrap(discussion, indent: 0))
        }
        sections.append("USAGE: \(usage(for: signature))")
        if !signature.positionals.isEmpty {
            let rows = signature.positionals.map { (label: $0.usageSpelling, text: $0.help) }
            sections.append("ARGUMENTS:\n" + table(rows))
        }
        let optionRows = signature.options.map { (label: label(for: $0), text: description(of: $0)) }
        sections.append("OPTIONS:\n" + table(optionRows + [Self.helpEntry]))
        return sections.joined(separator: "\n\n") + "\n"
    }

    /// The help of the program itself, listing its subcommands.
    public func rootHelp(abstract: String, commands: [CommandSignature]) -> String {
        var sections = ["OVERVIEW: \(abstract)"]
        sections.append("USAGE: \(rootUsage)")
        sections.append("OPTIONS:\n" + table([(label: "--version", text: "Show the version."), Self.helpEntry]))
        let rows = commands.map { (label: $0.name, text: $0.abstract) }
        sections.append("SUBCOMMANDS:\n" + table(rows) + "\n\n  See '\(programName) help <subcommand>' for detailed help.")
        return sections.joined(separator: "\n\n") + "\n"
    }

    public var rootUsage: String { "\(programName) <subcommand>" }

    /// What stderr shows for a usage error: the error, the help hint, the usage line.
    public func usageError(_ error: UsageError, usage: String, helpCommand: String) -> String {
        var lines = ["Error: \(error.message)"]
        if let help = error.help { lines.append("Help: \(help)") }
        lines.append("Usage: \(usage)")
        lines.append("  See '\(helpCommand)' for more information.")
        return lines.joined(separator: "\n") + "\n"
    }

    func label(for option: OptionDefinition) -> String {
        let short = option.shortName.map { "-\($0), " } ?? ""
        return short + option.usageSpelling
    }

    /// The option's help, followed by its allowed values and default.
    func description(of option: OptionDefinition) -> String {
        guard case .value(_, let allowed, let defaultValue) = option.kind else { return option.help }
        var details: [String] = option.isRequired ? ["required"] : []
        if let allowed { details.append("values: " + allowed.joined(separator: ", ")) }
        if let defaultValue { details.append("default: " + defaultValue) }
        return details.isEmpty ? option.help : "\(option.help) (\(details.joined(separator: "; ")))"
    }

    /// Two columns: labels indented by two, descriptions wrapped at `labelColumn`; a label
    /// too long for its column puts the description on the next line.
    func table(_ rows: [(label: String, text: String)]) -> String {
        rows.map { row in
            let label = "  " + row.label
            let text = wrap(row.text, indent: labelColumn)
            if label.count + 2 <= labelColumn {
                let padding = String(repeating: " ", count: labelColumn - label.count)
                return label + padding + text.drop { $0 == " " }
            }
            return label + "\n" + text
        }.joined(separator: "\n")
    }

    /// `text` wrapped at `lineWidth`, every line indented by `indent` spaces.
    func wrap(_ text: String, indent: Int) -> String {
        let margin = String(repeating: " ", count: indent)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            for word in paragraph.split(separator: " ") {
                if !line.isEmpty, indent + line.count + 1 + word.count > lineWidth {
                    lines.append(margin + line)
                    line = ""
                }
                line += (line.isEmpty ? "" : " ") + word
            }
            lines.append(line.isEmpty ? "" : margin + line)
        }
        return lines.joined(separator: "\n")
    }
}
