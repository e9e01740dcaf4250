import TipRuntime

/// Checks a tip's texts and lowers them to the pack's texts entry: locales are
/// BCP 47 tags, a localized text has the default locale, every locale of one text reads the
/// same placeholders and parameters, every `{$p}` names a parameter and every `{name}` a
/// declared placeholder, and every declared placeholder is used.
struct TextChecker {
    /// The program's default locale, if declared (and well-formed).
    let defaultLocale: String?
    /// Whether one is declared at all (an ill-formed one is reported once, not at every text).
    let defaultLocaleDeclared: Bool
    let parameterIndex: [String: Int]
    let parameterNames: [String]
    private(set) var diagnostics: [Diagnostic] = []
    /// Parameters that some text reads (they are not `unused`).
    private(set) var usedParameters = Set<Int>()
    /// Whether a localized text without a `defaultLocale` was already reported (once per program).
    private var reportedMissingDefault = false

    init(defaultLocale: String?, declared: Bool, parameters: [PackParameter]) {
        self.defaultLocale = defaultLocale
        defaultLocaleDeclared = declared
        var index: [String: Int] = [:]
        for (offset, parameter) in parameters.enumerated() where index[parameter.name] == nil { index[parameter.name] = offset }
        parameterIndex = index
        parameterNames = parameters.map(\.name)
    }

    /// The texts entry of the tip at `tipIndex`, or nil when its texts are all plain and
    /// brace-free (the tips table then holds them as they read).
    mutating func check(_ decl: TipDecl, tipIndex: Int) -> PackTipTexts? {
        // Plain texts without braces and no placeholders, the usual tip: nothing to report,
        // nothing to lower.
        guard Self.mayNeedEntry(decl) else { return nil }
        let tip = decl.name.name
        let diagnosticsBefore = diagnostics.count
        var placeholders: [PackPlaceholder] = []
        var placeholderIndex: [String: Int] = [:]
        var seen: [String: SourceRange] = [:]
        for placeholder in decl.placeholders {
            let name = placeholder.name.name
            if let first = seen[name] {
                diagnostics.append(Diagnostic(.duplicateName, "tip '\(tip)' declares placeholder '\(name)' twice", at: placeholder.name.range,
                                              notes: [DiagnosticNote("first declared here", at: first)]))
                continue
            }
            seen[name] = placeholder.name.range
            guard let type = placeholder.type else { continue }  // the front end reported it
            guard type.value != .duration else {
                diagnostics.append(Diagnostic(.invalidValue, "placeholder '\(name)' cannot be a duration", at: type.range,
                                              help: "a placeholder is a bool, int, double, string or date; pass a duration as a string the app formats"))
                continue
            }
            placeholderIndex[name] = placeholders.count
            placeholders.append(PackPlaceholder(name: name, type: type.value))
        }
        var used = Set<Int>()
        var needsEntry = !decl.placeholders.isEmpty
        func lower(_ text: TextDecl?, _ what: String) -> PackLocalizedText? {
            guard let text else { return nil }
            let lowered = check(text, what: what, tip: tip, placeholders: placeholderIndex, declared: decl.placeholders.map(\.name.name),
                                used: &used)
            if text.isLocalized || !Self.isVerbatim(text) { needsEntry = true }
            return lowered
        }
        let title = lower(decl.title, "the title of tip '\(tip)'")
        let message = lower(decl.message, "the message of tip '\(tip)'")
        var actionTitles: [PackLocalizedText] = []
        var actionIDs = Set<String>()
        for action in decl.actions where actionIDs.insert(action.id.name).inserted {
            if let lowered = lower(action.title, "the title of action '\(action.id.name)'") { actionTitles.append(lowered) }
        }
        // Skipped when a text names an unknown placeholder: the "unused" one is most likely the
        // one the typo meant.
        let typo = diagnostics[diagnosticsBefore...].contains { $0.code == .unknownPlaceholder }
        for (name, index) in placeholderIndex.sorted(by: { $0.value < $1.value }) where !used.contains(index) && !typo {
            diagnostics.append(Diagnostic(.unusedPlaceholder, "placeholder '\(name)' of tip '\(tip)' is not used by any of its texts",
                                          at: seen[name] ?? decl.name.range, help: "use it as '{\(name)}' in a text, or remove it"))
        }
        guard needsEntry, let title else { return nil }
        return PackTipTexts(tip: tipIndex, placeholders: placeholders, title: title, message: message, actionTitles: actionTitles)
    }

