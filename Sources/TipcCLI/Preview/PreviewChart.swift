import TipcCompiler
import TipRuntime

/// A timeline's run as a chart: the run `tipc simulate` makes (`TimelineRunner`), read at every
/// step's instant before and after its actions, and between steps at each instant the runtime
/// would wake an observer of the tips. Time runs across; each tip (each instance of a
/// keyed tip the timeline names) has a lane of status spans, held-back spans, displays and
/// invalidations; each event a lane of donations; each parameter a lane of values; and every
/// expectation is passed or failed. For pointing at an instant, each tip lane keeps `explain`'s
/// text at every instant read.
struct PreviewChart {
    enum SpanKind: String { case pending, available, invalidated }
    enum HoldKind: String { case frequency, group, other }

    /// A stretch of time `[from, to)` (instants in milliseconds) with its label.
    struct Span: Hashable {
        var from: Int64
        var to: Int64
        var label: String
        /// The whole story, when the label is short for it.
        var detail: String?
    }

    /// Something that happened at an instant.
    struct Mark: Hashable {
        var at: Int64
        var label: String
    }

    struct TipLane {
        /// The instance (`saveTrail[12]`) or the tip's name.
        var name: String
        /// The tip's name.
        var tip: String
        var spans: [(kind: SpanKind, span: Span)] = []
        var holds: [(kind: HoldKind, span: Span)] = []
        /// Displays (`▲ display 1`) and invalidations (`✕ invalidated (tipClosed)`), in time order.
        var marks: [Mark] = []
        /// `explain`'s text at each instant where it changed, as an index into `texts`: the
        /// text without its first line (`tip NAME at INSTANT`), which the page adds.
        var explanations: [(instant: Int, text: Int)] = []
        /// Why the lane is empty (a keyed tip the timeline names no instance of).
        var note: String?
    }

    struct EventLane {
        var name: String
        var donations: [Mark]
    }

    struct ParameterLane {
        var name: String
        /// The parameter's value over time, one span per value.
        var values: [Span]
    }

    struct Expectation: Hashable {
        var at: Int64
        var line: Int
        var text: String
        var passed: Bool
    }

    struct Step {
        var line: Int
        var at: Int64
        var lines: [String]
    }

    /// The timeline file's path.
    var path: String
    var start: Int64
    /// The steps' instants, ascending, each once: the axis the chart labels and spaces.
    var axis: [Int64]
    /// Every instant read, ascending, each once: the steps' instants and, between them, each
    /// instant at which the runtime said a tip's state might change (a window's contents
    /// change, a donation ages out, the display frequency's gap ends, a dated comparison
    /// turns), so that spans start and end where they really do.
    var instants: [Int64]
    /// Where the chart ends: the last instant (then the chart draws a short stretch after it).
    var end: Int64
    var tips: [TipLane]
    var events: [EventLane]
    var parameters: [ParameterLane]
    var expectations: [Expectation]
    var steps: [Step]
    /// The run's failures that are not failed expectations (a name the program lacks, …).
    var failures: [String]
    /// What the chart leaves out, if anything.
    var notes: [String]
    /// `explain`'s texts (without their first line), each once.
    var texts: [String]

    /// Replays `timeline` on a fresh in-memory runtime, as `tipc simulate` does, reading it at
    /// every step.
    static func run(_ timeline: Timeline, path: String, input: PackInput,
                    wakeUpLimit: Int = TimelineRunner.defaultWakeUpLimit) throws -> PreviewChart {
        let clock = ManualClock(now: timeline.start)
        let center: TipCenter
        do {
            center = try TipCenter(pack: input.pack, persistence: MemoryPersistence(deviceID: "preview"), clock: clock, assignmentUnit: timeline.unit)
            try center.resetDatastore()
        } catch {
            throw error.failure(store: nil)
        }
        let pack = center.pack
        let lanes = instances(of: pack, namedIn: timeline)
        var recorder = Recorder(lanes: lanes, parameters: pack.parameters.map(\.name),
                                sources: input.sources)
        var runner = TimelineRunner(center: center, clock: clock, timeline: timeline)
        runner.run(watching: lanes.compactMap(\.instance), wakeUpLimit: wakeUpLimit) { _, moment in recorder.read(center, atStep: moment != .wakeUp) }
        return recorder.chart(path: path, start: timeline.start, runner: runner, pack: pack)
    }

