/// The localized texts of a pack (table kind 8, docs/bytecode.md): the default locale and, for
/// each tip whose texts are templates or localized, its placeholders and every text. A tip
/// without an entry shows the texts of the tips table verbatim (as every tip of a format-1
/// pack, which lacks the table, does).
public struct PackTexts: Sendable, Hashable {
    /// The locale used when no text matches the one asked for; nil when no text is localized.
    public var defaultLocale: String?
    /// By ascending tip index, at most one per tip.
    public var tips: [PackTipTexts]

    public init(defaultLocale: String?, tips: [PackTipTexts]) {
        self.defaultLocale = defaultLocale
        self.tips = tips
    }

    /// The entry of tip `index`, if it has one.
    public func entry(forTip index: Int) -> PackTipTexts? {
        var low = 0, high = tips.count
        while low < high {
            let middle = (low + high) / 2
            if tips[middle].tip < index { low = middle + 1 } else { high = middle }
        }
        return low < tips.count && tips[low].tip == index ? tips[low] : nil
    }
}

/// A value the app passes when it shows a tip (`placeholders: { shortcut: string }`).
public struct PackPlaceholder: Sendable, Hashable {
    public var name: String
    /// Bool, Int, Double, String or Date (a Duration placeholder is refused).
    public var type: ValueType

    public init(name: String, type: ValueType) {
        self.name = name
        self.type = type
    }
}

/// One text (a title, a message, an action's title) in each of its locales.
public struct PackLocalizedText: Sendable, Hashable {
    public struct Variant: Sendable, Hashable {
        /// A BCP 47 tag; nil for a text that is the same in every locale (then the only variant).
        public var locale: String?
        public var template: TextTemplate

        public init(locale: String?, template: TextTemplate) {
            self.locale = locale
            self.template = template
        }
    }

    public var variants: [Variant]

    public init(variants: [Variant]) {
        self.variants = variants
    }

    /// The variant for `requested`: the first tag of its lookup chain that the text has, else
    /// the default locale's (or the only variant of a text for every locale).
    public func variant(for requested: String, defaultLocale: String?) -> Variant? {
        if variants.count == 1, variants[0].locale == nil { return variants[0] }
        for tag in LocaleTag.lookupChain(for: requested) {
            if let found = variants.first(where: { $0.locale.map { LocaleTag.matches($0, tag) } ?? false }) { return found }
        }
        guard let defaultLocale else { return nil }
        return variants.first { $0.locale.map { LocaleTag.matches($0, defaultLocale) } ?? false }
    }
}

/// The texts of one tip: title, message (when the tip has one) and its actions' titles, in the
/// tips table's order.
public struct PackTipTexts: Sendable, Hashable {
    /// Index into `RulePack.tips`.
    public var tip: Int
    public var placeholders: [PackPlaceholder]
    public var title: PackLocalizedText
    public var message: PackLocalizedText?
    public var actionTitles: [PackLocalizedText]

    public init(tip: Int, placeholders: [PackPlaceholder] = [], title: PackLocalizedText, message: PackLocalizedText? = nil,
                actionTitles: [PackLocalizedText] = []) {
        self.tip = tip
        self.placeholders = placeholders
        self.title = title
        self.message = message
        self.actionTitles = actionTitles
    }

    /// Every text, title first.
    public var allTexts: [PackLocalizedText] {
        [title] + (message.map { [$0] } ?? []) + actionTitles
    }
}