    /// Whether a plain text reads exactly as written (no braces at all).
    private static func isVerbatim(_ text: TextDecl) -> Bool {
        text.hasNoBraces
    }

    /// Whether the tip declares placeholders or has a text that is localized or not verbatim.
    /// When not, checking its texts reports nothing and it has no texts entry.
    private static func mayNeedEntry(_ decl: TipDecl) -> Bool {
        func mayNeed(_ text: TextDecl?) -> Bool { text.map { $0.isLocalized || !isVerbatim($0) } ?? false }
        return !decl.placeholders.isEmpty || mayNeed(decl.title) || mayNeed(decl.message) || decl.actions.contains { mayNeed($0.title) }
    }

    mutating func check(_ text: TextDecl, what: String, tip: String, placeholders: [String: Int], declared: [String],
                        used: inout Set<Int>) -> PackLocalizedText {
        if text.isLocalized, text.variants.isEmpty {
            diagnostics.append(Diagnostic(.invalidValue, "\(what) has no locales", at: text.range,
                                          help: "write a text per locale ('en: …'), or one text for every locale"))
        }
        if text.isLocalized, !defaultLocaleDeclared, !reportedMissingDefault {
            reportedMissingDefault = true
            diagnostics.append(Diagnostic(.missingKey, "\(what) is localized but the program has no 'defaultLocale'", at: text.range,
                                          help: "declare the locale shown when none matches, e.g. 'defaultLocale: \(text.variants.first?.locale?.value ?? "en")' at the top of a manifest"))
        }
        var variants: [PackLocalizedText.Variant] = []
        var locales: [(tag: String, range: SourceRange)] = []
        for variant in text.variants {
            if let locale = variant.locale {
                if !LocaleTag.isWellFormed(locale.value) {
                    let hyphenated = locale.value.replacingUnderscores()
                    diagnostics.append(Diagnostic(.invalidLocale, "'\(locale.value)' in \(what) is not a BCP 47 language tag", at: locale.range,
                                                  help: LocaleTag.isWellFormed(hyphenated) ? "did you mean '\(hyphenated)'?"
                                                      : "write a language tag such as 'de', 'de-CH' or 'zh-Hans'"))
                } else if let problem = LanguageSubtags.problem(with: locale.value, in: what) {
                    diagnostics.append(Diagnostic(.unknownLocale, problem.message, at: locale.range, help: problem.help))
                } else if let first = locales.first(where: { LocaleTag.matches($0.tag, locale.value) }) {
                    diagnostics.append(Diagnostic(.duplicateKey, "\(what) has locale '\(locale.value)' twice", at: locale.range,
                                                  help: "language tags ignore case", notes: [DiagnosticNote("first given here", at: first.range)]))
                } else {
                    locales.append((locale.value, locale.range))
                }
            }
            var segments: [TextTemplate.Segment] = []
            for piece in variant.template {
                switch piece.kind {
                case .literal(let literal):
                    if case .literal(let previous)? = segments.last {
                        segments[segments.count - 1] = .literal(previous + literal)
                    } else {
                        segments.append(.literal(literal))
                    }
                case .parameter(let name):
                    if let index = parameterIndex[name] {
                        usedParameters.insert(index)
                        segments.append(.parameter(index))
                    } else {
                        let help = Suggestions.didYouMean(name, in: parameterNames)
                            ?? (placeholders[name] != nil ? "'\(name)' is a placeholder: write '{\(name)}'" : nil)
                        diagnostics.append(Diagnostic(.unknownParameter, "no parameter named '\(name)'", at: piece.range, help: help))
                    }
                case .placeholder(let name):
                    if let index = placeholders[name] {
                        used.insert(index)
                        segments.append(.placeholder(index))
                    } else {
                        let help = Suggestions.didYouMean(name, in: declared)
                            ?? (parameterIndex[name] != nil ? "'\(name)' is a parameter: write '{$\(name)}'"
                                : "declare it under the tip's 'placeholders' (e.g. '\(name): string'), or write '{{' and '}}' for literal braces")
                        diagnostics.append(Diagnostic(.unknownPlaceholder, "tip '\(tip)' has no placeholder named '\(name)'", at: piece.range,
                                                      help: help))
                    }
                }
            }
            variants.append(PackLocalizedText.Variant(locale: variant.locale?.value, template: TextTemplate(segments)))
            if let locale = variant.locale?.value, variant.text.value.allSatisfy(\.isWhitespace) {
                diagnostics.append(Diagnostic(.invalidValue, "the '\(locale)' text of \(what) is empty", at: variant.text.range))
            }
        }
        if text.isLocalized, let defaultLocale, !text.variants.isEmpty,
           !locales.contains(where: { LocaleTag.matches($0.tag, defaultLocale) }) {
            // A text for a more specific tag (`en-US` where the default is `en`) is the usual slip.
            let specific = locales.first { LocaleTag.lookupChain(for: $0.tag).contains { LocaleTag.matches($0, defaultLocale) } }
            let help = specific.map { "'\($0.tag)' is more specific than the default locale '\(defaultLocale)': write '\(defaultLocale)' instead, or add a text for it" }
                ?? "add '\(defaultLocale): …': it is shown when no other locale matches"
            diagnostics.append(Diagnostic(.missingLocale, "\(what) has no text for the default locale '\(defaultLocale)'", at: text.range,
                                          help: help))
        }
        checkSamePlaceholders(text, variants, what: what)
        return PackLocalizedText(variants: variants)
    }

