/// A rule of a YAML manifest handed on for the checker to parse right before it checks it
/// (`ManifestDecoder.decode(_:diagnostics:parsingRules:)` with `parsingRules: false`, as
/// `Frontend.check` reads a file it does not keep): each rule's syntax tree is then made,
/// checked and freed while it is fresh in the cache, instead of every tree of the file being
/// made first and walked again later. The parser and its diagnostics are the same either way.
///
/// A rule is handed on as its text only when that text is no larger than the file's bytes it
/// came from: a plain or quoted rule written on one line, of at most
/// `RuleParser.maximumRuleLength` characters (nearly every rule). Any other (escapes, folding,
/// an over-long rule) is parsed by the decoder at once, as before: its text's map into the file
/// holds a position per byte, and thousands of them waiting for the checker would hold many
/// times the file in memory. An item that is not a rule (a mapping, a list, an alias, a tagged
/// or anchored scalar, a plain empty item), already reported, is handed on as an error node.
public struct UnparsedRule: Sendable, Hashable {
    enum Content: Sendable {
        case text(RuleText)
        case parsed(Expression)
    }

    let content: Content
    /// Where the list item is.
    public let range: SourceRange

    init(text: RuleText, range: SourceRange) {
        content = .text(text)
        self.range = range
    }

    init(parsed: Expression, range: SourceRange) {
        content = .parsed(parsed)
        self.range = range
    }

    /// Whether the text waits for the checker (false: the decoder parsed the rule).
    var isText: Bool {
        if case .text = content { return true }
        return false
    }

    /// Whether a rule's text, mapped into the file, is handed on rather than parsed at once
    /// (see the type's documentation).
    static func handsOn(_ text: RuleText) -> Bool {
        guard case .singleLine = text.mapping else { return false }
        return text.text.utf8.count <= RuleParser.maximumRuleLength
    }

    /// The rule's syntax tree; the rule parser's diagnostics go to `diagnostics`, as when the
    /// decoder parses the rule. `parser` is reused from rule to rule.
    func parsed(reusing parser: inout RuleParser, diagnostics: inout [Diagnostic]) -> Expression {
        switch content {
        case .text(let text): return RuleParser.parseRule(text, reusing: &parser, diagnostics: &diagnostics)
        case .parsed(let expression): return expression
        }
    }

    /// Two rules handed on are equal when they are the same text at the same place (the text's
    /// map into the file follows from those), or the same tree.
    public static func == (a: UnparsedRule, b: UnparsedRule) -> Bool {
        guard a.range == b.range else { return false }
        switch (a.content, b.content) {
        case (.text(let x), .text(let y)): return x.text == y.text
        case (.parsed(let x), .parsed(let y)): return x == y
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(range)
        switch content {
        case .text(let text): hasher.combine(text.text)
        case .parsed(let expression): hasher.combine(expression)
        }
    }
}
