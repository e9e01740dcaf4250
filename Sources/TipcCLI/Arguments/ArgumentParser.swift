import TipcCompiler

/// Parses a command's arguments in the conventions of swift-argument-parser: `--name value`,
/// `--name=value`, `-n value`, flags, positional arguments (the last may repeat), and `--`
/// after which everything is positional. `--help`/`-h` is handled before parsing.
public enum ArgumentParser {
    /// The spellings that ask for help, recognised on every command.
    public static let helpSpellings: Set<String> = ["--help", "-h"]

    /// Whether `arguments` ask for help (before any `--`).
    public static func asksForHelp(_ arguments: [String]) -> Bool {
        for argument in arguments {
            if argument == "--" { return false }
            if helpSpellings.contains(argument) { return true }
        }
        return false
    }

    public static func parse(_ arguments: [String], for signature: CommandSignature) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        for option in signature.options {
            if case .value(_, _, let defaultValue?) = option.kind { parsed.defaults[option.name] = defaultValue }
        }
        var positionals: [String] = []
        var index = 0
        var onlyPositionals = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if onlyPositionals || !looksLikeOption(argument) {
                positionals.append(argument)
                continue
            }
            if argument == "--" {
                onlyPositionals = true
                continue
            }
            let (spelling, attached) = split(argument)
            guard let option = find(spelling, in: signature) else {
                throw unknownOption(spelling, in: signature)
            }
            switch option.kind {
            case .flag:
                if attached != nil {
                    throw UsageError("Flag '\(option.longSpelling)' does not take a value")
                }
                parsed.flags.insert(option.name)
            case .value(_, let allowedValues, _):
                let value: String
                if let attached {
                    value = attached
                } else if index < arguments.count, !looksLikeOption(arguments[index]) {
                    value = arguments[index]
                    index += 1
                } else {
                    throw UsageError("Missing value for '\(option.usageSpelling)'", help: helpLine(for: option))
                }
                if let allowedValues, !allowedValues.contains(value) {
                    throw invalidValue(value, for: option, allowed: allowedValues)
                }
                parsed.values[option.name] = value
                parsed.everyValue[option.name, default: []].append(value)
            }
        }
        try assign(positionals, to: signature, in: &parsed)
        return parsed
    }

    /// An argument that names an option (`-x`, `--xyz`, `--`); a lone `-` is a value, and so is
    /// a negative number (`-5`, `-1.5`, `-.5`, `-3d`): no option is spelled with a digit.
    static func looksLikeOption(_ argument: String) -> Bool {
        let bytes = argument.utf8
        guard bytes.first == 0x2D /* - */, bytes.count > 1 else { return false }
        func isDigit(_ byte: UInt8?) -> Bool { byte.map { $0 >= 0x30 && $0 <= 0x39 } ?? false }
        let second = bytes.dropFirst().first
        if isDigit(second) { return false }
        if second == 0x2E /* . */, isDigit(bytes.dropFirst(2).first) { return false }
        return true
    }

    /// `--name=value` → (`--name`, `value`); anything else → (argument, nil).
    static func split(_ argument: String) -> (String, String?) {
        guard let equals = argument.firstIndex(of: "=") else { return (argument, nil) }
        return (String(argument[..<equals]), String(argument[argument.index(after: equals)...]))
    }

    static func find(_ spelling: String, in signature: CommandSignature) -> OptionDefinition? {
        signature.options.first { option in
            spelling == option.longSpelling || option.shortName.map { spelling == "-\($0)" } == true
        }
    }

    /// Every spelling a command accepts, for did-you-mean.
    static func spellings(of signature: CommandSignature) -> [String] {
        signature.options.map(\.longSpelling) + ["--help"]
    }

    static func unknownOption(_ spelling: String, in signature: CommandSignature) -> UsageError {
        UsageError("Unknown option '\(spelling)'", help: Suggestions.didYouMean(spelling, in: spellings(of: signature)))
    }

    static func invalidValue(_ value: String, for option: OptionDefinition, allowed: [String]) -> UsageError {
        var help = allowedValuesHint(allowed)
        if let suggestion = Suggestions.closest(to: value, in: allowed) {
            help = "did you mean '\(suggestion)'? (\(help))"
        }
        return UsageError("The value '\(value)' is invalid for '\(option.usageSpelling)'", help: help)
    }

    /// For a missing value: the allowed values of a choice, else the option's help.
    static func helpLine(for option: OptionDefinition) -> String {
        if case .value(_, let allowed?, _) = option.kind { return allowedValuesHint(allowed) }
        return "\(option.usageSpelling)  \(option.help)"
    }

    static func allowedValuesHint(_ allowed: [String]) -> String {
        "the value must be one of " + allowed.map { "'\($0)'" }.joined(separator: ", ")
    }

    static func assign(_ values: [String], to signature: CommandSignature, in parsed: inout ParsedArguments) throws(UsageError) {
        var remaining = values[...]
        for positional in signature.positionals {
            if positional.isRepeated {
                parsed.positionals[positional.name] = Array(remaining)
                if remaining.isEmpty, !positional.isOptional {
                    throw UsageError("Missing expected argument '\(positional.usageSpelling)'", help: positional.help)
                }
                remaining = []
            } else if let first = remaining.first {
                parsed.positionals[positional.name] = [first]
                remaining = remaining.dropFirst()
            } else if !positional.isOptional {
                throw UsageError("Missing expected argument '\(positional.usageSpelling)'", help: positional.help)
            }
        }
        if let extra = remaining.first {
            throw UsageError("Unexpected argument '\(extra)'")
        }
    }
}
