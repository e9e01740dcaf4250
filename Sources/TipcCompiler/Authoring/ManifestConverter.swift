/// `tipc convert`: a source file written with the other front end (or the same one), comments
/// carried where they attach to a declaration and at the top of the file. The output is
/// verified to declare the same program; what one front end cannot express (a default of
/// `.inf` has no `.tips` spelling) is an error.
public enum ManifestConverter {
    /// The text of `file` (parsed from `source` without errors) in `format`.
    public static func convert(_ source: SourceFile, parsed file: ManifestFile, to format: SourceFormat) throws(AuthoringError) -> String {
        let header = headerComments(of: source, format: file.format)
        let text: String
        let outputPath: String
        switch format {
        case .tips:
            text = TipsPrinter.print(file, header: header)
            outputPath = "converted.tips"
        case .yaml:
            text = ManifestYAMLPrinter.print(file, header: header)
            outputPath = "converted.yaml"
        }
        var diagnostics: [Diagnostic] = []
        let reparsed = Frontend.parse(SourceFile(path: outputPath, text: text), diagnostics: &diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }
        if let difference = ManifestDifference.first(between: file, and: reparsed) ?? errors.first.map({ "the program (\($0.message))" }) {
            throw AuthoringError(path: source.path, message: "cannot be written as \(format.rawValue) without changing \(difference)")
        }
        return text
    }

    /// The comment lines at the top of a file that belong to no declaration.
    static func headerComments(of source: SourceFile, format: SourceFormat) -> [String] {
        switch format {
        case .yaml:
            var lines: [String] = []
            for number in 1...max(1, source.lineStarts.count) {
                let text = source.lineText(number).drop(while: { $0 == " " })
                if text.isEmpty { continue }
                guard text.hasPrefix("#") else { break }
                var comment = text.dropFirst()
                if comment.hasPrefix(" ") { comment = comment.dropFirst() }
                lines.append(String(comment))
            }
            return lines
        case .tips:
            let lexer = RuleLexer.lex(RuleText(file: source))
            guard let first = lexer.tokens.first, first.kind != .endOfFile else { return lexer.comments.map(\.text) }
            // Comments above a declaration's keyword belong to the declaration.
            guard first.kind == .identifier, ["tipkit", "displayFrequency"].contains(first.text) else { return [] }
            return lexer.comments.filter { $0.start < first.start && $0.isOnOwnLine }.map(\.text)
        }
    }
}
