import TipcCompiler

/// `--format xcode` (and `--diagnostics xcode` of `compile` and `generate`): one line per
/// diagnostic in the form compilers print, which Xcode and SwiftPM place at the line of the file:
///
///     /app/Tips/app.tips:6:1: error: expected expression, found '}' [syntax]
///     /app/Tips/app.tips:6:1: note: help: …
///
/// The code follows the message in brackets, as clang prints a warning's flag; help and notes
/// are `note:` lines (at the note's own position when it has one). No snippet and no summary:
/// the IDE shows the line itself.
public struct XcodeReporter: Sendable {
    public init() {}

    public func render(_ report: DiagnosticReport) -> String {
        var output = report.diagnostics.map(render).joined()
        if let omitted = report.omittedText { output += "note: " + omitted + "\n" }
        return output
    }

    public func render(_ diagnostic: Diagnostic) -> String {
        let at = Self.position(diagnostic.range)
        var output = "\(at): \(diagnostic.severity.rawValue): \(Self.line(diagnostic.message)) [\(diagnostic.code.rawValue)]\n"
        if let help = diagnostic.help { output += "\(at): note: help: \(Self.line(help))\n" }
        for note in diagnostic.notes {
            output += "\(note.range.map(Self.position) ?? at): note: \(Self.line(note.message))\n"
        }
        return output
    }

    static func position(_ range: SourceRange) -> String {
        "\(range.file):\(range.start.line):\(range.start.column)"
    }

    /// `text` on one line: a line break would start what reads as a new diagnostic.
    static func line(_ text: String) -> String {
        DisplayWidth.sanitized(text).split(whereSeparator: \.isNewline).joined(separator: " ")
    }
}
