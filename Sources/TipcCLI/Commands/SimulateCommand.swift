import TipcCompiler
import TipRuntime
import TipcJSON

/// `tipc simulate PATHS --timeline FILE`: replay a user's timeline and print what each step
/// displays and why; failed expectations exit 1.
public enum SimulateCommand: TipcCommand {
    enum Format: String, CaseIterable { case text, json }

    static let timeline = OptionDefinition.value("timeline", valueName: "file", help: "The timeline to replay, a *.timeline.yaml file (see docs/cli.md, \"Timelines\").").required
    static let db = OptionDefinition.value("db", valueName: "file", help: "Replay on this SQLite store (the final state stays for inspection). Default: in memory.")
    static let fresh = OptionDefinition.flag("fresh", help: "Empty the --db store first when it holds data (without it, such a store is refused).")
    static let format = OptionDefinition.choice("format", of: Format.self, default: .text, help: "Text for people, JSON for tools.")
    static let paths = PositionalDefinition("paths", repeated: true, help: "Manifest and rule files, or folders, forming one program (or one .tippack).")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "simulate",
            abstract: "Replay a timeline and show what each step displays and why.",
            discussion: "Every failed expectation is printed with its line; any failure exits 1.",
            positionals: [paths],
            options: [timeline, db, fresh, RuntimeOptions.unit, format])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let timelinePath = arguments.value(timeline) else { throw UsageError("missing '--timeline <file>'") }
        let inputs = arguments.values(of: paths)
        let input = inputs.count == 1 && PackInput.isPack(inputs[0])
            ? try PackInput.load(pack: inputs[0], manifests: [], context: context)
            : try PackInput.load(pack: nil, manifests: inputs, context: context)

        let parsed = try TimelineInput.load(path: timelinePath, context: context)

        let clock = ManualClock(now: parsed.start)
        let persistence: any TipPersistence
        if let path = arguments.value(db) {
            let store = try RuntimeOptions.openStore(path, access: .write)
            if !arguments.isSet(fresh) {
                let snapshot: StoreSnapshot
                do { snapshot = try store.load() } catch { throw RuntimeOptions.failure(error, path: path) }
                if !snapshot.donations.isEmpty || !snapshot.parameters.isEmpty || !snapshot.tipRecords.isEmpty
                    || !snapshot.donationDeletions.isEmpty || !snapshot.assignments.isEmpty {
                    throw CommandFailure.io("the store '\(path)' holds data, which a simulation replaces; add --fresh to empty it first, or name another store")
                }
            }
            persistence = store
        } else {
            persistence = MemoryPersistence(deviceID: "simulation")
        }
        let center: TipCenter
        do {
            center = try TipCenter(pack: input.pack, persistence: persistence, clock: clock,
                                assignmentUnit: arguments.value(RuntimeOptions.unit) ?? parsed.unit)
            try center.resetDatastore()
        } catch {
            throw error.failure(store: arguments.value(db))
        }
        var runner = TimelineRunner(center: center, clock: clock, timeline: parsed)
        runner.run()

        switch arguments.choice(format, as: Format.self) ?? .text {
        case .text: context.standardOutput.write(text(runner, start: parsed.start, path: timelinePath))
        case .json: context.standardOutput.write(json(runner, path: timelinePath).serialized(pretty: true) + "\n")
        }
        for failure in runner.failures {
            context.standardError.write("\(failure.range.file):\(failure.range.start.line):\(failure.range.start.column): error: \(failure.message)\n")
        }
        return runner.failures.isEmpty ? .success : .inputHasErrors
    }

    static func text(_ runner: TimelineRunner, start: Int64, path: String) -> String {
        var out = ""
        for step in runner.steps {
            let offset = "+" + ValueText.display(.duration(milliseconds: step.at - start))
            let head = "\(path):\(step.line)  \(offset)  \(ISO8601.string(fromMilliseconds: Int(step.at)))"
            out += head + "\n"
            for line in step.lines { out += "    " + line + "\n" }
        }
        let failed = runner.failures.count
        out += "\(EnglishText.count(runner.steps.count, "step")), \(EnglishText.count(runner.expectations, "expectation")), \(failed) failed\n"
        return out
    }

    static func json(_ runner: TimelineRunner, path: String) -> JSON {
        .object([
            ("timeline", .string(path)),
            ("steps", .array(runner.steps.map { step in
                .object([("line", .integer(step.line)), ("at", .string(ISO8601.string(fromMilliseconds: Int(step.at)))),
                         ("actions", .array(step.lines.map { .string($0) }))])
            })),
            ("failures", .array(runner.failures.map { failure in
                .object([("file", .string(failure.range.file)), ("line", .integer(failure.range.start.line)),
                         ("column", .integer(failure.range.start.column)), ("message", .string(failure.message))])
            })),
            ("summary", .object([("steps", .integer(runner.steps.count)), ("expectations", .integer(runner.expectations)),
                                 ("failed", .integer(runner.failures.count))])),
        ])
    }
}