    /// The lanes of tips: every tip without a key, and each instance of a keyed tip that the
    /// timeline names (`saveTrail[12]`), in the pack's order, instances by key; a keyed tip the
    /// timeline names no instance of keeps its lane (empty, with a note).
    static func instances(of pack: RulePack, namedIn timeline: Timeline) -> [(lane: String, tip: String, instance: TipInstance?)] {
        var named = Set<TipInstance>()
        for step in timeline.steps {
            for action in step.actions {
                var names: [String] = []
                switch action {
                case .show(let items): names = items.map(\.tip.value)
                case .invalidate(let tip, _), .reset(let tip), .action(let tip, _): names = [tip.value]
                case .expect(let expectations): names = expectations.filter { $0.currentTip == nil }.map(\.tip.value)
                case .set, .donate, .deleteDonations: break
                }
                for name in names {
                    if let instance = try? TipInstance.resolve(name, in: pack), instance.key != nil { named.insert(instance) }
                }
            }
        }
        var lanes: [(String, String, TipInstance?)] = []
        for tip in pack.tips {
            guard tip.key != nil else {
                lanes.append((tip.name, tip.name, TipInstance(tip: tip.name)))
                continue
            }
            let instances = named.filter { $0.tip == tip.name }.sorted()
            if instances.isEmpty { lanes.append((tip.name, tip.name, nil)) }
            for instance in instances { lanes.append((instance.description, tip.name, instance)) }
        }
        return lanes
    }

    /// Reads the runtime at each instant and turns the readings into lanes.
    private struct Recorder {
        struct Reading {
            var status: TipStatus
            var displayCount: Int64
            var hold: (kind: HoldKind, label: String, detail: String, until: Int64?)?
            var text: Int
        }

        let lanes: [(lane: String, tip: String, instance: TipInstance?)]
        let parameters: [String]
        let sources: [String: SourceFile]
        var instants: [Int64] = []
        /// The instants of the reads at steps (not at wake-ups).
        var stepInstants: [Int64] = []
        /// Per read, per lane (nil for a lane without an instance).
        var readings: [[Reading?]] = []
        /// Per read, per parameter.
        var values: [[String]] = []
        var texts: [String] = []
        var textIndex: [String: Int] = [:]

        init(lanes: [(lane: String, tip: String, instance: TipInstance?)], parameters: [String], sources: [String: SourceFile]) {
            self.lanes = lanes
            self.parameters = parameters
            self.sources = sources
        }

        mutating func read(_ center: TipCenter, atStep: Bool) {
            var row: [Reading?] = []
            for lane in lanes {
                guard let instance = lane.instance, let explanation = try? center.explanation(of: instance.tip, key: instance.key) else {
                    row.append(nil)
                    continue
                }
                var hold: (HoldKind, String, String, Int64?)?
                if case .available = explanation.status, !explanation.shouldDisplay {
                    let reason = explanation.reasonNotDisplayed ?? "not displayed"
                    if let opens = explanation.frequencyGateOpensMilliseconds {
                        hold = (.frequency, "held back: display frequency", reason, opens)
                    } else if let group = explanation.group, explanation.override == nil {
                        hold = (.group, "held back: group \(group.name)", reason, nil)
                    } else {
                        hold = (.other, "held back", reason, nil)
                    }
                }
                let text = ExplanationRenderer(explanation: explanation, sources: sources).text()
                let body = text.firstIndex(of: "\n").map { String(text[text.index(after: $0)...]) } ?? text
                row.append(Reading(status: explanation.status, displayCount: explanation.displayCount, hold: hold, text: intern(body)))
            }
            instants.append(center.nowMilliseconds)
            if atStep { stepInstants.append(center.nowMilliseconds) }
            readings.append(row)
            values.append(parameters.map { name in (try? center.parameterValue(name)).map(ValueText.display) ?? "?" })
        }

        private mutating func intern(_ text: String) -> Int {
            if let index = textIndex[text] { return index }
            texts.append(text)
            textIndex[text] = texts.count - 1
            return texts.count - 1
        }

