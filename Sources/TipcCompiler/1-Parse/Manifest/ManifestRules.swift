/// Rules inside a manifest: each item of `rules` is a scalar whose text, mapped back to its
/// place in the file, goes to the rule-language parser.
extension ManifestValueReader {
    mutating func rules(_ node: YAMLNode, for what: @autoclosure () -> String) -> [Expression] {
        ruleItems(node, for: what()).map { rule($0).parsed(reusing: &ruleParser, diagnostics: &diagnostics) }
    }

    /// `rules(_:for:)` without parsing the rules whose text the checker parses (see `UnparsedRule`).
    mutating func unparsedRules(_ node: YAMLNode, for what: @autoclosure () -> String) -> [UnparsedRule] {
        ruleItems(node, for: what()).map { rule($0) }
    }

    /// One rule item: its text when it is to wait for the checker (see `UnparsedRule`), else
    /// its tree, parsed here, or an error node after explaining what YAML made of the item.
    private mutating func rule(_ item: YAMLNode) -> UnparsedRule {
        guard let text = ruleText(item) else { return UnparsedRule(parsed: Expression(.error, at: item.range), range: item.range) }
        if UnparsedRule.handsOn(text) { return UnparsedRule(text: text, range: item.range) }
        return UnparsedRule(parsed: RuleParser.parseRule(text, reusing: &ruleParser, diagnostics: &diagnostics), range: item.range)
    }

    private mutating func ruleItems(_ node: YAMLNode, for what: String) -> YAMLItems {
        sequence(node, for: "the rules of \(what)", help: "write each rule as a list item: '- RULE'") ?? .empty
    }

    /// One rule's text, or nil after explaining what YAML made of it instead.
    private mutating func ruleText(_ node: YAMLNode) -> RuleText? {
        // A scalar, nearly every rule, is read as one: a switch over `node.content` would copy
        // the content (and the scalar in it) once more.
        if let scalar = node.scalar {
            if node.hasProperties { return nil }  // the tag or anchor is reported
            if scalar.style == .plain, scalar.value.isEmpty {
                report(.syntax, "empty rule", at: node.range, help: "write a rule after '- ', or remove the item")
                return nil
            }
            return scalar.ruleText(in: file, startingAt: node.range.start)
        }
        if node.isMapping {
            let cause = node.isFlow ? "because it starts with '{'" : "because of ': '"
            report(.syntax, "YAML read this rule as a mapping \(cause)", at: node.range, help: "quote the rule")
        } else if node.items != nil {
            let start = node.isFlow ? "'['" : "'- '"
            report(.syntax, "YAML read this rule as a list because it starts with \(start)", at: node.range,
                   help: "quote the rule")
        }
        // An alias has been reported by the reader.
        return nil
    }
}
