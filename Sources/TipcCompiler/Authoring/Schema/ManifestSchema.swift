import TipRuntime

/// The JSON Schema (draft-07) of the YAML manifest, for editors
/// (`# yaml-language-server: $schema=…`) and for validating manifests in CI. It mirrors what the
/// manifest decoder and the checker accept: the same keys, the same required keys, the same
/// names, types and ranges. What JSON Schema cannot express (a default inside `values`, unique
/// action ids, references between tips and groups) is left to `tipc check`.
public enum ManifestSchema {
    /// The schema as pretty-printed JSON (two-space indent, keys in a fixed order, no trailing
    /// newline): the same text on every run.
    public static func jsonSchema() -> String {
        document.serialized(pretty: true)
    }

    /// Names of parameters, events, fields, tips, groups and actions.
    static let namePattern = "^[A-Za-z_][A-Za-z0-9_.-]*$"
    /// A duration literal: digits (underscores allowed) and a unit, repeated (`90d`, `1d12h`,
    /// `2000ms`; the checker wants whole seconds).
    static let durationPattern = "^(_*[0-9][0-9_]*(ms|[smhdw]))+$"
    /// A duration whose every digit is zero.
    static let zeroDurationPattern = "^[0_smhdw]+$"
    /// An ISO-8601 instant as the checker reads it: a date, optionally with a time and offset.
    static let instantPattern = "^[0-9]{4}-[0-9]{2}-[0-9]{2}([Tt ][0-9]{2}:[0-9]{2}:[0-9]{2}(\\.[0-9]+)?([Zz]|[+-][0-9]{2}:?[0-9]{2}))?$"

    static let typeNames = ValueType.allCases.map(\.manifestSpelling)
    /// A BCP 47 tag's shape (the checker verifies the subtags' order and lengths).
    static let localePattern = "^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$"
    /// What a text may contain, for the descriptions.
    static let templateHelp = " {$p} is parameter p's current value, {name} a placeholder the app passes, {{ and }} are braces."

    /// A tip's text: a string (one text for every locale; not blank when `nonEmpty`), or a
    /// mapping of locales to texts.
    static func text(_ description: String, nonEmpty: Bool) -> Node {
        .object([
            ("description", .string(description + templateHelp)),
            ("type", .array([.string("string"), .string("object")])),
            ("if", .object([("type", .string("string"))])),
            ("then", .object(nonEmpty ? [("pattern", .string("\\S"))] : [])),
            ("else", reference("localizedText")),
        ])
    }

