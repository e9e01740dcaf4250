/// A named option of a command: a flag (`--strict`) or an option that takes a value
/// (`--format json`, `--format=json`).
public struct OptionDefinition: Sendable, Hashable {
    public enum Kind: Sendable, Hashable {
        case flag
        /// `valueName` is shown in usage (`--format <format>`); `allowedValues`, when set, is
        /// the closed set of accepted values; `defaultValue` is used when the option is absent.
        case value(valueName: String, allowedValues: [String]?, defaultValue: String?)
    }

    /// The long name, without dashes (`format` for `--format`).
    public var name: String
    /// An optional one-letter alias (`o` for `-o`).
    public var shortName: Character?
    public var kind: Kind
    public var help: String
    /// The command cannot run without it: usage shows it without brackets, help says
    /// "required" (the command reports its absence).
    public var isRequired = false

    public init(name: String, shortName: Character? = nil, kind: Kind, help: String) {
        self.name = name
        self.shortName = shortName
        self.kind = kind
        self.help = help
    }

    /// A Boolean flag, off unless given.
    public static func flag(_ name: String, short: Character? = nil, help: String) -> OptionDefinition {
        OptionDefinition(name: name, shortName: short, kind: .flag, help: help)
    }

    /// An option taking a free-form value.
    public static func value(_ name: String, short: Character? = nil, valueName: String? = nil,
                             default defaultValue: String? = nil, help: String) -> OptionDefinition {
        OptionDefinition(name: name, shortName: short,
                         kind: .value(valueName: valueName ?? name, allowedValues: nil, defaultValue: defaultValue),
                         help: help)
    }

    /// An option whose value must be one of the cases of `type`.
    public static func choice<Choice: CaseIterable & RawRepresentable>(
        _ name: String, short: Character? = nil, of type: Choice.Type, default defaultValue: Choice? = nil, help: String
    ) -> OptionDefinition where Choice.RawValue == String {
        OptionDefinition(name: name, shortName: short,
                         kind: .value(valueName: name, allowedValues: type.allCases.map(\.rawValue),
                                      defaultValue: defaultValue?.rawValue),
                         help: help)
    }

    /// The same option, marked as required.
    public var required: OptionDefinition {
        var copy = self
        copy.isRequired = true
        return copy
    }

    /// `--name`.
    public var longSpelling: String { "--" + name }

    /// `--name <value>` or `--name`, as usage and error messages show it.
    public var usageSpelling: String {
        switch kind {
        case .flag: return longSpelling
        case .value(let valueName, _, _): return "\(longSpelling) <\(valueName)>"
        }
    }

    public var takesValue: Bool {
        if case .flag = kind { return false }
        return true
    }
}

/// A positional argument of a command (`<paths> ...`).
public struct PositionalDefinition: Sendable, Hashable {
    public var name: String
    public var help: String
    /// Takes every remaining positional argument.
    public var isRepeated: Bool
    public var isOptional: Bool

    public init(_ name: String, repeated: Bool = false, optional: Bool = false, help: String) {
        self.name = name
        self.help = help
        self.isRepeated = repeated
        self.isOptional = optional
    }

    /// `<paths> ...`, as usage and error messages show it.
    public var usageSpelling: String { "<\(name)>" + (isRepeated ? " ..." : "") }
}

/// Everything the parser and the help need to know about one command.
public struct CommandSignature: Sendable, Hashable {
    public var name: String
    /// One line, shown after `OVERVIEW:` and in the root's subcommand list.
    public var abstract: String
    /// Optional paragraphs shown under the overview.
    public var discussion: String?
    public var positionals: [PositionalDefinition]
    public var options: [OptionDefinition]

    public init(name: String, abstract: String, discussion: String? = nil,
                positionals: [PositionalDefinition] = [], options: [OptionDefinition] = []) {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
        self.positionals = positionals
        self.options = options
    }
}
