import TipRuntime

/// The attributes of every other kind of declaration, one table per kind and one row per
/// attribute, as `TipAttributes` is for tips: a file's keys (`FileAttributes`), a parameter's
/// (`ParameterAttributes`), an event's (`EventAttributes`) and its donation limit's
/// (`DonationLimitAttributes`), a group's (`GroupAttributes`), and an experiment's and its
/// arms' (`ExperimentAttributes`, `ArmAttributes`, in ExperimentAttributes.swift). The YAML reader, the `.tips`
/// reader, the schema, both printers (and so `fmt` and `convert`), the editor's completion, the
/// TipKit generator and importer and `tipc inspect` read these rows; none of them spells a key
/// itself. What an attribute means (the checker's rules, the runtime's behaviour) is not here.
///
/// Each table's rows are in printing order: the order the YAML printer writes the keys in, the
/// schema lists them and `unknown-key` suggests them. A `.tips` declaration is one line whose
/// pieces have a fixed order; where that differs from the YAML order the printer says so.
package protocol DeclarationTable {
    /// The shape of a value: how both front ends read it and both printers write it.
    associatedtype Shape: Sendable
    /// The declaration as a compiled pack holds it (what `tipc inspect` shows).
    associatedtype Packed
    /// The rows, in printing order.
    static var all: [DeclarationAttribute<Shape, Packed>] { get }
    /// Each row's shape by its manifest key, built from the rows (`static let lookup =
    /// ManifestKeyLookup(all)`): what the YAML reader needs for each key it reads, found
    /// without hashing the key or copying a row.
    static var lookup: ManifestKeyLookup<Shape> { get }
}

extension DeclarationTable {
    /// The manifest keys, in printing order (for `unknown-key` and the editor).
    static var keys: [String] { all.map(\.key) }
    /// The `.tips` words that introduce an attribute, in printing order.
    static var tipsWords: [String] { all.compactMap(\.tipsWord) }


    /// The row whose `.tips` word is `word`.
    static func attribute(tipsWord word: String) -> DeclarationAttribute<Shape, Packed>? {
        all.first { $0.tipsWord == word }
    }

    /// The row whose TipKit spelling is `name`.
    package static func attribute(tipKit name: String) -> DeclarationAttribute<Shape, Packed>? {
        all.first { $0.tipKit == name }
    }

    /// The attributes of a compiled declaration as `tipc inspect` lists them after its head,
    /// each as its `.tips` word and its value (` limit 100 within 90d`).
    static func inspectSuffix(of packed: Packed) -> String {
        all.map { row in
            row.inspect(packed).map { value in " " + [row.tipsWord ?? "", value].filter { !$0.isEmpty }.joined(separator: " ") } ?? ""
        }.joined()
    }
}

/// One attribute of a declaration (a row of one of the tables above): the columns of
/// `TipAttribute`.
package struct DeclarationAttribute<Shape: Sendable, Packed>: Sendable {
    /// The key in a YAML manifest.
    package let key: String
    /// The word (or sign) that introduces it in a `.tips` declaration; nil when its place in
    /// the line says what it is (a group's priority) or it is written in parts (an event's
    /// donation limit, one word per part).
    package let tipsWord: String?
    /// The shape of the value (and the field of the declaration holding it).
    package let value: Shape
    /// What the `.tips` reader says it expected when the value is missing or does not parse.
    let expected: String
    /// A declaration without it is refused (the schema requires it).
    var isRequired = false
    /// The JSON Schema of its value in a YAML manifest, description first.
    let schema: ManifestSchema.Node
    /// How TipKit spells it (an option, or an argument label); nil when TipKit has no such
    /// attribute.
    package var tipKit: String?
    /// Its value in a compiled pack as `tipc inspect` shows it after the `.tips` word; nil when
    /// the pack's declaration does not have it (or the inspector shows it in the head).
    var inspect: @Sendable (Packed) -> String? = { _ in nil }
}

