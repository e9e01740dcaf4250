import TipcCompiler
import TipRuntime
import TipcJSON

/// `tipc explain (PACK | PATHS) --db DB --tip ID [--at DATE]`: why a tip is or is not shown.
public enum ExplainCommand: TipcCommand {
    enum Format: String, CaseIterable { case text, json }

    static let tip = OptionDefinition.value("tip", valueName: "id", help: "The tip to explain, or an instance of a keyed tip: 'newTrail[42]'.").required
    static let format = OptionDefinition.choice("format", of: Format.self, default: .text, help: "Text for people, JSON for tools.")
    static let locale = OptionDefinition.value("locale", valueName: "tag",
                                               help: "Also show the tip's texts in this locale (e.g. de-CH); placeholders show as {name}.")
    static let paths = PositionalDefinition("paths", repeated: true, help: "A rule pack (.tippack), or manifest files and folders forming one program.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "explain",
            abstract: "Explain why a tip is or is not shown: status, rules and their parts, gates.",
            positionals: [paths],
            options: [RuntimeOptions.db, tip, RuntimeOptions.at, RuntimeOptions.unit, locale, format])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        guard let name = arguments.value(tip) else { throw UsageError("missing '--tip <id>'") }
        let inputs = arguments.values(of: paths)
        let input = inputs.count == 1 && PackInput.isPack(inputs[0])
            ? try PackInput.load(pack: inputs[0], manifests: [], context: context)
            : try PackInput.load(pack: nil, manifests: inputs, context: context)
        let center = try RuntimeOptions.openCenter(arguments, pack: input, access: .readOrFresh)
        if let store = arguments.value(RuntimeOptions.db), RuntimeOptions.isFresh(store, access: .readOrFresh) {
            context.standardError.write("note: no store at '\(store)' yet: explained for a user with nothing recorded (nothing was created)\n")
        }
        let explanation: TipExplanation
        let instance: TipInstance
        do {
            // A tip, or an instance of a keyed tip: `--tip 'newTrail[42]'`.
            instance = try center.instance(named: name)
            explanation = try center.explanation(of: instance.tip, key: instance.key)
        } catch {
            if case .unknownTip(let tip) = error {
                throw CommandFailure.input("no tip named '\(tip)'" + (Suggestions.didYouMean(tip, in: center.pack.tips.map(\.name)).map { "; \($0)" } ?? ""))
            }
            if case .store = error {} else if case .donation = error {} else { throw CommandFailure.input(error.description) }
            throw error.failure(store: arguments.value(RuntimeOptions.db))
        }
        var renderer = ExplanationRenderer(explanation: explanation, sources: input.sources)
        if let requested = arguments.value(locale) {
            // Texts belong to the tip; every instance shows the same.
            renderer.texts = try ExplainTexts(center: center, tip: instance.tip, arm: explanation.experiment?.arm, locale: requested,
                                              store: arguments.value(RuntimeOptions.db))
        }
        switch arguments.choice(format, as: Format.self) ?? .text {
        case .text: context.standardOutput.write(renderer.text())
        case .json: context.standardOutput.write(renderer.json().serialized(pretty: true) + "\n")
        }
        return .success
    }
}

/// Renders a `TipExplanation`, quoting each sub-expression from the sources when they are known.
struct ExplanationRenderer {
    let explanation: TipExplanation
    let sources: [String: SourceFile]
    /// The tip's texts in the locale asked for (`--locale`).
    var texts: ExplainTexts?

    init(explanation: TipExplanation, sources: [String: SourceFile], texts: ExplainTexts? = nil) {
        self.explanation = explanation
        self.sources = sources
        self.texts = texts
    }

    /// The text of `range` from the sources, or its position when the sources are not known.
    func quote(_ range: PackSourceRange) -> String {
        guard let file = sources[range.file], range.startLine == range.endLine else {
            return "\(range.file):\(range.startLine):\(range.startColumn)"
        }
        let line = Array(file.lineText(Int(range.startLine)).unicodeScalars)
        let start = max(0, Int(range.startColumn) - 1), end = min(line.count, Int(range.endColumn) - 1)
        guard start < end else { return "\(range.file):\(range.startLine):\(range.startColumn)" }
        var text = ""
        text.unicodeScalars.append(contentsOf: line[start..<end])
        return text
    }

    func value(_ value: TraceValue) -> String {
        switch value {
        case .value(let runtime): return ValueText.display(runtime)
        case .collection(let count): return EnglishText.count(count, "donation")
        case .displays(let count): return EnglishText.count(count, "display")
        case .invalidations(let count): return EnglishText.count(count, "invalidation")
        }
    }

    func outcome(_ outcome: RuleOutcome) -> String {
        switch outcome {
        case .value(let flag): return String(flag)
        case .failed(let failure, _): return "false (evaluation failed: \(failure))"
        }
    }

