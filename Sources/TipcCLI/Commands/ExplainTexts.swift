import TipRuntime
import TipcJSON

/// A tip's texts in one locale for `tipc explain --locale`: parameters at their current values,
/// placeholders (which only the app knows) shown as `{name}`.
struct ExplainTexts {
    let locale: String
    let content: TipContent

    init(center: TipCenter, tip: String, locale: String, store: String?) throws(CommandFailure) {
        let pack = center.pack
        var parameters: [RuntimeValue] = []
        do {
            for parameter in pack.parameters { parameters.append(try center.parameter(parameter.name)) }
            content = try TipCenter.content(of: tip, in: pack, locale: locale, parameters: parameters, values: [:],
                                            keepingMissingPlaceholders: true)
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
