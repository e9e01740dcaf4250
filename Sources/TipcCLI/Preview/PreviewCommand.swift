import TipcCompiler
import TipRuntime

/// `tipc preview PATHS [--timeline FILE] [--locale L]… [--value NAME=TEXT]… -o FILE.html`: one
/// self-contained HTML page showing every tip as TipKit draws it and, with a timeline, the
/// chart of its run.
public enum PreviewCommand: TipcCommand {
    static let timeline = OptionDefinition.value("timeline", valueName: "file",
                                                 help: "Also draw this timeline's run (a *.timeline.yaml file) as a chart.")
    static let locale = OptionDefinition.value("locale", valueName: "tag",
                                               help: "Show the texts in this locale (repeat for several); default: every locale the program declares.")
    static let value = OptionDefinition.value("value", valueName: "name=text",
                                              help: "Fill the placeholder NAME with TEXT (repeat for several); unfilled ones show as {name}.")
    static let output = OptionDefinition.value("output", short: "o", valueName: "file", help: "The HTML file to write.").required
    static let paths = PositionalDefinition("paths", repeated: true, help: "Manifest and rule files, or folders, forming one program.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "preview",
            abstract: "Write an HTML page showing every tip as TipKit draws it, and a timeline's run as a chart.",
            discussion: "The page is one file with nothing to fetch: it opens from disk in any browser.",
            positionals: [paths],
            options: [output, timeline, locale, value])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let outputPath = arguments.value(output) else { throw UsageError("missing '--output <file>'", help: "e.g. -o tips.html") }
        var values: [String: String] = [:]
        for item in arguments.values(value) {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw UsageError("--value '\(item)' is not NAME=TEXT", help: "e.g. --value trail=\"Eagle Creek\"")
            }
            values[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        let inputs = arguments.values(of: paths)
        if inputs.contains(where: PackInput.isPack) {
            throw UsageError("preview reads manifests, not a .tippack", help: "give the manifests the pack is compiled from, so that rules show as written")
        }
        let input = try PackInput.load(pack: nil, manifests: inputs, keepingParsedFiles: true, context: context)

        var chart: PreviewChart?
        if let timelinePath = arguments.value(timeline) {
            let parsed = try TimelineInput.load(path: timelinePath, context: context)
            chart = try PreviewChart.run(parsed, path: timelinePath, input: input)
        }
        let page = try PreviewPage.build(input: input, locales: arguments.values(locale), values: values, chart: chart)
        do {
            try AtomicFileWriter.write(Array(PreviewHTMLWriter.html(page).utf8), to: outputPath)
        } catch {
            throw CommandFailure.io(error.message)
        }
        return .success
    }
}
