/// A rule of a YAML manifest handed on as its text, for the checker to parse right before it
/// checks it (`ManifestDecoder.decode(_:diagnostics:parsingRules:)` with `parsingRules: false`,
/// as `Frontend.check` reads a file it does not keep): each rule's syntax tree is then made,
/// checked and freed while it is fresh in the cache, instead of every tree of the file being
/// made first and walked again later. The parser and its diagnostics are the same either way.
public struct UnparsedRule: Sendable, Hashable {
    /// The rule's text, mapped into the file; nil for a list item that is not a rule (a
    /// mapping, a list, an empty or tagged scalar), already reported: it checks as an error.
    public let text: RuleText?
    /// Where the list item is.
    public let range: SourceRange

    public init(text: RuleText?, range: SourceRange) {
        self.text = text
        self.range = range
    }

    /// The rule's syntax tree; a syntax error is reported to `diagnostics` and leaves an
    /// `.error` node, as when the decoder parses the rule. `parser` is reused from rule to rule.
    func parsed(reusing parser: inout RuleParser?, diagnostics: inout [Diagnostic]) -> Expression {
        guard let text else { return Expression(.error, at: range) }
        if parser == nil { parser = RuleParser(reusableFor: text.pathNumber) }
        return RuleParser.parseRule(text, reusing: &parser!, diagnostics: &diagnostics)
    }

    /// Two unparsed rules are equal when they are the same text at the same place (the text's
    /// mapping into the file follows from those).
    public static func == (a: UnparsedRule, b: UnparsedRule) -> Bool {
        a.range == b.range && a.text?.text == b.text?.text
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(range)
        hasher.combine(text?.text)
    }
}
