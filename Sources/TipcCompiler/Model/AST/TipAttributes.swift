import TipRuntime

/// Every attribute a tip can have, one row each: its manifest key, its `.tips` word, the
/// shape of its value (which field of `TipDecl` holds it, and so how both front ends read it
/// and both printers write it), its JSON Schema, its TipKit form and how `tipc inspect` shows
/// it in a pack. The YAML reader, the `.tips` reader, the schema, the printers (and so `fmt`
/// and `convert`), the formatter, the TipKit generator and importer and the inspector read
/// these rows; none of them spells an attribute itself. What an attribute means (the
/// checker's rules, the runtime's behaviour) is not here.
///
/// The rows are in printing order: the order both printers write a tip's attributes in.
public enum TipAttributes {
    /// The rows, in printing order.
    package static let all: [TipAttribute] = [
        TipAttribute(
            key: "key", tipsWord: nil, value: .key, expected: "a key",
            schema: .object([
                ("description", .string("Format 2: each value of this key is its own instance of the tip (its own status, displays and invalidation), named tip[KEY]; rules read it as `key`.")),
                ("type", .string("object")),
                ("additionalProperties", .bool(false)),
                ("required", .array([.string("name"), .string("type")])),
                ("properties", .object([
                    ("name", .object([("description", .string("The key's name, e.g. trailID.")), ("type", .string("string"))])),
                    ("type", .object([("description", .string("The key's type.")), ("enum", .array([.string("int"), .string("string")]))])),
                ])),
            ]),
            inspect: { tip, _ in tip.key.map { "key \($0.name): \($0.type)" } }),
        TipAttribute(
            key: "title", tipsWord: "title", value: .text(\.title), expected: "the title", isRequired: true,
            schema: ManifestSchema.text("The tip's title (required, not empty), passed to the app as written (Markdown included): one text, or one per locale.",
                                        nonEmpty: true)),
        TipAttribute(
            key: "message", tipsWord: "message", value: .text(\.message), expected: "the message",
            schema: ManifestSchema.text("The tip's message, passed to the app as written (Markdown included): one text, or one per locale.", nonEmpty: false)),
        TipAttribute(
            key: "image", tipsWord: "image", value: .image, expected: "an image name as a string (or asset \"name\")",
            schema: .object([
                ("description", .string("A symbol name, or {asset: NAME} for an image in the app's asset catalog.")),
                ("oneOf", .array([
                    .object([("type", .string("string"))]),
                    .object([
                        ("type", .string("object")),
                        ("additionalProperties", .bool(false)),
                        ("required", .array([.string("asset")])),
                        ("properties", .object([
                            ("asset", .object([
                                ("description", .string("The name of an image in the app's asset catalog.")),
                                ("type", .string("string")),
                            ])),
                        ])),
                    ]),
                ])),
            ])),
        TipAttribute(
            key: "actions", tipsWord: "action", value: .actions, expected: "an action id",
            schema: .object([
                ("description", .string("Buttons shown with the tip; ids are unique within the tip.")),
                ("type", .string("array")),
                ("items", ManifestSchema.reference("action")),
            ])),
        TipAttribute(
            key: "placeholders", tipsWord: "placeholders", value: .placeholders, expected: "placeholders",
            schema: .object([
                ("description", .string("Values the app passes when it shows the tip, by name → type; texts read them as {name}.")),
                ("type", .string("object")),
                ("propertyNames", ManifestSchema.reference("name")),
                ("additionalProperties", .object([
                    ("type", .string("string")),
                    ("enum", .array(ValueType.allCases.filter { $0 != .duration }.map { .string($0.manifestSpelling) })),
                ])),
            ])),
        TipAttribute(
            key: "maxDisplayCount", tipsWord: "maxDisplayCount", value: .count(\.maxDisplayCount), expected: "a number of displays",
            schema: .object([
                ("description", .string("After this many displays the tip is invalidated (displayCountExceeded).")),
                ("type", .string("integer")),
                ("minimum", .integer(1)),
            ]),
            tipKit: TipKitForm(option: "MaxDisplayCount"),
            inspect: { tip, _ in tip.maxDisplayCount.map { "maxDisplayCount \($0)" } }),
        TipAttribute(
            key: "maxDisplayDuration", tipsWord: "maxDisplayDuration", value: .duration(\.maxDisplayDurationSeconds), expected: "a duration",
            schema: .object([
                ("description", .string("After this long on screen in total the tip is invalidated (displayDurationExceeded); a positive duration such as 2m.")),
                ("allOf", .array([ManifestSchema.reference("positiveDuration")])),
            ]),
            tipKit: TipKitForm(option: "MaxDisplayDuration", minimumOS: .ios18),
            inspect: { tip, _ in
                tip.maxDisplayDurationMilliseconds.map { "maxDisplayDuration \(DurationText.string(milliseconds: $0))" }
            }),
        TipAttribute(
            key: "ignoresDisplayFrequency", tipsWord: "ignoresDisplayFrequency", value: .flag(\.ignoresDisplayFrequency), expected: "true or false",
            schema: .object([
                ("description", .string("The tip neither waits for the display frequency's gap nor starts one.")),
                ("type", .string("boolean")),
            ]),
            tipKit: TipKitForm(option: "IgnoresDisplayFrequency"),
            inspect: { tip, _ in tip.ignoresDisplayFrequency ? "ignoresDisplayFrequency" : nil }),
        TipAttribute(
            key: "goal", tipsWord: "goal", value: .eventWindow(\.goal), expected: "a goal (EVENT within DURATION, e.g. favorited within 7d)",
            schema: .object([
                ("description", .string("For tip analytics: the event whose donation within the window after a user first sees the tip counts as the tip having worked, written EVENT within DURATION (favorited within 7d).")),
                ("allOf", .array([ManifestSchema.reference("goal")])),
            ]),
            inspect: { tip, pack in
                tip.goal.map { goal in
                    let event = goal.event < pack.events.count ? pack.events[goal.event].name : "#\(goal.event)"
                    return "goal \(event) within \(DurationText.string(milliseconds: goal.windowMilliseconds))"
                }
            }),
        TipAttribute(
            key: "rules", tipsWord: "rule", value: .rules, expected: "a rule",
            schema: .object([
                ("description", .string("Rules in the rule language; the tip is available when all of them hold. Quote a rule that begins with !, `, [, {, *, &, @, % or a quote.")),
                ("type", .string("array")),
                ("items", .object([
                    ("description", .string("One rule: an expression of type Bool (YAML reads a bare true or false as a Boolean).")),
                    ("type", .array([.string("string"), .string("boolean")])),
                ])),
            ])),
    ]

