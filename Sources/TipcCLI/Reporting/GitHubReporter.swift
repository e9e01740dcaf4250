import TipcCompiler

/// `--format github`: GitHub Actions workflow commands, one annotation per diagnostic:
/// `::error file=F,line=L,col=C,endLine=…,endColumn=…,title=CODE::MESSAGE`.
///
/// GitHub's end column is inclusive and only meaningful on the start line, so a range on
/// one line gives the column of its last character, and a range over several lines gives
/// only its last line.
public struct GitHubReporter: Sendable {
    public init() {}

    public func render(_ report: DiagnosticReport) -> String {
        var output = report.diagnostics.map { annotation(for: $0) + "\n" }.joined()
        if let omitted = report.omittedText { output += "::notice::" + Self.escapeData(omitted) + "\n" }
        return output
    }

    public func annotation(for diagnostic: Diagnostic) -> String {
        let range = diagnostic.range
        var properties: [(String, String)] = [
            ("file", range.file),
            ("line", String(range.start.line)),
            ("col", String(range.start.column)),
        ]
        if range.end.line == range.start.line {
            properties.append(("endLine", String(range.start.line)))
            properties.append(("endColumn", String(max(range.start.column, range.end.column - 1))))
        } else {
            // A range ending at column 1 ends with the line break of the line before.
            let lastLine = range.end.column == 1 ? range.end.line - 1 : range.end.line
            properties.append(("endLine", String(max(range.start.line, lastLine))))
        }
        properties.append(("title", diagnostic.code.rawValue))

        var message = diagnostic.message
        if let help = diagnostic.help { message += "\nhelp: " + help }
        for note in diagnostic.notes {
            message += "\nnote: " + note.message
            if let at = note.range { message += " (\(at.file):\(at.start.line):\(at.start.column))" }
        }
        let list = properties.map { "\($0.0)=\(Self.escapeProperty($0.1))" }.joined(separator: ",")
        return "::\(Self.command(for: diagnostic.severity)) \(list)::\(Self.escapeData(message))"
    }

    static func command(for severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "notice"
        }
    }

    /// Escapes the message part: `%`, CR and LF.
    public static func escapeData(_ text: String) -> String {
        var result = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": result += "%25"
            case "\r": result += "%0D"
            case "\n": result += "%0A"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    /// Escapes a property value: as data, and `:` and `,` too.
    public static func escapeProperty(_ text: String) -> String {
        var result = ""
        for character in escapeData(text).unicodeScalars {
            switch character {
            case ":": result += "%3A"
            case ",": result += "%2C"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
