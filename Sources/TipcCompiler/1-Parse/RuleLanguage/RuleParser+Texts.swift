/// Texts in `.tips` files: a string is one text for every
/// locale; `{ en: "…", de: "…" }` is a text per locale, its entries separated by commas or
/// line breaks (the braces may span lines). A locale is a name: in backticks when it has a
/// hyphen (`` `de-CH` ``). `placeholders { shortcut: String }` declares a tip's placeholders.
extension RuleParser {
    /// A plain or localized text; nil when it did not parse (reported).
    mutating func parseText(_ what: String) -> TextDecl? {
        if current.kind == .string {
            let tokenIndex = index
            let (text, template) = parseTemplate()
            return TextDecl.plain(Located(text, at: range(ofToken: tokenIndex)), template: template)
        }
        guard current.kind == .leftBrace else {
            reportExpected("\(what) as a string, or '{' and a text per locale", help: "write '\"Text\"' or '{ en: \"Text\", de: \"Text\" }'")
            return nil
        }
        let opening = index
        advance()
        var variants: [TextVariantDecl] = []
        while current.kind != .rightBrace, !isAtEnd {
            guard let locale = parseLocale("a locale") else { return skipText() }
            guard expect(.colon, "':' after the locale") else { return skipText() }
            guard current.kind == .string else {
                reportExpected("the '\(locale.value)' text as a string")
                return skipText()
            }
            let tokenIndex = index
            let (text, template) = parseTemplate()
            variants.append(TextVariantDecl(locale: locale, text: Located(text, at: range(ofToken: tokenIndex)), template: template))
            if current.kind == .comma {
                advance()
            } else if !current.isAtLineStart {
                break
            }
        }
        guard current.kind == .rightBrace else {
            reportExpected("',', a line break or '}'", notes: [DiagnosticNote("to match this", at: range(ofToken: opening))])
            return skipText()
        }
        advance()
        return TextDecl(variants: variants, range: range(since: opening), isLocalized: true)
    }

    /// After an error inside a text's braces: skips past its `}` (stopping before a line that
    /// starts another attribute or declaration), so that the tip's own `}` still closes the tip.
    private mutating func skipText() -> TextDecl? {
        while !isAtEnd, current.kind != .rightBrace {
            if current.isAtLineStart, current.kind == .identifier, DeclarationKeywords.all.contains(text(of: current)) { return nil }
            advance()
        }
        if current.kind == .rightBrace { advance() }
        return nil
    }

    /// After an error inside `placeholders { … }`: past its `}` when it is on the same line.
    private mutating func skipPlaceholders() -> [PlaceholderDecl]? {
        while !isAtEnd, !current.isAtLineStart, current.kind != .rightBrace { advance() }
        if !isAtEnd, !current.isAtLineStart, current.kind == .rightBrace { advance() }
        return nil
    }

    /// A locale tag written as a name (`de`, `` `de-CH` ``); a well-formed tag is the checker's
    /// concern. A tag with a hyphen written without backticks gets a hint.
    mutating func parseLocale(_ what: String) -> Located<String>? {
        guard current.kind == .identifier || current.kind == .quotedName else {
            reportExpected(what, help: "write a language tag such as en or `de-CH`")
            return nil
        }
        let tokenIndex = index
        let token = advance()
        let name = text(of: token)
        if token.kind == .identifier, current.kind == .minus, current.start == token.end {
            var end = index
            while self.token(end).kind != .endOfFile, !self.token(end).isAtLineStart,
                  [.minus, .identifier, .integer].contains(self.token(end).kind) { end += 1 }
            let tag = String(decoding: bytes[token.start..<self.token(end - 1).end], as: UTF8.self)
            report(.syntax, "a locale with a hyphen is written in backticks", at: range(fromToken: tokenIndex, toToken: end - 1),
                   help: "write `\(tag)`")
            return nil
        }
        return Located(name, at: range(ofToken: tokenIndex))
    }

    /// The current string token's text and its template (parsed with positions in the file).
    private mutating func parseTemplate() -> (String, [TemplatePiece]) {
        let token = current
        let tokenIndex = index
        advance()
        let text = self.text(of: token)
        let start = lexedToken(tokenIndex).startLocation
        let raw = bytes[(token.start + 1)..<max(token.start + 1, token.end - 1)]
        let mapping: RuleText.Mapping
        if raw.elementsEqual(text.utf8) {
            mapping = .singleLine(start: SourceLocation(line: start.line, column: start.column + 1))
        } else {
            // Escapes: every byte maps to the string's start (positions stay on the string).
            mapping = .table(Array(repeating: start, count: text.utf8.count) + [lexedToken(tokenIndex).endLocation])
        }
        let template = TextTemplateParser.parse(RuleText(text: text, pathNumber: fileNumber, mapping: mapping), diagnostics: &diagnostics)
        return (text, template)
    }

    /// `{ name: Type, … }` after `placeholders`.
    mutating func parsePlaceholders() -> [PlaceholderDecl]? {
        let opening = index
        guard expect(.leftBrace, "'{' and the placeholders (name: Type)") else { return nil }
        let placeholders = parseCommaSeparated(until: .rightBrace, opening: opening) { parser -> PlaceholderDecl? in
            guard let name = parser.parseName("a placeholder"), parser.expect(.colon, "':' after the placeholder name") else { return nil }
            let typeIndex = parser.index
            let type = parser.parseType()
            if type == nil && parser.index == typeIndex { return nil }
            return PlaceholderDecl(name: name, type: type)
        }
        return placeholders ?? skipPlaceholders()
    }
}