extension ManifestKeyLookup {
    /// The lookup of a table's rows: each row's manifest key with its shape.
    init<Packed>(_ rows: [DeclarationAttribute<Value, Packed>]) {
        self.init(rows.map { ($0.key, $0.value) })
    }
}

// MARK: - A file

/// A file's keys: its header and its sections. In `.tips` each is the word that starts a
/// declaration (`param`, `event`, `tip`, `group`, `experiment`: one per declaration).
package enum FileAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<FileAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<FileAttributeValue, Never>] = [
        .init(key: "tipkit", tipsWord: "tipkit", value: .version, expected: "a format version", isRequired: true,
              schema: .object([
                  ("description", .string("Format version of the manifest; this tipc reads version \(Checker.formatVersion).")),
                  ("type", .string("integer")),
                  ("enum", .array([.integer(Checker.formatVersion)])),
              ])),
        .init(key: "displayFrequency", tipsWord: "displayFrequency", value: .displayFrequency, expected: "a display frequency",
              schema: .object([
                  ("description", .string("The minimum gap between two tips: immediate (no gap), hourly, daily, weekly, monthly (30 days), or a duration such as 5d or 12h. Defaults to immediate.")),
                  ("anyOf", .array([
                      .object([("type", .string("string")), ("enum", .array(DisplayFrequencySpec.names.map(ManifestSchema.Node.string)))]),
                      ManifestSchema.reference("positiveDuration"),
                  ])),
              ])),
        .init(key: "defaultLocale", tipsWord: "defaultLocale", value: .defaultLocale, expected: "the default locale",
              schema: .object([
                  ("description", .string("The locale whose texts are shown when none matches the one asked for; required once any text is localized.")),
                  ("allOf", .array([ManifestSchema.reference("locale")])),
              ])),
        .init(key: "parameters", tipsWord: "param", value: .parameters, expected: "a parameter",
              schema: ManifestSchema.namedMap("Typed values the app sets; rules read them as $name.", value: ManifestSchema.reference("parameter"))),
        .init(key: "events", tipsWord: "event", value: .events, expected: "an event",
              schema: ManifestSchema.namedMap("Things that happen in the app, donated with a timestamp (and an optional payload); rules count them.",
                                              value: ManifestSchema.reference("event"))),
        .init(key: "tips", tipsWord: "tip", value: .tips, expected: "a tip",
              schema: ManifestSchema.namedMap("The tips, each with its texts, options and rules.", value: ManifestSchema.reference("tip"))),
        .init(key: "groups", tipsWord: "group", value: .groups, expected: "a group",
              schema: ManifestSchema.namedMap("Groups of tips shown one at a time, in a given priority.", value: ManifestSchema.reference("group"))),
        .init(key: "experiments", tipsWord: "experiment", value: .experiments, expected: "an experiment",
              schema: ManifestSchema.namedMap("Experiments on tips' copy: each divides users among arms that show the tip differently, judged by a goal.",
                                              value: ManifestSchema.reference("experiment"))),
    ]
}

extension FileAttributes {
    /// The word that starts a `.tips` declaration of the kind `section` holds (`param`).
    static func tipsWord(of section: FileAttributeValue) -> String {
        all.first { $0.value == section }?.tipsWord ?? ""
    }
}

/// The shape of a file's key.
package enum FileAttributeValue: Sendable, Hashable {
    /// `tipkit: 1` (`ManifestFile.version`).
    case version
    /// `displayFrequency: daily` or a duration.
    case displayFrequency
    /// `defaultLocale: en`.
    case defaultLocale
    /// A section of declarations (in `.tips`, one declaration per word).
    case parameters, events, tips, groups, experiments

    /// Whether the value is a section of declarations, which the YAML reader decodes one
    /// declaration at a time as it reads them.
    var isSection: Bool {
        switch self {
        case .version, .displayFrequency, .defaultLocale: return false
        case .parameters, .events, .tips, .groups, .experiments: return true
        }
    }
}

// MARK: - A parameter

