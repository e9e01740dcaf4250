import TipcCompiler

/// `--format json` (SPEC §4): one object on one line,
/// `{"diagnostics":[{"file","line","column","endLine","endColumn","severity","code","message","help"?}],"summary":{"files","errors","warnings"}}`,
/// keys in exactly that order. Columns count Unicode scalars; the end is exclusive.
public struct JSONReporter: Sendable {
    public init() {}

    public func render(_ report: DiagnosticReport) -> String {
        let diagnostics = report.diagnostics.map { diagnostic -> JSONValue in
            var members: [(String, JSONValue)] = [
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
            return .object(members)
        }
        let document = JSONValue.object([
            ("diagnostics", .array(diagnostics)),
            ("summary", .object([
                ("files", .integer(report.fileCount)),
                ("errors", .integer(report.errorCount)),
                ("warnings", .integer(report.warningCount)),
            ])),
        ])
        return document.serialized(pretty: false) + "\n"
    }
}
