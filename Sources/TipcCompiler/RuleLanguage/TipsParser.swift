/// Parses `.tips` files (SPEC §3) into the same declarations as the YAML front end. A BOM
/// and CRLF line endings are accepted. Never throws; see `RuleParser` for the limits that
/// apply to each rule.
public enum TipsParser {
    public static func parseFile(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> ManifestFile {
        let parser = RuleLanguageParser(bytes: file.bytes, source: RuleText(file: file), lineBreaksEndExpressions: true)
        let manifest = parser.parseFile(file)
        diagnostics.append(contentsOf: parser.diagnosticsInOrder)
        return manifest
    }
}
