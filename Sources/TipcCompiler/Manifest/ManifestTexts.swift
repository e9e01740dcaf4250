/// Tips' texts in a manifest (SPEC §7): a scalar is one text for every locale, a mapping is a
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
        guard let text = templateText(node, for: what()) else { return nil }
        return .plain(text.text, template: text.template)
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