    func text() -> String {
        let e = explanation
        var out = "tip \(e.tip) at \(ISO8601.string(fromMilliseconds: Int(e.nowMilliseconds)))\n"
        out += "  status: \(e.status)\n"
        out += "  should display: \(e.shouldDisplay)" + (e.shouldDisplay ? "" : " — \(e.reasonNotDisplayed ?? "")") + "\n"
        if let experiment = e.experiment {
            out += "  experiment: \(experiment.name), arm \(experiment.arm)" + (experiment.isHidden ? " (hidden: never displayed)" : "")
                + (experiment.isStored ? "" : " (not assigned yet: the arm the unit hashes to)") + "\n"
        }
        if let texts { out += texts.text() }
        if e.rules.isEmpty { out += "  rules: none (always available)\n" }
        for rule in e.rules {
            let head = rule.range.map { quote($0) } ?? "rule \(rule.index + 1)"
            out += "  rule \(rule.index + 1): \(head) = \(outcome(rule.outcome))\n"
            for (range, traced) in rule.values where range != rule.range {
                out += "    \(quote(range)) = \(value(traced))\n"
            }
        }
        out += "  display frequency: "
        if e.displayFrequencyMilliseconds == 0 {
            out += "immediate\n"
        } else if e.ignoresDisplayFrequency {
            out += "ignored by this tip\n"
        } else if let opens = e.frequencyGateOpensMilliseconds {
            out += "gap of \(ValueText.display(.duration(milliseconds: e.displayFrequencyMilliseconds))); the next new tip may show at \(ISO8601.string(fromMilliseconds: Int(opens)))\n"
        } else {
            out += "gap of \(ValueText.display(.duration(milliseconds: e.displayFrequencyMilliseconds))); allows this tip now\n"
        }
        if let group = e.group {
            out += "  group: \(group.name) (\(group.priority == .ordered ? "ordered" : "firstAvailable")), offers \(group.offered ?? "no tip") now\n"
        }
        out += "  displays: \(e.displayCount)" + (e.maxDisplayCount.map { " of at most \($0)" } ?? "") + "\n"
        out += "  time on screen: \(ValueText.display(.duration(milliseconds: e.displayDurationMilliseconds)))"
            + (e.maxDisplayDurationMilliseconds.map { " of at most \(ValueText.display(.duration(milliseconds: $0)))" } ?? "") + "\n"
        if let override = e.override { out += "  testing override: \(override ? "shown" : "hidden")\n" }
        return out
    }

    func json() -> JSON {
        let e = explanation
        var members: [(String, JSON)] = [
            ("tip", .string(e.tip)), ("at", .string(ISO8601.string(fromMilliseconds: Int(e.nowMilliseconds)))),
            ("status", .string(e.status.description)), ("shouldDisplay", .bool(e.shouldDisplay)),
        ]
        if let reason = e.reasonNotDisplayed { members.append(("reason", .string(reason))) }
        if let experiment = e.experiment {
            members.append(("experiment", .object([("name", .string(experiment.name)), ("arm", .string(experiment.arm)),
                                                    ("hidden", .bool(experiment.isHidden)), ("assigned", .bool(experiment.isStored))])))
        }
        if let texts { members.append(("texts", texts.json())) }
        members.append(("rules", .array(e.rules.map { rule in
            var ruleMembers: [(String, JSON)] = [("index", .integer(rule.index + 1))]
            if let range = rule.range { ruleMembers.append(("text", .string(quote(range)))) }
            ruleMembers.append(("value", .bool(rule.outcome.holds)))
            if case .failed(let failure, _) = rule.outcome { ruleMembers.append(("failure", .string(failure.rawValue))) }
            ruleMembers.append(("parts", .array(rule.values.filter { $0.range != rule.range }.map { part in
                .object([("text", .string(quote(part.range))), ("line", .integer(Int(part.range.startLine))),
                         ("column", .integer(Int(part.range.startColumn))), ("value", .string(value(part.value)))])
            })))
            return .object(ruleMembers)
        })))
        members.append(("displayFrequency", .object([
            ("gap", .string(ValueText.display(.duration(milliseconds: e.displayFrequencyMilliseconds)))),
            ("ignored", .bool(e.ignoresDisplayFrequency)),
            ("nextNewTipAt", e.frequencyGateOpensMilliseconds.map { .string(ISO8601.string(fromMilliseconds: Int($0))) } ?? .null),
        ])))
        if let group = e.group {
            members.append(("group", .object([("name", .string(group.name)),
                                               ("priority", .string(group.priority == .ordered ? "ordered" : "firstAvailable")),
                                               ("offers", group.offered.map { .string($0) } ?? .null)])))
        }
        members.append(("displayCount", .integer(Int(e.displayCount))))
        members.append(("maxDisplayCount", e.maxDisplayCount.map { .integer(Int($0)) } ?? .null))
        members.append(("displayDuration", .string(ValueText.display(.duration(milliseconds: e.displayDurationMilliseconds)))))
        members.append(("override", e.override.map { .string($0 ? "shown" : "hidden") } ?? .null))
        return .object(members)
    }
}
