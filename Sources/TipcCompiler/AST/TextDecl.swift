import TipRuntime

/// A tip's text (title, message, action title) as written: one text for every locale, or one
/// per locale (SPEC §7). Each text is a template: `{$p}` reads parameter `p`, `{name}` a
/// declared placeholder, `{{` and `}}` are braces.
public struct TextDecl: Sendable, Hashable {
    /// The texts in source order; a plain text is one variant without a locale.
    public var variants: [TextVariantDecl]
    /// The whole value (a mapping's range when localized).
    public var range: SourceRange
    /// Written as a mapping of locales (possibly empty, which the checker reports).
    public var isLocalized: Bool

    public init(variants: [TextVariantDecl], range: SourceRange, isLocalized: Bool) {
        self.variants = variants
        self.range = range
        self.isLocalized = isLocalized
    }

    /// One text for every locale, its template parsed from `text`.
    public static func plain(_ text: Located<String>, template: [TemplatePiece]) -> TextDecl {
        TextDecl(variants: [TextVariantDecl(locale: nil, text: text, template: template)], range: text.range, isLocalized: false)
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

    /// The text as written: a plain text's, or a localized text's first locale's (for tools
    /// that show one text).
    public var value: String {
        variants.first?.text.value ?? ""
    }

    /// The single text of a plain text (nil for a localized one).
    public var plainText: Located<String>? {
        isLocalized ? nil : variants.first?.text
    }

    /// The text in `locale` (a plain text's only one for any locale).
    public func text(in locale: String?) -> Located<String>? {
        if !isLocalized { return variants.first?.text }
        guard let locale else { return nil }
        return variants.first { $0.locale?.value == locale }?.text
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
