/// Swift sources in a program: they are imported together, as one module, into one
/// manifest; every other source is parsed by its own front end.
extension Frontend {
    /// Parses `sources`: the Swift files together through `TipKitImporter`, the others one by one.
    /// With `parsingRules` false, a YAML manifest's rules are left for the checker to parse
    /// (see `UnparsedRule`).
    public static func parseAll(_ sources: [SourceFile], diagnostics: inout [Diagnostic], parsingRules: Bool = true) -> [ManifestFile] {
        var files: [ManifestFile] = []
        var swift: [SourceFile] = []
        for source in sources {
            if TipKitImporter.isSwift(source.path) {
                swift.append(source)
            } else {
                files.append(parse(source, diagnostics: &diagnostics, parsingRules: parsingRules))
            }
        }
        if !swift.isEmpty {
            files.append(TipKitImporter.importModule(swift, diagnostics: &diagnostics).file)
        }
        return files
    }
}
