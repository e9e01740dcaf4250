import TipcCompiler

/// Diagnostics for people, in the shape of rustc:
///
///     Examples/shop.yaml:14:9: error[unknown-event]: no event named 'serchPerformed'
///        |
///     14 |       - serchPerformed.count >= 3 within 3d
///        |         ^^^^^^^^^^^^^^
///        = help: did you mean 'searchPerformed'?
///
/// Each diagnostic is followed by a blank line; a summary line closes a report that has
/// errors or warnings, and a clean report prints nothing.
public struct TextReporter: Sendable {
    public var style: TerminalStyle

    public init(colored: Bool) {
        self.style = TerminalStyle(isEnabled: colored)
    }

    public func render(_ report: DiagnosticReport) -> String {
        var output = ""
        for diagnostic in report.diagnostics {
            output += render(diagnostic, sources: report.sources) + "\n"
        }
        if let omitted = report.omittedText {
            output += style.apply(.bold, "note") + ": " + omitted + "\n"
        }
        if let summary = summary(of: report) {
            output += summary + "\n"
        }
        return output
    }

    /// One diagnostic: header, snippet, help and notes, each line ending in a line break.
    public func render(_ diagnostic: Diagnostic, sources: [String: SourceFile]) -> String {
        let lineNumbers = [diagnostic.range.start.line] + diagnostic.notes.compactMap { $0.range?.start.line }
        let gutterWidth = String(lineNumbers.max() ?? 1).count
        let severityRole = role(for: diagnostic.severity)
        let padding = String(repeating: " ", count: gutterWidth + 1)

        var lines: [String] = []
        let range = diagnostic.range
        lines.append(style.apply(.bold, "\(range.file):\(range.start.line):\(range.start.column):") + " "
            + style.apply(severityRole, "\(diagnostic.severity.rawValue)[\(diagnostic.code.rawValue)]")
            + style.apply(.bold, ": " + DisplayWidth.sanitized(diagnostic.message)))
        lines += snippet(range, in: sources[range.file], gutterWidth: gutterWidth, caretRole: severityRole)
        if let help = diagnostic.help {
            lines.append(padding + style.apply(.gutter, "=") + " " + style.apply(.bold, "help") + ": "
                + DisplayWidth.sanitized(help))
        }
        for note in diagnostic.notes {
            lines.append(padding + style.apply(.gutter, "=") + " " + style.apply(.bold, "note") + ": "
                + DisplayWidth.sanitized(note.message))
            if let noteRange = note.range {
                lines.append(String(repeating: " ", count: gutterWidth) + style.apply(.gutter, "-->") + " "
                    + "\(noteRange.file):\(noteRange.start.line):\(noteRange.start.column)")
                lines += snippet(noteRange, in: sources[noteRange.file], gutterWidth: gutterWidth, caretRole: .note)
            }
        }
        return lines.map { $0 + "\n" }.joined()
    }

    /// Lines longer than this many characters are cut to a window around the range.
    static let maximumShownColumns = 200
    /// Characters shown on each side of the range in a cut line.
    static let contextColumns = 40

    /// The source line under a range with carets beneath the range (to the end of the first
    /// line when the range spans several); nothing when the line cannot be shown.
    func snippet(_ range: SourceRange, in source: SourceFile?, gutterWidth: Int, caretRole: TerminalStyle.Role) -> [String] {
        let lineNumber = range.start.line
        guard let source, lineNumber >= 1, lineNumber <= source.lineStarts.count else { return [] }
        var scalars = Array(source.lineText(lineNumber).unicodeScalars)
        var start = max(0, range.start.column - 1)
        var end = max(start + 1, range.end.line == lineNumber ? range.end.column - 1 : scalars.count)

        // A very long line (minified or generated input) is shown as a window around the range.
        var prefix = "", suffix = ""
        if scalars.count > Self.maximumShownColumns {
            let windowStart = min(max(0, start - Self.contextColumns), scalars.count)
            let windowEnd = min(scalars.count, max(windowStart + 1, min(end, start + Self.maximumShownColumns) + Self.contextColumns))
            if windowStart > 0 { prefix = "…" }
            if windowEnd < scalars.count { suffix = "…" }
            scalars = Array(scalars[windowStart..<windowEnd])
            start = start - windowStart + prefix.count
            end = min(end - windowStart, scalars.count) + prefix.count
        }

        var shown = prefix
        for scalar in scalars { shown += DisplayWidth.displayable(scalar) }
        shown += suffix
        if !prefix.isEmpty { scalars.insert("…", at: 0) }
        var offset = 0
        var length = 0
        for index in 0..<end {
            let width = index < scalars.count ? DisplayWidth.of(scalars[index]) : 1
            if index < start { offset += width } else { length += width }
        }
        length = max(1, length)

        let number = String(lineNumber)
        let emptyGutter = String(repeating: " ", count: gutterWidth + 1) + "|"
        let numberGutter = String(repeating: " ", count: gutterWidth - number.count) + number + " |"
        return [
            style.apply(.gutter, emptyGutter),
            style.apply(.gutter, numberGutter) + (shown.isEmpty ? "" : " " + shown),
            style.apply(.gutter, emptyGutter) + " " + String(repeating: " ", count: offset)
                + style.apply(caretRole, String(repeating: "^", count: length)),
        ]
    }

    /// `error: 2 errors and 1 warning in 3 files` (no file count when no file was read), or nil
    /// when there is nothing to count.
    public func summary(of report: DiagnosticReport) -> String? {
        let errors = report.errorCount
        let warnings = report.warningCount
        guard errors + warnings > 0 else { return nil }
        var counts: [String] = []
        if errors > 0 { counts.append(Self.count(errors, "error")) }
        if warnings > 0 { counts.append(Self.count(warnings, "warning")) }
        var text = ": " + counts.joined(separator: " and ")
        if report.fileCount > 0 { text += " in " + Self.count(report.fileCount, "file") }
        let label: Severity = errors > 0 ? .error : .warning
        return style.apply(role(for: label), label.rawValue) + style.apply(.bold, text)
    }

    static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    func role(for severity: Severity) -> TerminalStyle.Role {
        switch severity {
        case .error: return .error
        case .warning: return .warning
        case .note: return .note
        }
    }
}
