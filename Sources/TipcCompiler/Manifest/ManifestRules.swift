/// Rules inside a manifest: each item of `rules` is a scalar whose text, mapped back to its
/// place in the file, goes to the rule-language parser.
extension ManifestValueReader {
    mutating func rules(_ node: YAMLNode, for what: @autoclosure () -> String) -> [Expression] {
        guard let items = sequence(node, for: "the rules of \(what())", help: "write each rule as a list item: '- RULE'") else {
            return []
        }
        return items.map { rule($0) }
    }

    /// Parses one rule, or explains what YAML made of it instead.
    private mutating func rule(_ node: YAMLNode) -> Expression {
        var failed: Expression { Expression(.error, at: node.range) }
        // A scalar, nearly every rule, is read as one: a switch over `node.content` would copy
        // the content (and the scalar in it) once more.
        if let scalar = node.scalar {
            if node.hasProperties { return failed }  // the tag or anchor is reported
            if scalar.style == .plain, scalar.value.isEmpty {
                report(.syntax, "empty rule", at: node.range, help: "write a rule after '- ', or remove the item")
                return failed
            }
            return RuleParser.parseRule(scalar.ruleText(in: file, startingAt: node.range.start),
                                        reusing: &ruleParser, diagnostics: &diagnostics)
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
        return failed
    }
}
