import TipRuntime
import TipcJSON

/// A tip's texts in one locale for `tipc explain --locale`: parameters at their current values,
/// placeholders (which only the app knows) shown as `{name}`.
struct ExplainTexts {
    let locale: String
    let content: TipContent

    /// `arm`: the user's arm when the tip is in an experiment (the explanation's), whose texts
    /// are shown instead of the tip's where it overrides them.
    init(center: TipCenter, tip: String, arm: String?, locale: String, store: String?) throws(CommandFailure) {
        let pack = center.pack
        var parameters: [RuntimeValue] = []
        do throws(TipError) {
            for parameter in pack.parameters { parameters.append(try center.parameterValue(parameter.name)) }
            guard let index = pack.tips.firstIndex(where: { $0.name == tip }) else { throw TipError.unknownTip(tip) }
            let shown = arm.flatMap { name in pack.experiment(onTip: index)?.arms.first { $0.name == name } }
            content = try TipCenter.content(ofTipAt: index, in: pack, locale: locale, parameters: parameters, values: [:],
                                            keepingMissingPlaceholders: true, arm: shown)
        } catch {
            throw error.failure(store: store)
        }
        self.locale = locale
    }

    func text() -> String {
        var out = "  texts (\(locale)):\n"
        out += "    title: \(content.title)\n"
        if let message = content.message { out += "    message: \(message)\n" }
        for action in content.actions { out += "    action \(action.id): \(action.title)\n" }
        return out
    }

    func json() -> JSON {
        .object([
            ("locale", .string(locale)),
            ("title", .string(content.title)),
            ("message", content.message.map { .string($0) } ?? .null),
            ("actions", .array(content.actions.map { .object([("id", .string($0.id)), ("title", .string($0.title))]) })),
        ])
    }
}
