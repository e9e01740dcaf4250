import Testing
@testable import TipcCLI

@Suite struct ArgumentParserTests {
    enum Shape: String, CaseIterable { case round, square }

    static let shape = OptionDefinition.choice("shape", of: Shape.self, default: .round, help: "The shape.")
    static let output = OptionDefinition.value("output", short: "o", help: "Where to write.")
    static let verbose = OptionDefinition.flag("verbose", help: "Say more.")
    static let inputs = PositionalDefinition("inputs", repeated: true, help: "The inputs.")
    static let signature = CommandSignature(name: "draw", abstract: "Draw shapes.",
                                            positionals: [inputs], options: [shape, output, verbose])

    func parse(_ arguments: [String]) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: Self.signature)
    }

    func usageError(_ arguments: [String]) -> UsageError? {
        do {
            _ = try parse(arguments)
            return nil
        } catch {
            return error
        }
    }

    @Test func optionsFlagsAndPositionals() throws {
        let parsed = try parse(["a", "--shape", "square", "b", "--verbose", "-o", "out", "c"])
        #expect(parsed.choice(Self.shape, as: Shape.self) == .square)
        #expect(parsed.value(Self.output) == "out")
        #expect(parsed.isSet(Self.verbose))
        #expect(parsed.values(of: Self.inputs) == ["a", "b", "c"])
    }

    @Test func attachedValuesAndDefaults() throws {
        let parsed = try parse(["--shape=square", "--output=x=y", "in"])
        #expect(parsed.value(Self.shape) == "square")
        #expect(parsed.value(Self.output) == "x=y")
        #expect(!parsed.isSet(Self.verbose))
        let defaults = try parse(["in"])
        #expect(defaults.choice(Self.shape, as: Shape.self) == .round)
        #expect(!defaults.wasGiven(Self.shape))
        #expect(defaults.value(Self.output) == nil)
    }

    @Test func terminatorMakesEverythingPositional() throws {
        let parsed = try parse(["--verbose", "--", "--shape", "-", "-h"])
        #expect(parsed.values(of: Self.inputs) == ["--shape", "-", "-h"])
        #expect(parsed.value(Self.shape) == "round")
        #expect(!ArgumentParser.asksForHelp(["--", "-h"]))
        #expect(ArgumentParser.asksForHelp(["x", "-h"]))
        #expect(ArgumentParser.asksForHelp(["--help"]))
    }

    @Test func negativeNumbersAreValuesNotOptions() throws {
        let parsed = try parse(["-5", "-1.5", "-.5", "-3d", "-o", "-2"])
        #expect(parsed.values(of: Self.inputs) == ["-5", "-1.5", "-.5", "-3d"])
        #expect(parsed.value(Self.output) == "-2", "a negative number is an option's value too")
        #expect(usageError(["-.x"])?.message == "Unknown option '-.x'")
        #expect(usageError(["-x5"])?.message == "Unknown option '-x5'")
    }

    @Test func unknownOptionSuggestsTheClosest() {
        #expect(usageError(["--shpae", "square", "x"]) == UsageError("Unknown option '--shpae'", help: "did you mean '--shape'?"))
        #expect(usageError(["--zzzzzzzz", "x"]) == UsageError("Unknown option '--zzzzzzzz'"))
        #expect(usageError(["-q", "x"])?.message == "Unknown option '-q'")
    }

    @Test func missingValue() {
        #expect(usageError(["x", "--output"])?.message == "Missing value for '--output <output>'")
        #expect(usageError(["--output", "--verbose", "x"])?.message == "Missing value for '--output <output>'")
        #expect(usageError(["x", "--shape"]) == UsageError("Missing value for '--shape <shape>'",
                                                         help: "the value must be one of 'round', 'square'"))
    }

    @Test func badChoiceListsAllowedValues() {
        #expect(usageError(["--shape", "triangle", "x"]) == UsageError(
            "The value 'triangle' is invalid for '--shape <shape>'", help: "the value must be one of 'round', 'square'"))
        #expect(usageError(["--shape=sqaure", "x"])?.help == "did you mean 'square'? (the value must be one of 'round', 'square')")
    }

    @Test func flagsTakeNoValueAndPositionalsAreRequired() {
        #expect(usageError(["--verbose=yes", "x"])?.message == "Flag '--verbose' does not take a value")
        #expect(usageError(["--verbose"])?.message == "Missing expected argument '<inputs> ...'")
    }

    @Test func extraPositionalIsUnexpected() {
        let single = CommandSignature(name: "one", abstract: "One.", positionals: [PositionalDefinition("file", help: "A file.")])
        #expect(throws: UsageError("Unexpected argument 'b'")) { try ArgumentParser.parse(["a", "b"], for: single) }
        #expect(throws: Never.self) { try ArgumentParser.parse(["a"], for: single) }
    }

    @Test func helpLayout() {
        let help = HelpFormatter(programName: "tool").help(for: Self.signature)
        #expect(help == """
            OVERVIEW: Draw shapes.

            USAGE: tool draw [--shape <shape>] [--output <output>] [--verbose] <inputs> ...

            ARGUMENTS:
              <inputs> ...            The inputs.

            OPTIONS:
              --shape <shape>         The shape. (values: round, square; default: round)
              -o, --output <output>   Where to write.
              --verbose               Say more.
              -h, --help              Show help information.

            """)
    }

    @Test func longDescriptionsWrapUnderTheirColumn() {
        let formatter = HelpFormatter(programName: "tool")
        let text = formatter.table([(label: "--a-very-long-option-name <value>", text: "Short.")])
        #expect(text == "  --a-very-long-option-name <value>\n                          Short.")
        let wrapped = formatter.wrap(String(repeating: "word ", count: 30), indent: 26)
        #expect(wrapped.split(separator: "\n").allSatisfy { $0.count <= 80 && $0.hasPrefix(String(repeating: " ", count: 26)) })
    }
}
