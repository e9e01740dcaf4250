import TipcCompiler
import TipRuntime

/// Everything `tipc preview` shows, in the order the page shows it: the program, each tip as it
/// would be drawn (texts per locale, with placeholders filled or shown as `{name}`) with its
/// rules, options and group, and, with a timeline, the chart of its run. The HTML writer only
/// lays this out; every fact comes from here.
struct PreviewPage {
    /// One locale's texts of one tip.
    struct Texts: Hashable {
        /// The locale asked for; nil when no text of the program is localized (one text for all).
        var locale: String?
        var title: String
        var message: String?
        var actions: [TipContent.Action]
    }

    /// One way the tip is drawn: a tip outside any experiment has a single, unnamed arm; a tip in
    /// an experiment has one per arm, in declared order (the first is the baseline).
    struct Arm: Hashable {
        /// The arm's name; nil for a tip outside any experiment.
        var name: String?
        /// `weight 45 of 100 (45%)`, for an experiment's arm.
        var share: String?
        /// A hidden arm is never drawn: its users do not see the tip.
        var isHidden = false
        /// The arm's image, or the tip's.
        var image: PackImage?
        /// One per locale shown, in the page's locale order (none for a hidden arm).
        var texts: [Texts]
    }

    struct Tip {
        var name: String
        /// `trailID: int` for a keyed tip.
        var key: String?
        var arms: [Arm]
        /// The rules as `tipc fmt` prints them.
        var rules: [String]
        /// Display options and other facts about the tip, as label and value.
        var options: [(label: String, value: String)]
        /// `onboarding: ordered, 1st of 3 (welcome, swipeActions, personalize)`.
        var group: String?
        /// The experiment on the tip, as label and value (empty: none).
        var experiment: [(label: String, value: String)]
    }

    /// The program's paths, as given.
    var paths: [String]
    /// The locales shown (nil: the program's texts are the same in every locale).
    var locales: [String?]
    var displayFrequency: String
    /// The placeholder values given (`--value`), as `name = text`.
    var values: [String]
    var tips: [Tip]
    var chart: PreviewChart?

    /// Builds the page of a program (parsed files kept, for the rules) for `locales` (empty: every
    /// locale the program declares) with `values` for placeholders.
    static func build(input: PackInput, locales requested: [String], values: [String: String],
                      chart: PreviewChart?) throws(CommandFailure) -> PreviewPage {
        let pack = input.pack.pack
        let locales = try locales(of: pack, requested: requested)
        try checkValues(values, pack: pack)
        let parameters = pack.parameters.map(\.defaultValue)
        var rulesByTip: [String: [String]] = [:]
        for file in input.files {
            for tip in file.tips { rulesByTip[tip.name.name] = tip.rules.map(ExpressionPrinter.print) }
        }
        var tips: [Tip] = []
        for (index, declared) in pack.tips.enumerated() {
            let placeholders = pack.texts?.entry(forTip: index)?.placeholders ?? []
            var filled: [String: RuntimeValue] = [:]
            for placeholder in placeholders {
                guard let text = values[placeholder.name] else { continue }
                switch ValueText.parse(text, as: placeholder.type) {
                case .success(let value): filled[placeholder.name] = value
                case .failure(let error):
                    throw CommandFailure.input("--value \(placeholder.name)=\(text): " + error.message(for: "placeholder '\(placeholder.name)' of tip '\(declared.name)'"))
                }
            }
            /// The tip's texts in every locale shown, as `arm` (nil: the tip's own) shows them.
            func texts(as arm: PackExperimentArm?) throws(CommandFailure) -> (texts: [Texts], image: PackImage?) {
                var texts: [Texts] = []
                var image = declared.image
                for locale in locales {
                    let content: TipContent
                    do {
                        content = try TipCenter.content(ofTipAt: index, in: pack, locale: locale ?? pack.texts?.defaultLocale ?? "en",
                                                        parameters: parameters, values: filled, keepingMissingPlaceholders: true, arm: arm)
                    } catch {
                        throw CommandFailure(.internalError, "the texts of '\(declared.name)'\(arm.map { " in arm '\($0.name)'" } ?? ""): \(error)")
                    }
                    image = content.image
                    texts.append(Texts(locale: locale, title: content.title, message: content.message, actions: content.actions))
                }
                return (texts, image)
            }
            var arms: [Arm] = []
            let experiment = pack.experiment(onTip: index)
            if let experiment {
                let total = experiment.arms.reduce(0) { $0 + $1.weight }
                for (position, arm) in experiment.arms.enumerated() {
                    // Tenths of a percent, rounded: 45%, 33.3% (in Double: weights may be any Int64
                    // whose sum fits).
                    let tenths = total > 0 ? Int64((Double(arm.weight) * 1000 / Double(total)).rounded()) : 0
                    let percent = tenths % 10 == 0 ? "\(tenths / 10)" : "\(tenths / 10).\(tenths % 10)"
                    var share = "weight \(arm.weight) of \(total) (\(percent)%)"
                    if position == 0 { share += ", the baseline" }
                    if arm.isHidden {
                        arms.append(Arm(name: arm.name, share: share, isHidden: true, image: nil, texts: []))
                    } else {
                        let drawn = try texts(as: arm)
                        arms.append(Arm(name: arm.name, share: share, image: drawn.image, texts: drawn.texts))
                    }
                }
            } else {
                let drawn = try texts(as: nil)
                arms = [Arm(name: nil, image: drawn.image, texts: drawn.texts)]
            }
            tips.append(Tip(name: declared.name, key: declared.key.map { "\($0.name): \($0.type.manifestSpelling)" },
                            arms: arms, rules: rulesByTip[declared.name] ?? [],
                            options: options(of: declared, placeholders: placeholders),
                            group: group(of: index, in: pack),
                            experiment: experiment.map { Self.facts(of: $0, in: pack) } ?? []))
        }
        return PreviewPage(paths: input.sources.keys.sorted(), locales: locales,
                           displayFrequency: pack.displayFrequencyMilliseconds == 0
                               ? "immediate" : ValueText.display(.duration(milliseconds: pack.displayFrequencyMilliseconds)),
                           values: values.keys.sorted().map { "\($0) = \(values[$0]!)" }, tips: tips, chart: chart)
    }