/// A parameter's attributes. In `.tips` they follow the name in this order:
/// `param NAME: Type = DEFAULT in ["a", "b"] transient`.
public enum ParameterAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<ParameterAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<ParameterAttributeValue, PackParameter>] = [
        .init(key: "type", tipsWord: ":", value: .type, expected: "':' after the parameter name", isRequired: true,
              schema: .object([
                  ("description", .string("The value type: \(ManifestSchema.typeNames.joined(separator: ", ")).")),
                  ("type", .string("string")),
                  ("enum", .array(ManifestSchema.typeNames.map(ManifestSchema.Node.string))),
              ])),
        .init(key: "default", tipsWord: "=", value: .defaultValue, expected: "'=' and a default value", isRequired: true,
              schema: .object([
                  ("description", .string("The value before the app sets one (and after each launch for transient parameters). A date is an ISO-8601 instant; a duration is written like 5m.")),
                  ("type", .array([.string("boolean"), .string("integer"), .string("number"), .string("string")])),
              ])),
        .init(key: "values", tipsWord: "in", value: .values, expected: "'[' to start the list of values",
              schema: .object([
                  ("description", .string("For string parameters: the only values the parameter may take. The default must be one of them.")),
                  ("type", .string("array")),
                  ("items", .object([("type", .string("string"))])),
                  ("minItems", .integer(1)),
                  ("uniqueItems", .bool(true)),
              ]),
              inspect: { parameter in parameter.values.map { "[" + $0.map { "\"\($0)\"" }.joined(separator: ", ") + "]" } }),
        .init(key: "transient", tipsWord: "transient", value: .flag(\.isTransient), expected: "true or false",
              schema: .object([
                  ("description", .string("Resets to the default in every new runtime (every launch) instead of being persisted.")),
                  ("type", .string("boolean")),
              ]),
              tipKit: "transient",
              inspect: { parameter in parameter.isTransient ? "" : nil }),
    ]

    /// What `tipc inspect` lists after a compiled parameter's type and default
    /// (` in ["a", "b"] transient`).
    public static func inspectText(of parameter: PackParameter) -> String {
        inspectSuffix(of: parameter)
    }
}

/// The shape of a parameter's attribute.
package enum ParameterAttributeValue: Sendable {
    /// The value type (`ParameterDecl.type`): `type: int`, `: Int`.
    case type
    /// The default, read as the type says (`ParameterDecl.defaultValue`): `default: 0`, `= 0`.
    case defaultValue
    /// The closed set of a string parameter's values (`ParameterDecl.values`): `in ["a", "b"]`.
    case values
    /// `true` or `false` in YAML; in `.tips` the word alone means true.
    case flag(WritableKeyPath<ParameterDecl, Bool> & Sendable)
}

// MARK: - An event

/// An event's attributes. In `.tips` the payload follows the name, then the donation limit:
/// `event NAME { FIELD: Type } limit 100 within 90d`.
public enum EventAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<EventAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<EventAttributeValue, PackEvent>] = [
        .init(key: "donationLimit", tipsWord: nil, value: .retention(\.donationLimit), expected: "a donation limit",
              schema: .object([
                  ("description", .string("Retention: the oldest donations beyond maximumCount, and those older than maximumAge, are trimmed.")),
                  ("type", .string("object")),
                  ("additionalProperties", .bool(false)),
                  ("properties", .object(DonationLimitAttributes.all.map { ($0.key, $0.schema) })),
              ]),
              tipKit: "donationLimit",
              inspect: { event in
                  let text = DonationLimitAttributes.inspectSuffix(of: event)
                  return text.isEmpty ? nil : String(text.dropFirst())
              }),
        .init(key: "value", tipsWord: nil, value: .payload, expected: "a field",
              schema: .object([
                  ("description", .string("The typed payload of each donation: field name → value type. Rules filter on it with where(…).")),
                  ("type", .string("object")),
                  ("propertyNames", ManifestSchema.reference("name")),
                  ("additionalProperties", ManifestSchema.reference("valueType")),
              ])),
    ]

    /// What `tipc inspect` lists after a compiled event's name and payload (` limit 100 within 90d`).
    public static func inspectText(of event: PackEvent) -> String {
        inspectSuffix(of: event)
    }
}