    /// The manifest keys, in printing order (for `unknown-key`).
    static let keys: [String] = all.map(\.key)
    /// The `.tips` words that start an attribute line, in printing order.
    static let tipsWords: [String] = all.compactMap(\.tipsWord)

    /// The attributes of a compiled tip as `tipc inspect` lists them, one line each, in
    /// printing order (texts, actions and rules are listed by the inspector itself).
    public static func inspectLines(of tip: PackTip, in pack: RulePack) -> [String] {
        all.compactMap { $0.inspect(tip, pack) }
    }

    /// Each row's value shape by its manifest key: what the YAML reader needs for every key of
    /// every tip, found without hashing the key or copying a row.
    static let lookup = ManifestKeyLookup(all.map { ($0.key, $0.value) })

    /// The row whose `.tips` word is `word`.
    static func attribute(tipsWord word: String) -> TipAttribute? {
        all.first { $0.tipsWord == word }
    }

    /// The row whose TipKit option is `TipKit.Tips.<option>`.
    package static func attribute(tipKitOption option: String) -> TipAttribute? {
        all.first { $0.tipKit?.option == option }
    }
}

/// One attribute of a tip (a row of `TipAttributes.all`).
package struct TipAttribute: Sendable {
    /// The key in a YAML manifest.
    package let key: String
    /// The word that starts its line inside a `.tips` tip; nil when it is written elsewhere (a
    /// tip's key, in the `tip NAME[KEY: Type]` line).
    let tipsWord: String?
    /// The shape of the value and the field of `TipDecl` holding it.
    package let value: TipAttributeValue
    /// What the `.tips` reader says it expected when the value does not parse.
    let expected: String
    /// A tip without it is refused (the checker says so; the schema requires it).
    var isRequired = false
    /// The JSON Schema of its value in a YAML manifest, description first.
    let schema: ManifestSchema.Node
    /// The TipKit option it is (`Tips.MaxDisplayCount(3)`); nil when TipKit has none, or writes
    /// the attribute as a property of its own (`title`, `actions`, …).
    package var tipKit: TipKitForm?
    /// The attribute as `tipc inspect` shows it in a compiled pack; nil when the pack's tip
    /// does not have it (or the inspector shows it elsewhere, as texts and rules).
    var inspect: @Sendable (PackTip, RulePack) -> String? = { _, _ in nil }

    /// The attribute's value in `tip`, located: nil when the tip does not have it.
    package func range(in tip: TipDecl) -> SourceRange? {
        switch value {
        case .text(let path): return tip[keyPath: path]?.range
        case .count(let path), .duration(let path): return tip[keyPath: path]?.range
        case .flag(let path): return tip[keyPath: path]?.range
        case .eventWindow(let path): return tip[keyPath: path]?.range
        case .image: return tip.image?.range
        case .placeholders: return tip.placeholders.first?.name.range
        case .key: return tip.key?.range
        case .actions, .rules: return nil  // one line per element
        }
    }
}

/// The shape of a tip attribute's value, with the `TipDecl` field that holds it. The shape
/// decides the syntax: a new attribute of an existing shape is one row of `TipAttributes`.
package enum TipAttributeValue: Sendable {
    /// A text, one for every locale or one per locale (`title`, `message`).
    case text(WritableKeyPath<TipDecl, TextDecl?> & Sendable)
    /// A whole number, at least 0 (`maxDisplayCount 3`).
    case count(WritableKeyPath<TipDecl, Located<Int>?> & Sendable)
    /// A positive duration in seconds (`maxDisplayDuration 2m`).
    case duration(WritableKeyPath<TipDecl, Located<Int>?> & Sendable)
    /// `true` or `false`.
    case flag(WritableKeyPath<TipDecl, Located<Bool>?> & Sendable)
    /// `EVENT within DURATION` (`goal`).
    case eventWindow(WritableKeyPath<TipDecl, EventWindowDecl?> & Sendable)
    /// The shapes only one attribute has, each with its own syntax.
    case image, actions, placeholders, rules, key
}

/// How TipKit declares an attribute: as the option `Tips.<option>(value)`, available from
/// `minimumOS` on.
package struct TipKitForm: Sendable {
    package let option: String
    package var minimumOS: TipKitRelease = .ios17
}

/// A TipKit release, named by the iOS it came with: what generated Swift may require at least
/// (`tipc generate tipkit --minimum-os`), and what each TipKit option needs.
public enum TipKitRelease: String, Sendable, CaseIterable, Comparable {
    case ios17, ios18, ios26

    var rank: Int { self == .ios17 ? 17 : self == .ios18 ? 18 : 26 }
    public static func < (a: TipKitRelease, b: TipKitRelease) -> Bool { a.rank < b.rank }
}