    /// The locales asked for, each checked; or every locale the program's texts declare, the
    /// default first; or a single nil when no text is localized.
    static func locales(of pack: RulePack, requested: [String]) throws(CommandFailure) -> [String?] {
        var seen = Set<String>()
        for locale in requested where !LocaleTag.isWellFormed(locale) {
            throw CommandFailure.io("--locale \(locale): not a BCP 47 language tag (e.g. en, de-CH, zh-Hans)")
        }
        if !requested.isEmpty { return requested.filter { seen.insert($0).inserted } }
        guard let texts = pack.texts, let defaultLocale = texts.defaultLocale else { return [nil] }
        let declared = Set(texts.tips.flatMap { $0.allTexts.flatMap { $0.variants.compactMap(\.locale) } })
        return [defaultLocale] + declared.subtracting([defaultLocale]).sorted()
    }

    /// Every `--value` must name a placeholder of some tip.
    static func checkValues(_ values: [String: String], pack: RulePack) throws(CommandFailure) {
        let names = Set((pack.texts?.tips ?? []).flatMap { $0.placeholders.map(\.name) })
        for name in values.keys.sorted() where !names.contains(name) {
            let hint = Suggestions.didYouMean(name, in: names.sorted()).map { "; \($0)" }
                ?? (names.isEmpty ? "; no tip declares placeholders" : "; placeholders: \(names.sorted().joined(separator: ", "))")
            throw CommandFailure.io("--value \(name)=…: no tip has a placeholder named '\(name)'\(hint)")
        }
    }

    static func options(of tip: PackTip, placeholders: [PackPlaceholder]) -> [(label: String, value: String)] {
        var options: [(label: String, value: String)] = []
        if let key = tip.key { options.append(("key", "\(key.name): \(key.type.manifestSpelling) (one tip per key value)")) }
        options.append(("max displays", tip.maxDisplayCount.map(String.init) ?? "no limit"))
        options.append(("max time on screen",
                        tip.maxDisplayDurationMilliseconds.map { ValueText.display(.duration(milliseconds: $0)) } ?? "no limit"))
        options.append(("display frequency", tip.ignoresDisplayFrequency ? "ignored by this tip" : "applies"))
        if !placeholders.isEmpty {
            options.append(("placeholders", placeholders.map { "\($0.name): \($0.type.manifestSpelling)" }.joined(separator: ", ")))
        }
        if !tip.actions.isEmpty { options.append(("actions", tip.actions.map(\.id).joined(separator: ", "))) }
        return options
    }

    /// An experiment's name, arms, goal and salt, as the facts beside its tip show them.
    static func facts(of experiment: PackExperiment, in pack: RulePack) -> [(label: String, value: String)] {
        let goal = pack.events.indices.contains(experiment.goal.event) ? pack.events[experiment.goal.event].name : "?"
        return [("name", experiment.name),
                ("arms", experiment.arms.map { $0.name + " " + String($0.weight) + ($0.isHidden ? " (hidden)" : "") }.joined(separator: ", ")),
                ("goal", "\(goal) within \(ValueText.display(.duration(milliseconds: experiment.goal.windowMilliseconds)))"),
                ("salt", experiment.salt)]
    }

    static func group(of tip: Int, in pack: RulePack) -> String? {
        guard let group = pack.groups.first(where: { $0.tips.contains(tip) }), let position = group.tips.firstIndex(of: tip) else { return nil }
        let priority = group.priority == .ordered ? "ordered" : "firstAvailable"
        let members = group.tips.map { pack.tips[$0].name }.joined(separator: ", ")
        return "\(group.name): \(priority), \(position + 1) of \(group.tips.count) (\(members))"
    }
}