extension EventAttributes {
    /// How TipKit spells the donation limit (the label of `Tips.Event`'s argument).
    package static var retentionTipKit: String? {
        all.first { if case .retention = $0.value { return true } else { return false } }?.tipKit
    }
}

/// The shape of an event's attribute.
package enum EventAttributeValue: Sendable {
    /// Retention, with the field holding it: a mapping of `DonationLimitAttributes`; in
    /// `.tips`, one word and value per row of that table.
    case retention(WritableKeyPath<EventDecl, DonationLimitDecl?> & Sendable)
    /// The typed payload (`EventDecl.fields`): `value: { FIELD: type }`, `{ FIELD: Type }`
    /// after the name.
    case payload
}

/// An event's donation limit: in YAML a mapping, in `.tips` a word and a value each.
package enum DonationLimitAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<DonationLimitAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<DonationLimitAttributeValue, PackEvent>] = [
        .init(key: "maximumCount", tipsWord: "limit", value: .count(\.maximumCount), expected: "a maximum number of donations",
              schema: .object([
                  ("description", .string("The most donations kept (at least 1).")),
                  ("type", .string("integer")),
                  ("minimum", .integer(1)),
              ]),
              tipKit: "maximumCount",
              inspect: { event in event.maximumCount.map(String.init) }),
        .init(key: "maximumAge", tipsWord: "within", value: .duration(\.maximumAgeSeconds), expected: "a maximum age",
              schema: .object([
                  ("description", .string("Donations older than this are trimmed (a positive duration such as 90d).")),
                  ("allOf", .array([ManifestSchema.reference("positiveDuration")])),
              ]),
              tipKit: "maximumAge",
              inspect: { event in event.maximumAgeMilliseconds.map { DurationText.string(milliseconds: $0) } }),
    ]
}

/// The shape of a donation limit's attribute, with the `DonationLimitDecl` field holding it.
package enum DonationLimitAttributeValue: Sendable {
    /// A whole number (`maximumCount: 100`, `limit 100`).
    case count(WritableKeyPath<DonationLimitDecl, Located<Int>?> & Sendable)
    /// A duration in seconds (`maximumAge: 90d`, `within 90d`).
    case duration(WritableKeyPath<DonationLimitDecl, Located<Int>?> & Sendable)
}

// MARK: - A group

/// A group's attributes. In `.tips` both have their place: `group NAME PRIORITY { TIP, … }`.
package enum GroupAttributes: DeclarationTable {
    package static let lookup: ManifestKeyLookup<GroupAttributeValue> = ManifestKeyLookup(all)
    package static let all: [DeclarationAttribute<GroupAttributeValue, Never>] = [
        .init(key: "priority", tipsWord: nil, value: .priority, expected: "a group priority (ordered or firstAvailable)",
              schema: .object([
                  ("description", .string("ordered: a tip is offered only when every tip before it is invalidated; firstAvailable (the default): the first available tip is offered.")),
                  ("type", .string("string")),
                  ("enum", .array(PackGroupPriority.allCases.map { .string($0.spelling) })),
              ])),
        .init(key: "tips", tipsWord: nil, value: .tips, expected: "'{' and the group's tips", isRequired: true,
              schema: .object([
                  ("description", .string("The tips of the group, in priority order, each listed once.")),
                  ("type", .string("array")),
                  ("items", ManifestSchema.reference("name")),
                  ("minItems", .integer(1)),
                  ("uniqueItems", .bool(true)),
              ])),
    ]
}

/// The shape of a group's attribute.
package enum GroupAttributeValue: Sendable {
    /// `ordered` or `firstAvailable` (`GroupDecl.priority`).
    case priority
    /// The member tips, in priority order (`GroupDecl.tips`).
    case tips
}
