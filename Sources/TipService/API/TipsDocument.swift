import TipRuntime
import TipcJSON

/// The answer of `GET /v1/users/{user}/tips`: each tip's (tip instance's) decision and what
/// to show, in the asked locale.
enum TipsDocument {
    /// One tip's (or one instance's) decision for one user now, with its texts.
    struct Entry {
        /// The tip's index in the pack's tips table.
        var index: Int
        var tip: PackTip
        var key: TipKey?
        var status: TipStatus
        var shouldDisplay: Bool
        /// Why the tip is not displayed now (`TipExplanation.reasonNotDisplayed`); nil when it is.
        var reason: String?
        /// The arm's texts when the tip is in an experiment.
        var content: TipContent
        /// The tip's experiment and the user's arm in it.
        var experiment: (name: String, arm: String)?
    }

    static func render(_ entries: [Entry], pack: RulePack) -> JSON {
        .object([("tips", .array(entries.map { render($0, pack: pack) }))])
    }

    static func render(_ entry: Entry, pack: RulePack) -> JSON {
        var members: [(String, JSON)] = [("id", .string(entry.tip.name))]
        switch entry.key {
        case .int(let number)?: members.append(("key", .integer(number)))
        case .string(let text)?: members.append(("key", .string(text)))
        case nil: break
        }
        let image: JSON
        switch entry.content.image {
        case .symbol(let name)?: image = .object([("symbol", .string(name))])
        case .asset(let name)?: image = .object([("asset", .string(name))])
        case nil: image = .null
        }
        if let experiment = entry.experiment {
            members += [("experiment", .string(experiment.name)), ("arm", .string(experiment.arm))]
        }
        members += [
            ("status", .string(entry.status.description)),
            ("shouldDisplay", .bool(entry.shouldDisplay)),
            ("title", .string(entry.content.title)),
            ("message", entry.content.message.map { .string($0) } ?? .null),
            ("image", image),
            ("actions", .array(entry.content.actions.map { .object([("id", .string($0.id)), ("title", .string($0.title))]) })),
        ]
        // The placeholders the app may pass (`?value.NAME=…`), so a client knows which `{name}`
        // a text still holds; written only for tips that declare some.
        if let placeholders = pack.texts?.entry(forTip: entry.index)?.placeholders, !placeholders.isEmpty {
            members.append(("placeholders", .array(placeholders.map { .string($0.name) })))
        }
        // Why it is not displayed, as `tipc explain` says it.
        if let reason = entry.reason { members.append(("reason", .string(reason))) }
        return .object(members)
    }
}

/// The texts of tips for one request: the asked locale (`?locale=`, else the pack's default),
/// the values of placeholders the app passed (`?value.NAME=TEXT`) and the user's parameter
/// values. A placeholder without a value stays in the text as `{name}`.
struct TipTexts {
    static let valuePrefix = "value."

    let pack: RulePack
    let locale: String
    /// Placeholder values as the query wrote them, read as each tip declares the placeholder.
    let values: [String: String]
    /// The user's parameter values by parameter index (read only when the pack has texts
    /// that can read them).
    let parameters: [RuntimeValue]

    init(pack: RulePack, query: [String: String], center: TipCenter) throws {
        self.pack = pack
        locale = query["locale"] ?? pack.texts?.defaultLocale ?? ""
        var values: [String: String] = [:]
        for (name, value) in query where name.hasPrefix(Self.valuePrefix) {
            values[String(name.dropFirst(Self.valuePrefix.count))] = value
        }
        self.values = values
        parameters = pack.texts == nil ? [] : try pack.parameters.map { try center.parameterValue($0.name) }
    }

    /// The tip's title, message, image and action titles (`TipCenter.content(of:in:locale:…)`),
    /// as `arm` shows them when the tip is in an experiment.
    func content(of tip: PackTip, index: Int, arm: PackExperimentArm? = nil) throws -> TipContent {
        var typed: [String: RuntimeValue] = [:]
        if !values.isEmpty, let entry = pack.texts?.entry(forTip: index) {
            for placeholder in entry.placeholders {
                guard let text = values[placeholder.name] else { continue }
                guard let value = Self.value(text, as: placeholder.type) else {
                    throw ServiceError.badRequest("wrong-placeholder-type", "placeholder '\(placeholder.name)' of tip '\(tip.name)' is "
                                                  + "\(ValueJSON.expected(placeholder.type)), not '\(text.prefix(100))'")
                }
                typed[placeholder.name] = value
            }
        }
        return try TipCenter.content(ofTipAt: index, in: pack, locale: locale, parameters: parameters, values: typed,
                                     keepingMissingPlaceholders: true, arm: arm)
    }

    /// A query value read as `type`: a String verbatim, a Date as ISO-8601, a Bool, Int or
    /// Double as JSON writes it.
    static func value(_ text: String, as type: ValueType) -> RuntimeValue? {
        switch type {
        case .string, .date, .duration: return ValueJSON.value(.string(text), as: type)
        case .bool, .int, .double: return (try? JSON.parse(Array(text.utf8))).flatMap { ValueJSON.value($0, as: type) }
        }
    }
}