    /// Every locale must read what the default locale's text (or the first) reads.
    private mutating func checkSamePlaceholders(_ text: TextDecl, _ variants: [PackLocalizedText.Variant], what: String) {
        guard variants.count > 1 else { return }
        let referenceIndex = variants.firstIndex { variant in
            defaultLocale.map { tag in variant.locale.map { LocaleTag.matches($0, tag) } ?? false } ?? false
        } ?? 0
        let reference = Self.references(in: text.variants[referenceIndex])
        let referenceLocale = text.variants[referenceIndex].locale?.value ?? "?"
        for (offset, variant) in text.variants.enumerated() where offset != referenceIndex {
            let own = Self.references(in: variant)
            let missing = reference.subtracting(own).sorted()
            let extra = own.subtracting(reference).sorted()
            guard !missing.isEmpty || !extra.isEmpty else { continue }
            let locale = variant.locale?.value ?? "?"
            var parts: [String] = []
            if !missing.isEmpty { parts.append("lacks \(missing.joined(separator: ", "))") }
            if !extra.isEmpty { parts.append("has \(extra.joined(separator: ", ")), which the '\(referenceLocale)' text does not") }
            diagnostics.append(Diagnostic(.placeholderMismatch, "the '\(locale)' text of \(what) \(parts.joined(separator: " and "))",
                                          at: variant.text.range,
                                          help: "every locale of one text uses the same placeholders and parameters: the app passes the same values whatever the locale"))
        }
    }

    /// `{name}` and `{$p}` as written, for messages.
    private static func references(in variant: TextVariantDecl) -> Set<String> {
        Set(variant.template.compactMap { piece in
            switch piece.kind {
            case .literal: return nil
            case .parameter(let name): return "'{$\(name)}'"
            case .placeholder(let name): return "'{\(name)}'"
            }
        })
    }
}

private extension String {
    func replacingUnderscores() -> String {
        String(map { $0 == "_" ? "-" : $0 })
    }
}

extension DeclarationChecker {
    /// The program's `defaultLocale`: a well-formed tag, declared alike wherever declared.
    mutating func checkDefaultLocale(_ files: [ManifestFile]) -> (locale: String?, declared: Bool) {
        var first: Located<String>?
        for file in files {
            guard let declared = file.defaultLocale else { continue }
            if !LocaleTag.isWellFormed(declared.value) {
                diagnostics.append(Diagnostic(.invalidLocale, "'\(declared.value)' is not a BCP 47 language tag", at: declared.range,
                                              help: "write a language tag such as 'en', 'de-CH' or 'zh-Hans'"))
                continue
            }
            if let problem = LanguageSubtags.problem(with: declared.value, in: "'defaultLocale'") {
                diagnostics.append(Diagnostic(.unknownLocale, problem.message, at: declared.range, help: problem.help))
                continue
            }
            if let first {
                if !LocaleTag.matches(first.value, declared.value) {
                    diagnostics.append(Diagnostic(.invalidValue, "the default locale is declared differently in two files", at: declared.range,
                                                  notes: [DiagnosticNote("first declared here", at: first.range)]))
                }
            } else {
                first = declared
            }
        }
        return (first?.value, files.contains { $0.defaultLocale != nil })
    }

    /// The text as the tips table holds it: a plain text, or the default locale's (else the
    /// first locale's) template as written.
    static func tableText(_ text: TextDecl, defaultLocale: String?) -> String {
        if let plain = text.plainText { return plain.value }
        let variant = text.variants.first { variant in
            defaultLocale.map { tag in variant.locale.map { LocaleTag.matches($0.value, tag) } ?? false } ?? false
        } ?? text.variants.first
        return variant?.text.value ?? ""
    }
}
