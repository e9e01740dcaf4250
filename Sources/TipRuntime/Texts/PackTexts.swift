/// The localized texts of a pack (table kind 8, docs/bytecode.md): the default locale and, for
/// each tip whose texts are templates or localized, its placeholders and every text. A tip
/// without an entry shows the texts of the tips table verbatim (as every tip of a format-1
/// pack, which lacks the table, does).
package struct PackTexts: Sendable, Hashable {
    /// The locale used when no text matches the one asked for; nil when no text is localized.
    package var defaultLocale: String?
    /// By ascending tip index, at most one per tip.
    package var tips: [PackTipTexts]

    package init(defaultLocale: String?, tips: [PackTipTexts]) {
        self.defaultLocale = defaultLocale
        self.tips = tips
    }

    /// The entry of tip `index`, if it has one.
    package func entry(forTip index: Int) -> PackTipTexts? {
        var low = 0, high = tips.count
        while low < high {
            let middle = (low + high) / 2
            if tips[middle].tip < index { low = middle + 1 } else { high = middle }
        }
        return low < tips.count && tips[low].tip == index ? tips[low] : nil
    }
}

/// A value the app passes when it shows a tip (`placeholders: { shortcut: string }`).
package struct PackPlaceholder: Sendable, Hashable {
    package var name: String
    /// Bool, Int, Double, String or Date (a Duration placeholder is refused).
    package var type: ValueType

    package init(name: String, type: ValueType) {
        self.name = name
        self.type = type
    }
}

/// One text (a title, a message, an action's title) in each of its locales.
package struct PackLocalizedText: Sendable, Hashable {
    package struct Variant: Sendable, Hashable {
        /// A BCP 47 tag; nil for a text that is the same in every locale (then the only variant).
        package var locale: String?
        package var template: TextTemplate

        package init(locale: String?, template: TextTemplate) {
            self.locale = locale
            self.template = template
        }
    }

    package var variants: [Variant]

    package init(variants: [Variant]) {
        self.variants = variants
    }

    /// The variant for `requested`: the first tag of its lookup chain that the text has, else
    /// the default locale's (or the only variant of a text for every locale).
    package func variant(for requested: String, defaultLocale: String?) -> Variant? {
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
package struct PackTipTexts: Sendable, Hashable {
    /// Index into `RulePack.tips`.
    package var tip: Int
    package var placeholders: [PackPlaceholder]
    package var title: PackLocalizedText
    package var message: PackLocalizedText?
    package var actionTitles: [PackLocalizedText]

    package init(tip: Int, placeholders: [PackPlaceholder] = [], title: PackLocalizedText, message: PackLocalizedText? = nil,
                actionTitles: [PackLocalizedText] = []) {
        self.tip = tip
        self.placeholders = placeholders
        self.title = title
        self.message = message
        self.actionTitles = actionTitles
    }

    /// Every text, title first.
    package var allTexts: [PackLocalizedText] {
        [title] + (message.map { [$0] } ?? []) + actionTitles
    }
}
