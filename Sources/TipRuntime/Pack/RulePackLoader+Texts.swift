/// Reading and verifying the texts table (kind 8): every index in bounds, every locale a
/// well-formed BCP 47 tag, the default locale in every localized text, every placeholder
/// declared, and every locale of one text reading the same parameters and placeholders (what
/// the checker guarantees, so that `TipCenter.content` needs the same values in every locale).
extension PackDecoder {
    /// The texts; nil for an empty table (no default locale, no entries), which means what a
    /// format-1 pack's missing table means: every text is plain.
    func readTexts(_ reader: inout ByteReader, tips: [PackTip], parameterCount: Int) throws(RulePackError) -> PackTexts? {
        let localeOffset = reader.offset
        let defaultLocale = try optionalString(&reader, "default locale")
        if let defaultLocale, !LocaleTag.isWellFormed(defaultLocale) {
            throw RulePackError(.malformed, "default locale '\(defaultLocale)' is not a BCP 47 tag", offset: localeOffset)
        }
        let count = try reader.count("texts entry count", elementSize: 12)
        var entries: [PackTipTexts] = []
        var previousTip = -1
        for _ in 0..<count {
            let tipOffset = reader.offset
            let tip = Int(try reader.u32("tip of a texts entry"))
            guard tip < tips.count else {
                throw RulePackError(.indexOutOfBounds, "texts entry for tip \(tip); the pack has \(tips.count)", offset: tipOffset)
            }
            guard tip > previousTip else {
                throw RulePackError(.malformed, "texts entries out of order or repeated (tip \(tip))", offset: tipOffset)
            }
            previousTip = tip
            let name = tips[tip].name
            let placeholderCount = try reader.count("placeholder count of tip '\(name)'", elementSize: 5)
            var placeholders: [PackPlaceholder] = []
            var names = Set<String>()
            for _ in 0..<placeholderCount {
                let placeholder = try uniqueName(&reader, "placeholder of tip '\(name)'", &names)
                let typeOffset = reader.offset
                let type = try type(&reader, "type of placeholder '\(placeholder)'")
                guard type != .duration else {
                    throw RulePackError(.malformed, "placeholder '\(placeholder)' of tip '\(name)' is a Duration", offset: typeOffset)
                }
                placeholders.append(PackPlaceholder(name: placeholder, type: type))
            }
            let expected = 1 + (tips[tip].message == nil ? 0 : 1) + tips[tip].actions.count
            let textsOffset = reader.offset
            let textCount = try reader.count("text count of tip '\(name)'", elementSize: 4)
            guard textCount == expected else {
                throw RulePackError(.malformed, "tip '\(name)' has \(textCount) texts in the texts table; its title, message and actions make \(expected)",
                                    offset: textsOffset)
            }
            var texts: [PackLocalizedText] = []
            for _ in 0..<textCount {
                texts.append(try readText(&reader, tip: name, placeholders: placeholders.count, parameters: parameterCount,
                                          defaultLocale: defaultLocale))
            }
            entries.append(PackTipTexts(tip: tip, placeholders: placeholders, title: texts[0],
                                        message: tips[tip].message == nil ? nil : texts[1],
                                        actionTitles: Array(texts.dropFirst(tips[tip].message == nil ? 1 : 2))))
        }
        return defaultLocale == nil && entries.isEmpty ? nil : PackTexts(defaultLocale: defaultLocale, tips: entries)
    }

    func readText(_ reader: inout ByteReader, tip: String, placeholders: Int, parameters: Int,
                          defaultLocale: String?) throws(RulePackError) -> PackLocalizedText {
        let textOffset = reader.offset
        let variantCount = try reader.count("locale count of a text of tip '\(tip)'", elementSize: 8)
        guard variantCount > 0 else { throw RulePackError(.malformed, "a text of tip '\(tip)' has no locale", offset: textOffset) }
        var variants: [PackLocalizedText.Variant] = []
        for _ in 0..<variantCount {
            let localeOffset = reader.offset
            let locale = try optionalString(&reader, "locale of a text of tip '\(tip)'")
            if let locale {
                guard LocaleTag.isWellFormed(locale) else {
                    throw RulePackError(.malformed, "locale '\(locale)' of tip '\(tip)' is not a BCP 47 tag", offset: localeOffset)
                }
                guard !variants.contains(where: { $0.locale.map { LocaleTag.matches($0, locale) } ?? false }) else {
                    throw RulePackError(.duplicateName, "a text of tip '\(tip)' has locale '\(locale)' twice", offset: localeOffset)
                }
            } else if variantCount != 1 {
                throw RulePackError(.malformed, "a text of tip '\(tip)' for every locale has other locales too", offset: localeOffset)
            }
            let segmentCount = try reader.count("segment count of a text of tip '\(tip)'", elementSize: 5)
            var segments: [TextTemplate.Segment] = []
            for _ in 0..<segmentCount {
                let segmentOffset = reader.offset
                let kind = try reader.u8("segment kind")
                switch kind {
                case 0:
                    segments.append(.literal(try string(&reader, "text of tip '\(tip)'")))
                case 1:
                    let index = Int(try reader.u32("parameter of a text"))
                    guard index < parameters else {
                        throw RulePackError(.indexOutOfBounds, "a text of tip '\(tip)' reads parameter \(index); the pack has \(parameters)",
                                            offset: segmentOffset)
                    }
                    segments.append(.parameter(index))
                case 2:
                    let index = Int(try reader.u32("placeholder of a text"))
                    guard index < placeholders else {
                        throw RulePackError(.indexOutOfBounds, "a text of tip '\(tip)' reads placeholder \(index); the tip declares \(placeholders)",
                                            offset: segmentOffset)
                    }
                    segments.append(.placeholder(index))
                default:
                    throw RulePackError(.malformed, "unknown text segment kind \(kind)", offset: segmentOffset)
                }
            }
            let template = TextTemplate(segments)
            if let first = variants.first, first.template.references != template.references {
                throw RulePackError(.malformed, "the locales of a text of tip '\(tip)' read different placeholders or parameters",
                                    offset: localeOffset)
            }
            variants.append(PackLocalizedText.Variant(locale: locale, template: template))
        }
        if variants[0].locale != nil {
            guard let defaultLocale else {
                throw RulePackError(.malformed, "tip '\(tip)' has a localized text but the pack has no default locale", offset: textOffset)
            }
            guard variants.contains(where: { $0.locale.map { LocaleTag.matches($0, defaultLocale) } ?? false }) else {
                throw RulePackError(.malformed, "a text of tip '\(tip)' lacks the default locale '\(defaultLocale)'", offset: textOffset)
            }
        }
        return PackLocalizedText(variants: variants)
    }
}
