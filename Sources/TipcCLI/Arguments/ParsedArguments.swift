/// The arguments of one command after parsing and validation against its signature.
public struct ParsedArguments: Sendable, Hashable {
    var values: [String: String] = [:]
    /// Every value of each option, in the order given (`values` keeps the last).
    var everyValue: [String: [String]] = [:]
    var flags: Set<String> = []
    var positionals: [String: [String]] = [:]
    var defaults: [String: String] = [:]

    /// The option's value as given, else its default; nil when neither exists.
    public func value(_ option: OptionDefinition) -> String? {
        values[option.name] ?? defaults[option.name]
    }

    /// Every value given to a repeatable option (`--cors-origin A --cors-origin B`), in order.
    public func values(of option: OptionDefinition) -> [String] {
        everyValue[option.name] ?? []
    }

    /// Whether the option or flag appeared on the command line.
    public func wasGiven(_ option: OptionDefinition) -> Bool {
        values[option.name] != nil || flags.contains(option.name)
    }

    /// Whether a flag is on.
    public func isSet(_ flag: OptionDefinition) -> Bool {
        flags.contains(flag.name)
    }

    /// The value of a choice option as its enum case (the parser has already checked it).
    public func choice<Choice: RawRepresentable>(_ option: OptionDefinition, as type: Choice.Type) -> Choice?
    where Choice.RawValue == String {
        value(option).flatMap(Choice.init(rawValue:))
    }

    /// The values of a positional argument, in order.
    public func values(of positional: PositionalDefinition) -> [String] {
        positionals[positional.name] ?? []
    }
}
