import TipcCompiler
import TipcJSON

/// `--format json`: one object on one line,
/// `{"version":1,"diagnostics":[{"file","line","column","endLine","endColumn","severity","code","message","help"?,"notes"?}],"summary":{"files","errors","warnings","omitted"?}}`,
/// keys in exactly that order; a note is `{"message","file"?,"line"?,"column"?}`. Lines and
/// columns are 1-based, columns count Unicode scalars, and the end column is exclusive (the
/// column after the last character). `version` changes only when a key changes meaning.
/// `omitted` counts the diagnostics past the report's cap (`DiagnosticReport.maximumShown`),
/// present only when some were left out; `errors` and `warnings` count them too.
public struct JSONReporter: Sendable {
    public init() {}

    public func render(_ report: DiagnosticReport) -> String {
        let diagnostics = report.diagnostics.map { diagnostic -> JSON in
            var members: [(String, JSON)] = [
                ("file", .string(diagnostic.range.file)),
                ("line", .integer(diagnostic.range.start.line)),
                ("column", .integer(diagnostic.range.start.column)),
                ("endLine", .integer(diagnostic.range.end.line)),
                ("endColumn", .integer(diagnostic.range.end.column)),
                ("severity", .string(diagnostic.severity.rawValue)),
                ("code", .string(diagnostic.code.rawValue)),
                ("message", .string(diagnostic.message)),
            ]
            if let help = diagnostic.help { members.append(("help", .string(help))) }
            if !diagnostic.notes.isEmpty {
                members.append(("notes", .array(diagnostic.notes.map { note in
                    var fields: [(String, JSON)] = [("message", .string(note.message))]
                    if let range = note.range {
                        fields += [("file", .string(range.file)), ("line", .integer(range.start.line)), ("column", .integer(range.start.column))]
                    }
                    return .object(fields)
                })))
            }
            return .object(members)
        }
        var summary: [(String, JSON)] = [
            ("files", .integer(report.fileCount)),
            ("errors", .integer(report.errorCount)),
            ("warnings", .integer(report.warningCount)),
        ]
        if report.omittedCount > 0 { summary.append(("omitted", .integer(report.omittedCount))) }
        let document = JSON.object([
            ("version", .integer(1)),
            ("diagnostics", .array(diagnostics)),
            ("summary", .object(summary)),
        ])
        return document.serialized(pretty: false) + "\n"
    }
}
