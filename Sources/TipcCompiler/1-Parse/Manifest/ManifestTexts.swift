/// Tips' texts in a manifest: a scalar is one text for every locale, a mapping is a
/// text per locale (`{ en: …, de: … }`); each text is parsed as a template, its positions
/// mapped back into the YAML file. Placeholders are a mapping of names to types.
extension ManifestValueReader {
    mutating func localizedText(_ node: YAMLNode, for what: @autoclosure () -> String) -> TextDecl? {
        if let pairs = node.pairs {
            var variants: [TextVariantDecl] = []
            for pair in pairs {
                guard let locale = keyName(pair.key) else { continue }
                guard let text = templateText(pair.value, for: "the '\(locale)' text of \(what())") else { continue }
                variants.append(TextVariantDecl(locale: Located(locale, at: pair.key.range), text: text.text, template: text.template))
            }
            return TextDecl(variants: variants, range: node.range, isLocalized: true)
        }
        guard let scalar = scalar(node, expected: "a text", for: what()) else { return nil }
        let text = Located(scalar.value, at: node.range)
        // Most texts have no braces: such a text is its own template, held without arrays.
        if !TextTemplateParser.hasBraces(scalar.value) {
            return .plain(withoutBraces: text, contentRange: Self.contentRange(of: scalar, at: node.range)
                ?? scalar.ruleText(in: file, startingAt: node.range.start).range(fromUTF8: 0, to: scalar.value.utf8.count))
        }
        return .plain(text, template: TextTemplateParser.parse(scalar.ruleText(in: file, startingAt: node.range.start),
                                                                diagnostics: &diagnostics))
    }

    /// The range of a one-line plain or quoted scalar's characters, without its quotes: what
    /// mapping its whole text back into the file gives, found without reading the text (the
    /// closing quote ends the text whatever escapes it holds). Nil for other scalars.
    static func contentRange(of scalar: YAMLScalar, at range: SourceRange) -> SourceRange? {
        guard range.start.line == range.end.line else { return nil }
        switch scalar.style {
        case .plain:
            return range
        case .singleQuoted, .doubleQuoted:
            guard range.end.column - range.start.column >= 2 else { return nil }
            var content = range
            content.start.column += 1
            content.end.column -= 1
            return content
        case .literal, .folded:
            return nil
        }
    }

    /// A scalar text and its template.
    private mutating func templateText(_ node: YAMLNode, for what: @autoclosure () -> String) -> (text: Located<String>, template: [TemplatePiece])? {
        guard let scalar = scalar(node, expected: "a text", for: what()) else { return nil }
        let template = TextTemplateParser.parse(scalar.ruleText(in: file, startingAt: node.range.start), diagnostics: &diagnostics)
        return (Located(scalar.value, at: node.range), template)
    }

    /// `placeholders: { name: type, … }`.
    mutating func placeholders(_ node: YAMLNode, for what: @autoclosure () -> String) -> [PlaceholderDecl] {
        var placeholders: [PlaceholderDecl] = []
        for (_, pair) in entries(of: node, for: "the placeholders of \(what())", allowed: nil) {
            guard let name = identifier(pair.key, for: "a placeholder of \(what())") else { continue }
            placeholders.append(PlaceholderDecl(name: name, type: typeName(pair.value, for: "placeholder '\(name.name)'")))
        }
        return placeholders
    }
}
