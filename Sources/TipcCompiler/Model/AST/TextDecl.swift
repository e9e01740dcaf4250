import TipRuntime

/// A tip's text (title, message, action title) as written: one text for every locale, or one
/// per locale. Each text is a template: `{$p}` reads parameter `p`, `{name}` a
/// declared placeholder, `{{` and `}}` are braces.
///
/// A plain text that is its own template (no braces: nearly every text) is held as the text
/// and where its characters are, without the arrays of variants and pieces, which are made
/// only when asked for: each of them would be an allocation per text of every tip.
public struct TextDecl: Sendable, Hashable {
    private enum Storage: Sendable, Hashable {
        /// One text for every locale whose template is one literal piece, the whole text, at
        /// `contentRange` (no piece for an empty text); the whole value's range is the text's.
        case literal(Located<String>, contentRange: SourceRange)
        case variants([TextVariantDecl], range: SourceRange, isLocalized: Bool)
    }

    private var storage: Storage

    private init(storage: Storage) {
        self.storage = storage
    }

    /// The same text is always held the same way (so that equal texts compare equal): as a
    /// literal exactly when that reproduces the variants.
    public init(variants: [TextVariantDecl], range: SourceRange, isLocalized: Bool) {
        if !isLocalized, variants.count == 1, variants[0].locale == nil, variants[0].text.range == range,
           let contentRange = Self.literalRange(of: variants[0]) {
            storage = .literal(variants[0].text, contentRange: contentRange)
        } else {
            storage = .variants(variants, range: range, isLocalized: isLocalized)
        }
    }

    /// Where a variant's single literal piece is when its template is its text as written (no
    /// piece at all for an empty text, which then keeps the text's range); nil otherwise.
    private static func literalRange(of variant: TextVariantDecl) -> SourceRange? {
        if variant.template.isEmpty { return variant.text.value.isEmpty ? variant.text.range : nil }
        guard variant.template.count == 1, case .literal(let literal) = variant.template[0].kind,
              literal == variant.text.value, !literal.isEmpty else { return nil }
        return variant.template[0].range
    }

    /// One text for every locale, its template parsed from `text`.
    public static func plain(_ text: Located<String>, template: [TemplatePiece]) -> TextDecl {
        TextDecl(variants: [TextVariantDecl(locale: nil, text: text, template: template)], range: text.range, isLocalized: false)
    }

    /// One text for every locale without braces, its characters at `contentRange` (the text's
    /// range without its quotes): its template is the text itself, one literal piece.
    static func plain(withoutBraces text: Located<String>, contentRange: SourceRange) -> TextDecl {
        TextDecl(storage: .literal(text, contentRange: text.value.isEmpty ? text.range : contentRange))
    }

    /// One text for every locale that reads exactly `text` (braces doubled where written), for
    /// front ends whose texts are not templates (Swift imported from TipKit).
    public static func verbatim(_ text: Located<String>) -> TextDecl {
        var escaped = ""
        for character in text.value {
            escaped.append(character)
            if character == "{" || character == "}" { escaped.append(character) }
        }
        let pieces = text.value.isEmpty ? [] : [TemplatePiece(kind: .literal(text.value), range: text.range)]
        return plain(Located(escaped, at: text.range), template: pieces)
    }

    /// The texts in source order; a plain text is one variant without a locale.
    public var variants: [TextVariantDecl] {
        switch storage {
        case .literal(let text, let contentRange):
            let template = text.value.isEmpty ? [] : [TemplatePiece(kind: .literal(text.value), range: contentRange)]
            return [TextVariantDecl(locale: nil, text: text, template: template)]
        case .variants(let variants, _, _):
            return variants
        }
    }

    /// The whole value (a mapping's range when localized).
    public var range: SourceRange {
        switch storage {
        case .literal(let text, _): return text.range
        case .variants(_, let range, _): return range
        }
    }

    /// Written as a mapping of locales (possibly empty, which the checker reports).
    public var isLocalized: Bool {
        switch storage {
        case .literal: return false
        case .variants(_, _, let isLocalized): return isLocalized
        }
    }

    /// The text as written: a plain text's, or a localized text's first locale's (for tools
    /// that show one text).
    public var value: String {
        switch storage {
        case .literal(let text, _): return text.value
        case .variants(let variants, _, _): return variants.first?.text.value ?? ""
        }
    }

    /// The single text of a plain text (nil for a localized one).
    public var plainText: Located<String>? {
        switch storage {
        case .literal(let text, _): return text
        case .variants(let variants, _, let isLocalized): return isLocalized ? nil : variants.first?.text
        }
    }

    /// The text in `locale` (a plain text's only one for any locale).
    public func text(in locale: String?) -> Located<String>? {
        if let plainText { return plainText }
        guard isLocalized, let locale else { return nil }
        return variants.first { $0.locale?.value == locale }?.text
    }

    /// Whether every variant's text is free of braces (reads exactly as written).
    var hasNoBraces: Bool {
        switch storage {
        case .literal(let text, _): return !TextTemplateParser.hasBraces(text.value)
        case .variants(let variants, _, _): return variants.allSatisfy { !TextTemplateParser.hasBraces($0.text.value) }
        }
    }
}

/// One locale's text.
public struct TextVariantDecl: Sendable, Hashable {
    /// Nil for a plain text.
    public var locale: Located<String>?
    /// The template as written (braces included).
    public var text: Located<String>
    /// The template's pieces, parsed by the front end (which reports unbalanced braces).
    public var template: [TemplatePiece]

    public init(locale: Located<String>?, text: Located<String>, template: [TemplatePiece]) {
        self.locale = locale
        self.text = text
        self.template = template
    }
}

/// A piece of a text template, with where it is written.
public struct TemplatePiece: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        /// Text as it reads (`{{` already a single brace).
        case literal(String)
        /// `{$name}`.
        case parameter(String)
        /// `{name}`.
        case placeholder(String)
    }

    public var kind: Kind
    /// For a reference, the name inside the braces.
    public var range: SourceRange

    public init(kind: Kind, range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}

/// A value the app passes when it shows the tip (`placeholders: { shortcut: string }`).
public struct PlaceholderDecl: Sendable, Hashable {
    public var name: Identifier
    /// Nil when not a known type (the front end has reported it).
    public var type: Located<ValueType>?

    public init(name: Identifier, type: Located<ValueType>?) {
        self.name = name
        self.type = type
    }
}
