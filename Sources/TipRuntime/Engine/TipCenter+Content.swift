/// The texts a tip shows, in one locale, with its placeholders filled.
public struct TipContent: Sendable, Hashable {
    /// An action's button.
    public struct Action: Sendable, Hashable {
        public var id: String
        public var title: String

        public init(id: String, title: String) {
            self.id = id
            self.title = title
        }
    }

    public var title: String
    public var message: String?
    public var actions: [Action]

    public init(title: String, message: String? = nil, actions: [Action] = []) {
        self.title = title
        self.message = message
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
    /// A tip of a format-1 pack, or one whose texts are plain, shows them as written.
    public func content(of tip: String, locale: String, values: [String: RuntimeValue] = [:]) throws(TipError) -> TipContent {
        let (model, parameters) = try state.withLock { (engine: inout EngineState) throws(TipError) -> (RulePack, [RuntimeValue]) in
            guard engine.tipIndex[tip] != nil else { throw .unknownTip(tip) }
            return (engine.model, engine.parameters.values)
        }
        return try Self.content(of: tip, in: model, locale: locale, parameters: parameters, values: values)
    }

    /// `content(of:locale:values:)` over a pack and parameter values (by parameter index), for
    /// tools that show a pack's texts (`tipc explain --locale`): with `keepingMissingPlaceholders`,
    /// a placeholder without a value is shown as `{name}` instead of being an error.
    public static func content(of tip: String, in pack: RulePack, locale: String, parameters: [RuntimeValue],
                               values: [String: RuntimeValue], keepingMissingPlaceholders: Bool = false) throws(TipError) -> TipContent {
        guard let index = pack.tips.firstIndex(where: { $0.name == tip }) else { throw .unknownTip(tip) }
        return try content(ofTipAt: index, in: pack, locale: locale, parameters: parameters, values: values,
                           keepingMissingPlaceholders: keepingMissingPlaceholders)
    }

    /// `content(of:in:locale:parameters:values:keepingMissingPlaceholders:)` for the tip at
    /// `index` in the pack's tips table: no search by name, for callers that walk the table
    /// (one search per tip would make listing every tip quadratic).
    public static func content(ofTipAt index: Int, in pack: RulePack, locale: String, parameters: [RuntimeValue],
                               values: [String: RuntimeValue], keepingMissingPlaceholders: Bool = false) throws(TipError) -> TipContent {
        let declared = pack.tips[index]
        let tip = declared.name
        guard let entry = pack.texts?.entry(forTip: index) else {
            return TipContent(title: declared.title, message: declared.message,
                              actions: declared.actions.map { TipContent.Action(id: $0.id, title: $0.title) })
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
        // Total over any pack (a `RulePack` built in memory is not verified): an index out of
        // bounds reads as nothing.
        func render(_ text: PackLocalizedText) -> String {
            guard let variant = text.variant(for: locale, defaultLocale: pack.texts?.defaultLocale) ?? text.variants.first else { return "" }
            var result = ""
            for segment in variant.template.segments {
                switch segment {
                case .literal(let literal): result += literal
                case .parameter(let parameter):
                    if parameters.indices.contains(parameter) { result += ValueText.display(parameters[parameter]) }
                case .placeholder(let placeholder):
                    if filled.indices.contains(placeholder) { result += filled[placeholder] }
                }
            }
            return result
        }
        return TipContent(title: render(entry.title), message: entry.message.map(render),
                          actions: zip(declared.actions, entry.actionTitles).map { TipContent.Action(id: $0.id, title: render($1)) })
    }
}

extension TextTemplate {
    /// Whether the text reads placeholder `index`.
    func reads(placeholder index: Int) -> Bool {
        segments.contains(.placeholder(index))
    }
}