    static var document: Node {
        .object([
            ("$schema", .string("http://json-schema.org/draft-07/schema#")),
            ("title", .string("tipc manifest")),
            ("description", .string("Parameters, events, tips, groups and the display frequency of an app's contextual tips.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", .array([.string("tipkit")])),
            ("properties", .object([
                ("tipkit", .object([
                    ("description", .string("Format version of the manifest; this tipc reads version \(Checker.formatVersion).")),
                    ("type", .string("integer")),
                    ("enum", .array([.integer(Checker.formatVersion)])),
                ])),
                ("displayFrequency", .object([
                    ("description", .string("The minimum gap between two tips: immediate (no gap), hourly, daily, weekly, monthly (30 days), or a duration such as 5d or 12h. Defaults to immediate.")),
                    ("anyOf", .array([
                        .object([("type", .string("string")), ("enum", .array(["immediate", "hourly", "daily", "weekly", "monthly"].map(Node.string)))]),
                        reference("positiveDuration"),
                    ])),
                ])),
                ("defaultLocale", .object([
                    ("description", .string("The locale whose texts are shown when none matches the one asked for; required once any text is localized.")),
                    ("allOf", .array([reference("locale")])),
                ])),
                ("parameters", namedMap("Typed values the app sets; rules read them as $name.", value: reference("parameter"))),
                ("events", namedMap("Things that happen in the app, donated with a timestamp (and an optional payload); rules count them.", value: reference("event"))),
                ("tips", namedMap("The tips, each with its texts, options and rules.", value: reference("tip"))),
                ("groups", namedMap("Groups of tips shown one at a time, in a given priority.", value: reference("group"))),
            ])),
            ("definitions", .object([
                ("name", .object([
                    ("description", .string("A name: a letter or underscore, then letters, digits, '_', '.' or '-'.")),
                    ("type", .string("string")),
                    ("pattern", .string(namePattern)),
                ])),
                ("positiveDuration", .object([
                    ("description", .string("A positive duration: a number and a unit (ms, s, m, h, d, w), possibly repeated, e.g. 45s, 12h, 3d, 2w, 1d12h; whole seconds. No months or years: their length varies.")),
                    ("type", .string("string")),
                    ("pattern", .string(durationPattern)),
                    ("not", .object([("pattern", .string(zeroDurationPattern))])),
                ])),
                ("locale", .object([
                    ("description", .string("A BCP 47 language tag: de, de-CH, zh-Hans, es-419.")),
                    ("type", .string("string")),
                    ("pattern", .string(localePattern)),
                ])),
                ("localizedText", .object([
                    ("description", .string("A text per locale (locale → text), the default locale among them.")),
                    ("type", .string("object")),
                    ("minProperties", .integer(1)),
                    ("propertyNames", reference("locale")),
                    ("additionalProperties", .object([("type", .string("string")), ("pattern", .string("\\S"))])),
                ])),
                ("valueType", .object([
                    ("description", .string("A value type.")),
                    ("type", .string("string")),
                    ("enum", .array(typeNames.map(Node.string))),
                ])),
                ("parameter", parameter),
                ("event", event),
                ("tip", tip),
                ("action", action),
                ("group", group),
            ])),
        ])
    }

    // MARK: - Declarations

    static var parameter: Node {
        let defaults: [(ValueType, Node)] = [
            (.bool, .object([("type", .string("boolean"))])),
            (.int, .object([("type", .string("integer"))])),
            (.double, .object([("type", .string("number"))])),
            (.string, .object([("type", .string("string"))])),
            (.date, .object([("type", .string("string")), ("pattern", .string(instantPattern))])),
            (.duration, .object([("type", .string("string")), ("pattern", .string(durationPattern))])),
        ]
        var conditions: [Node] = defaults.map { type, schema in
            .object([
                ("if", typeIs(type)),
                ("then", .object([("properties", .object([("default", describedDefault(type, schema))]))])),
            ])
        }
        conditions.append(.object([
            ("if", .object([("not", typeIs(.string))])),
            ("then", .object([("not", .object([("required", .array([.string("values")]))]))])),
        ]))
        return .object([
            ("description", .string("A parameter: its type and default, and for strings optionally the closed set of values it may take.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", .array([.string("type"), .string("default")])),
            ("properties", .object([
                ("type", .object([
                    ("description", .string("The value type: \(typeNames.joined(separator: ", ")).")),
                    ("type", .string("string")),
                    ("enum", .array(typeNames.map(Node.string))),
                ])),
                ("default", .object([
                    ("description", .string("The value before the app sets one (and after each launch for transient parameters). A date is an ISO-8601 instant; a duration is written like 5m.")),
                    ("type", .array([.string("boolean"), .string("integer"), .string("number"), .string("string")])),
                ])),
                ("values", .object([
                    ("description", .string("For string parameters: the only values the parameter may take. The default must be one of them.")),
                    ("type", .string("array")),
                    ("items", .object([("type", .string("string"))])),
                    ("minItems", .integer(1)),
                    ("uniqueItems", .bool(true)),
                ])),
                ("transient", .object([
                    ("description", .string("Resets to the default in every new runtime (every launch) instead of being persisted.")),
                    ("type", .string("boolean")),
                ])),
            ])),
            ("allOf", .array(conditions)),
        ])
    }

    static var event: Node {
        .object([
            ("description", .string("An event: {} (or nothing) for plain donations, or a retention limit and a typed payload.")),
            ("type", .array([.string("object"), .string("null")])),
            ("additionalProperties", .bool(false)),
            ("properties", .object([
                ("donationLimit", .object([
                    ("description", .string("Retention: the oldest donations beyond maximumCount, and those older than maximumAge, are trimmed.")),
                    ("type", .string("object")),
                    ("additionalProperties", .bool(false)),
                    ("properties", .object([
                        ("maximumCount", .object([
                            ("description", .string("The most donations kept (at least 1).")),
                            ("type", .string("integer")),
                            ("minimum", .integer(1)),
                        ])),
                        ("maximumAge", .object([
                            ("description", .string("Donations older than this are trimmed (a positive duration such as 90d).")),
                            ("allOf", .array([reference("positiveDuration")])),
                        ])),
                    ])),
                ])),
                ("value", .object([
                    ("description", .string("The typed payload of each donation: field name → value type. Rules filter on it with where(…).")),
                    ("type", .string("object")),
                    ("propertyNames", reference("name")),
                    ("additionalProperties", reference("valueType")),
                ])),
            ])),
        ])
    }

    /// A tip: one property per row of `TipAttributes`.
    static var tip: Node {
        .object([
            ("description", .string("A tip: its texts, image, actions, display options and the rules that make it available.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", .array(TipAttributes.all.filter(\.isRequired).map { .string($0.key) })),
            ("properties", .object(TipAttributes.all.map { ($0.key, $0.schema) })),
        ])
    }

    static var action: Node {
        .object([
            ("description", .string("A button of a tip.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", .array([.string("id"), .string("title")])),
            ("properties", .object([
                ("id", .object([
                    ("description", .string("The id the app receives when the button is tapped, unique within the tip.")),
                    ("allOf", .array([reference("name")])),
                ])),
                ("title", text("The button's text: one text, or one per locale.", nonEmpty: false)),
            ])),
        ])
    }

    static var group: Node {
        .object([
            ("description", .string("Tips shown one at a time; a tip belongs to at most one group.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", .array([.string("tips")])),
            ("properties", .object([
                ("priority", .object([
                    ("description", .string("ordered: a tip is offered only when every tip before it is invalidated; firstAvailable (the default): the first available tip is offered.")),
                    ("type", .string("string")),
                    ("enum", .array(PackGroupPriority.allCases.map { .string($0.spelling) })),
                ])),
                ("tips", .object([
                    ("description", .string("The tips of the group, in priority order, each listed once.")),
                    ("type", .string("array")),
                    ("items", reference("name")),
                    ("minItems", .integer(1)),
                    ("uniqueItems", .bool(true)),
                ])),
            ])),
        ])
    }

    // MARK: - Helpers

    /// The schema of the default of a parameter of `type`, with a description.
    static func describedDefault(_ type: ValueType, _ schema: Node) -> Node {
        let description: String
        switch type {
        case .bool: description = "The default of a bool parameter: true or false."
        case .int: description = "The default of an int parameter: a whole number."
        case .double: description = "The default of a double parameter: a number."
        case .string: description = "The default of a string parameter: a string (one of its values, if it has values)."
        case .date: description = "The default of a date parameter: an ISO-8601 instant such as \"2026-01-01T00:00:00Z\"."
        case .duration: description = "The default of a duration parameter: a duration such as 5m."
        }
        guard case .object(let members) = schema else { return schema }
        return .object([("description", .string(description))] + members)
    }

    static func reference(_ definition: String) -> Node {
        .object([("$ref", .string("#/definitions/\(definition)"))])
    }

    /// A mapping from declared names to `value` schemas.
    static func namedMap(_ description: String, value: Node) -> Node {
        .object([
            ("description", .string(description)),
            ("type", .string("object")),
            ("propertyNames", reference("name")),
            ("additionalProperties", value),
        ])
    }

    /// `{"properties": {"type": {"const": type}}, "required": ["type"]}`.
    static func typeIs(_ type: ValueType) -> Node {
        .object([
            ("properties", .object([("type", .object([("const", .string(type.manifestSpelling))]))])),
            ("required", .array([.string("type")])),
        ])
    }
}
