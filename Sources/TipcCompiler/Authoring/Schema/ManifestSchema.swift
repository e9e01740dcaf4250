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
            ("description", .string("Parameters, events, tips, groups, experiments and the display frequency of an app's contextual tips.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", required(FileAttributes.self)),
            ("properties", properties(FileAttributes.self)),
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
                ("goal", .object([
                    ("description", .string("EVENT within DURATION: a donation of the event within the window counts (favorited within 7d).")),
                    ("type", .string("string")),
                    ("pattern", .string("^[A-Za-z_][A-Za-z0-9_.-]* within (_*[0-9][0-9_]*[smhdw])+$")),
                    ("not", .object([("pattern", .string(" within [0_smhdw]+$"))])),
                ])),
                ("experiment", experiment),
                ("arm", arm),
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
            ("required", required(ParameterAttributes.self)),
            ("properties", properties(ParameterAttributes.self)),
            ("allOf", .array(conditions)),
        ])
    }

    static var event: Node {
        .object([
            ("description", .string("An event: {} (or nothing) for plain donations, or a retention limit and a typed payload.")),
            ("type", .array([.string("object"), .string("null")])),
            ("additionalProperties", .bool(false)),
            ("properties", properties(EventAttributes.self)),
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
            ("required", required(GroupAttributes.self)),
            ("properties", properties(GroupAttributes.self)),
        ])
    }

    /// An experiment: one property per row of `ExperimentAttributes`.
    static var experiment: Node {
        .object([
            ("description", .string("An experiment on a tip: users are divided among its arms by weight, each arm showing the tip with some of its texts replaced (or not at all), and judged by the goal.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", required(ExperimentAttributes.self)),
            ("properties", properties(ExperimentAttributes.self)),
        ])
    }

    /// An arm of an experiment: one property per row of `ArmAttributes`.
    static var arm: Node {
        .object([
            ("description", .string("An arm: its weight, whether it is hidden, and the texts, image and actions it shows instead of the tip's.")),
            ("type", .string("object")),
            ("additionalProperties", .bool(false)),
            ("required", required(ArmAttributes.self)),
            ("properties", properties(ArmAttributes.self)),
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

    /// The properties of a declaration: one per row of its table.
    static func properties<Table: DeclarationTable>(_ table: Table.Type) -> Node {
        .object(Table.all.map { ($0.key, $0.schema) })
    }

    /// The keys a declaration requires: its table's required rows.
    static func required<Table: DeclarationTable>(_ table: Table.Type) -> Node {
        .array(Table.all.filter(\.isRequired).map { .string($0.key) })
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
