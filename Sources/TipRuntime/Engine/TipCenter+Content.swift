#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The texts a tip shows, in one locale, with its placeholders filled.
public struct TipContent: Sendable, Hashable {
    /// An action's button.
    public struct Action: Sendable, Hashable {
        /// The action's id, as declared: what `recordAction` and an action record name.
        public var id: String
        /// The button's title, in the content's locale.
        public var title: String

        /// An action's button (for a preview or a test, say; the runtime makes these).
        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    /// The tip's title.
    public var title: String
    /// The tip's message; nil when it has none.
    public var message: String?
    /// The SF Symbol or asset the tip shows; nil when it has none.
    public var image: PackImage?
    /// The tip's buttons, in declared order.
    public var actions: [Action]

    /// A tip's content (for a preview or a test, say; `TipCenter.content(of:locale:)` makes these).
    public init(title: String, message: String? = nil, image: PackImage? = nil, actions: [Action] = []) {
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
    }
}

extension RuntimeValue: ExpressibleByStringLiteral {
    /// A String value, so that placeholder values read `["shortcut": "⌘K"]`.
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension TipCenter {
    /// The tip's title, message and action titles in `locale`: the text for `locale` itself
    /// (`de-CH`), else for each shorter tag (`de`), else for the pack's default locale. `{$p}`
    /// reads parameter `p`'s current value; `{name}` takes `values[name]`, which must be given
    /// and have the placeholder's declared type (values the tip does not declare are ignored).
    /// A tip of a format-1 pack, or one whose texts are plain, shows them as written. A tip in
    /// an experiment shows the user's arm: its title, message, image and actions where the arm
    /// overrides them (the arm is needed, and stored, as `arm(of:)` does).
    public func content(of tip: String, locale: String, values: [String: RuntimeValue] = [:]) throws(TipError) -> TipContent {
        let now = clock.milliseconds()
        let (model, parameters, index, arm) = try state.withLock {
            (engine: inout EngineState) throws(TipError) -> (RulePack, [RuntimeValue], Int, PackExperimentArm?) in
            guard let index = engine.tipIndex[tip] else { throw .unknownTip(tip) }
            return (engine.model, engine.parameters.values, index, try neededArm(ofTip: index, &engine, now: now)?.arm)
        }
        return try Self.content(ofTipAt: index, in: model, locale: locale, parameters: parameters, values: values, arm: arm)
    }

    /// `content(of:locale:values:)` in `locale` (e.g. `Locale.current`), by its language tag
    /// (`de_CH` → `de-CH`, keywords such as `@calendar=…` left out). On Linux a program must link
    /// Foundation (not only FoundationEssentials, where every `Locale` is `en_001`) for
    /// `Locale(identifier:)` and `Locale.current` to mean what they say.
    public func content(of tip: String, locale: Locale, values: [String: RuntimeValue] = [:]) throws(TipError) -> TipContent {
        try content(of: tip, locale: LocaleTag.tag(of: locale), values: values)
    }

    /// `content(of:locale:values:)` over a pack and parameter values (by parameter index), for
    /// tools that show a pack's texts (`tipc explain --locale`): with `keepingMissingPlaceholders`,
    /// a placeholder without a value is shown as `{name}` instead of being an error.
    package static func content(of tip: String, in pack: RulePack, locale: String, parameters: [RuntimeValue],
                               values: [String: RuntimeValue], keepingMissingPlaceholders: Bool = false) throws(TipError) -> TipContent {
        guard let index = pack.tips.firstIndex(where: { $0.name == tip }) else { throw .unknownTip(tip) }
        return try content(ofTipAt: index, in: pack, locale: locale, parameters: parameters, values: values,
                           keepingMissingPlaceholders: keepingMissingPlaceholders)
    }

    /// `content(of:in:locale:parameters:values:keepingMissingPlaceholders:)` for the tip at
    /// `index` in the pack's tips table: no search by name, for callers that walk the table
    /// (one search per tip would make listing every tip quadratic). With `arm`, what the arm
    /// overrides replaces the tip's own.
    package static func content(ofTipAt index: Int, in pack: RulePack, locale: String, parameters: [RuntimeValue],
                               values: [String: RuntimeValue], keepingMissingPlaceholders: Bool = false,
                               arm: PackExperimentArm? = nil) throws(TipError) -> TipContent {
        let declared = pack.tips[index]
        let tip = declared.name
        let image = arm?.image ?? declared.image
        guard let entry = pack.texts?.entry(forTip: index) else {
            let plain = TipContent(title: declared.title, message: declared.message, image: image,
                                   actions: declared.actions.map { TipContent.Action(id: $0.id, title: $0.title) })
            guard let arm, !arm.overridesNothing else { return plain }
            // A pack without texts: an arm's texts read no placeholders.
            func render(_ text: PackLocalizedText) -> String {
                (text.variant(for: locale, defaultLocale: nil) ?? text.variants.first).map { $0.template.rendered(parameters: parameters, placeholders: []) } ?? ""
            }
            return TipContent(title: arm.title.map(render) ?? plain.title, message: arm.message.map(render) ?? plain.message, image: image,
                              actions: arm.actions.map { $0.map { TipContent.Action(id: $0.id, title: render($0.title)) } } ?? plain.actions)
        }
        // Every placeholder's value is checked once, whether or not the chosen locale reads it:
        // all locales of one text read the same ones, and an error must not depend on the locale.
        var filled: [String] = []
        for placeholder in entry.placeholders {
            guard let value = values[placeholder.name] else {
                if keepingMissingPlaceholders {
                    filled.append("{\(placeholder.name)}")
                    continue
                }
                if entry.allTexts.contains(where: { $0.variants.first?.template.reads(placeholder: filled.count) ?? false }) {
                    throw .missingPlaceholderValue(tip: tip, placeholder: placeholder.name)
                }
                filled.append("")
                continue
            }
            guard value.type == placeholder.type else {
                throw .wrongPlaceholderType(tip: tip, placeholder: placeholder.name, expected: placeholder.type, actual: value.type)
            }
            filled.append(ValueText.display(value))
        }
        func render(_ text: PackLocalizedText) -> String {
            guard let variant = text.variant(for: locale, defaultLocale: pack.texts?.defaultLocale) ?? text.variants.first else { return "" }
            return variant.template.rendered(parameters: parameters, placeholders: filled)
        }
        let actions = arm?.actions.map { $0.map { TipContent.Action(id: $0.id, title: render($0.title)) } }
            ?? zip(declared.actions, entry.actionTitles).map { TipContent.Action(id: $0.id, title: render($1)) }
        return TipContent(title: render(arm?.title ?? entry.title), message: (arm?.message ?? entry.message).map(render), image: image,
                          actions: actions)
    }
}

extension TextTemplate {
    /// Whether the text reads placeholder `index`.
    func reads(placeholder index: Int) -> Bool {
        segments.contains(.placeholder(index))
    }

    /// The text with parameters' values (by parameter index) and placeholders' texts filled
    /// in; an index out of bounds reads as nothing (total over any pack: a `RulePack` built
    /// in memory is not verified).
    func rendered(parameters: [RuntimeValue], placeholders: [String]) -> String {
        var result = ""
        for segment in segments {
            switch segment {
            case .literal(let literal): result += literal
            case .parameter(let parameter):
                if parameters.indices.contains(parameter) { result += ValueText.display(parameters[parameter]) }
            case .placeholder(let placeholder):
                if placeholders.indices.contains(placeholder) { result += placeholders[placeholder] }
            }
        }
        return result
    }
}