        func chart(path: String, start: Int64, runner: TimelineRunner, pack: RulePack) -> PreviewChart {
            var distinct: [Int64] = []
            for instant in instants where distinct.last != instant { distinct.append(instant) }
            if distinct.isEmpty { distinct = [start] }
            var axis: [Int64] = []
            for instant in stepInstants where axis.last != instant { axis.append(instant) }
            if axis.isEmpty { axis = [start] }
            let end = distinct.last!
            // The state after the last read at an instant holds until the next instant read.
            func next(after read: Int) -> Int64 {
                instants[(read + 1)...].first { $0 > instants[read] } ?? end
            }
            var tipLanes: [TipLane] = []
            for (laneIndex, lane) in lanes.enumerated() {
                var built = TipLane(name: lane.lane, tip: lane.tip)
                guard lane.instance != nil else {
                    built.note = "a tip per key value: the timeline names no instance of \(lane.tip)"
                    tipLanes.append(built)
                    continue
                }
                var previous: Reading?
                for (read, row) in readings.enumerated() {
                    guard let reading = row[laneIndex] else { continue }
                    let at = instants[read], until = next(after: read)
                    let (kind, label) = Self.describe(reading.status)
                    Self.add(kind, label, from: at, to: until, to: &built.spans)
                    if let hold = reading.hold {
                        let to = min(until, max(at, hold.until ?? until))
                        if to == at {
                            // Held back for no time: the gate opens now.
                        } else if let last = built.holds.last, last.kind == hold.kind, last.span.detail == hold.detail, last.span.to >= at {
                            built.holds[built.holds.count - 1].span.to = to
                        } else {
                            built.holds.append((hold.kind, Span(from: at, to: to, label: hold.label, detail: hold.detail)))
                        }
                    }
                    if let previous {
                        if reading.displayCount > previous.displayCount {
                            for count in (previous.displayCount + 1)...reading.displayCount {
                                built.marks.append(Mark(at: at, label: "▲ display \(count)"))
                            }
                        }
                        if case .invalidated(let reason) = reading.status, previous.status != reading.status {
                            built.marks.append(Mark(at: at, label: "✕ invalidated (\(reason.rawValue))"))
                        }
                    }
                    let instant = distinct.firstIndex(of: at)!
                    if built.explanations.last?.instant == instant {
                        built.explanations[built.explanations.count - 1].text = reading.text
                    } else if built.explanations.last?.text != reading.text {
                        built.explanations.append((instant, reading.text))
                    }
                    previous = reading
                }
                tipLanes.append(built)
            }
            let events = pack.events.map { event in
                EventLane(name: event.name, donations: runner.donated.filter { $0.event == event.name }.map {
                    Mark(at: $0.at, label: $0.payload.isEmpty ? "● donation" : "● donation: \($0.payload)")
                })
            }
            var parameterLanes: [ParameterLane] = []
            for (index, name) in parameters.enumerated() {
                var spans: [(kind: String, span: Span)] = []
                for (read, row) in values.enumerated() {
                    Self.add(name, "\(name) = \(row[index])", from: instants[read], to: next(after: read), to: &spans)
                }
                parameterLanes.append(ParameterLane(name: name, values: spans.map(\.span)))
            }
            let expectations = runner.expectationOutcomes.map { outcome in
                Expectation(at: outcome.at, line: outcome.range.start.line,
                            text: outcome.passed ? "expected \(outcome.expected): passed" : "expected \(outcome.expected), found \(outcome.found): failed",
                            passed: outcome.passed)
            }
            let failedExpectations = Set(runner.expectationOutcomes.filter { !$0.passed }.map { "\($0.range)" })
            let failures = runner.failures.filter { !failedExpectations.contains("\($0.range)") }.map {
                "\($0.range.file):\($0.range.start.line):\($0.range.start.column): \($0.message)"
            }
            let notes = runner.wakeUpsCut
                ? ["The run was read at \(EnglishText.count(runner.wakeUpsRead, "instant")) between steps, the most the chart reads; "
                   + "a change after the last of them is drawn at the next step."]
                : []
            return PreviewChart(path: path, start: start, axis: axis, instants: distinct, end: end, tips: tipLanes, events: events,
                                parameters: parameterLanes, expectations: expectations,
                                steps: runner.steps.map { Step(line: $0.line, at: $0.at, lines: $0.lines) },
                                failures: failures, notes: notes, texts: texts)
        }

        /// Adds a state read at `at` that holds until `until` to a lane's spans, after the
        /// last: the same state extends the last span; a state that lasted no time (the one
        /// before a step's actions, when they change it at once) gives way to the next.
        static func add<Kind: Equatable>(_ kind: Kind, _ label: String, from at: Int64, to until: Int64,
                                         to spans: inout [(kind: Kind, span: Span)]) {
            if let last = spans.last, last.kind == kind, last.span.label == label {
                spans[spans.count - 1].span.to = until
                return
            }
            if let last = spans.last, last.span.from == at {
                spans.removeLast()
                if let last = spans.last, last.kind == kind, last.span.label == label {
                    spans[spans.count - 1].span.to = until
                    return
                }
            }
            if !spans.isEmpty { spans[spans.count - 1].span.to = at }
            spans.append((kind, Span(from: at, to: until, label: label)))
        }

        static func describe(_ status: TipStatus) -> (SpanKind, String) {
            switch status {
            case .pending: return (.pending, "pending")
            case .available: return (.available, "available")
            case .invalidated(let reason): return (.invalidated, "invalidated (\(reason.rawValue))")
            }
        }
    }
}
