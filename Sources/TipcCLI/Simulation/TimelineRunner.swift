import TipcCompiler
import TipRuntime

/// Replays a timeline against a runtime on a manual clock and records what each step did.
struct TimelineRunner {
    struct StepReport {
        var line: Int
        var at: Int64
        var lines: [String]
    }

    struct Failure {
        var range: SourceRange
        var message: String
    }

    /// One expectation checked: what was expected, at which instant, and whether it held.
    struct ExpectationOutcome {
        var at: Int64
        var range: SourceRange
        var expected: String
        var passed: Bool
        /// What was found instead (empty when it passed).
        var found: String
    }

    /// One donation made, with its payload as a person writes it.
    struct Donation {
        var at: Int64
        var event: String
        var payload: String
    }

    /// When an observer of the run looks at the runtime: at a step's instant before its
    /// actions (time has passed), after them, and, when asked, at each instant between this
    /// step and the next at which the runtime says a watched tip's state may change.
    enum Moment {
        case beforeActions, afterActions, wakeUp
    }

    /// At most this many wake-ups are read in one run unless asked otherwise, so that no
    /// program can make a reader of the run read forever.
    static let defaultWakeUpLimit = 10_000

    let center: TipCenter
    let clock: ManualClock
    let timeline: Timeline
    private(set) var steps: [StepReport] = []
    private(set) var failures: [Failure] = []
    private(set) var expectations = 0
    private(set) var expectationOutcomes: [ExpectationOutcome] = []
    private(set) var donated: [Donation] = []
    /// How many wake-ups were read, and whether the run stopped reading them at its limit.
    private(set) var wakeUpsRead = 0
    private(set) var wakeUpsCut = false

    init(center: TipCenter, clock: ManualClock, timeline: Timeline) {
        self.center = center
        self.clock = clock
        self.timeline = timeline
    }

    /// Replays every step; `observe` is called with the step's index at each `Moment` (only
    /// to read the runtime: `tipc preview` draws the run from what it reads there). With
    /// `watching`, the clock also stops between steps at each instant the runtime would wake an
    /// observer of those instances, for a `.wakeUp` reading (at most `wakeUpLimit` in all).
    mutating func run(watching watched: [TipInstance] = [], wakeUpLimit: Int = defaultWakeUpLimit,
                      observing observe: (_ step: Int, _ moment: Moment) -> Void = { _, _ in }) {
        for (index, step) in timeline.steps.enumerated() {
            if index > 0, !watched.isEmpty {
                while let wake = try? center.nextPossibleChange(of: watched), wake < step.at {
                    guard wakeUpsRead < wakeUpLimit else {
                        wakeUpsCut = true
                        break
                    }
                    wakeUpsRead += 1
                    clock.set(milliseconds: wake)
                    observe(index - 1, .wakeUp)
                }
            }
            clock.set(milliseconds: step.at)
            observe(index, .beforeActions)
            var report = StepReport(line: step.range.start.line, at: step.at, lines: [])
            for action in step.actions {
                do {
                    try perform(action, at: step.at, into: &report)
                } catch {
                    fail(step.range, error.description, &report)
                }
            }
            steps.append(report)
            observe(index, .afterActions)
        }
    }

    private mutating func fail(_ range: SourceRange, _ message: String, _ report: inout StepReport) {
        failures.append(Failure(range: range, message: message))
        report.lines.append("FAILED: \(message)")
    }

    private mutating func perform(_ action: TimelineAction, at instant: Int64, into report: inout StepReport) throws(TipError) {
        let pack = center.pack
        switch action {
        case .set(let assignments):
            var values: [String: RuntimeValue] = [:]
            for (name, value) in assignments {
                guard let declaration = pack.parameters.first(where: { $0.name == name.value }) else {
                    fail(name.range, "no parameter named '\(name.value)'" + suggestion(name.value, pack.parameters.map(\.name)), &report)
                    return
                }
                switch ValueText.parse(value.text, as: declaration.type) {
                case .success(let parsed): values[name.value] = parsed
                case .failure(let error):
                    fail(value.range, error.message(for: "parameter '\(name.value)'"), &report)
                    return
                }
            }
            try center.setParameters(values)
            report.lines.append("set " + values.sorted { $0.key < $1.key }.map { "\($0.key) = \(ValueText.display($0.value))" }.joined(separator: ", "))
        case .donate(let donations):
            for donation in donations {
                guard let declaration = pack.events.first(where: { $0.name == donation.event.value }) else {
                    fail(donation.event.range, "no event named '\(donation.event.value)'" + suggestion(donation.event.value, pack.events.map(\.name)), &report)
                    continue
                }
                var payload: [String: RuntimeValue] = [:]
                for (name, value) in donation.value {
                    guard let field = declaration.fields.first(where: { $0.name == name }) else {
                        fail(value.range, "event '\(declaration.name)' has no field '\(name)'"
                             + suggestion(name, declaration.fields.map(\.name)), &report)
                        return
                    }
                    switch ValueText.parse(value.text, as: field.type) {
                    case .success(let parsed): payload[name] = parsed
                    case .failure(let error):
                        fail(value.range, error.message(for: "field '\(name)' of event '\(declaration.name)'"), &report)
                        return
                    }
                }
                try center.donate(declaration.name, value: payload, at: instant)
                let shown = payload.isEmpty ? "" : " " + payload.sorted { $0.key < $1.key }.map { "\($0.key): \(ValueText.display($0.value))" }.joined(separator: ", ")
                report.lines.append("donate \(declaration.name)\(shown)")
                donated.append(Donation(at: instant, event: declaration.name, payload: String(shown.dropFirst())))
            }
        case .show(let items):
            for item in items {
                guard let instance = resolve(item.tip, &report) else { continue }
                let (tip, key) = (instance.tip, instance.key)
                let name = instance.description
                if try center.shouldDisplay(tip, key: key) {
                    let shownFor = Int64(item.durationMilliseconds ?? 0)
                    if try center.displayDurationMilliseconds(of: tip, key: key).addingReportingOverflow(shownFor).overflow {
                        // Refused, never wrapped: the tip's total time on screen stays in Int64 milliseconds.
                        fail(item.tip.range, "showing '\(name)' for \(ValueText.display(.duration(milliseconds: shownFor))) would make its "
                             + "time on screen too large to represent; the display was not recorded", &report)
                        continue
                    }
                    try center.recordDisplay(tip, key: key, milliseconds: shownFor)
                    let count = try center.displayCount(of: tip, key: key)
                    let forText = item.durationMilliseconds.map { " for \(ValueText.display(.duration(milliseconds: Int64($0))))" } ?? ""
                    let armText = try center.arm(of: tip).map { ", arm \($0.arm.name)" } ?? ""
                    report.lines.append("show \(name): displayed\(forText) (display \(count)\(armText)); now \(try center.status(of: tip, key: key))")
                } else {
                    let reason = try center.explanation(of: tip, key: key).reasonNotDisplayed ?? "not displayed"
                    report.lines.append("show \(name): not displayed — \(reason)")
                }
            }
        case .invalidate(let tip, let reason):
            guard let parsed = InvalidationReason(rawValue: reason.value), let instance = resolve(tip, &report) else { return }
            try center.invalidate(instance.tip, key: instance.key, reason: parsed)
            report.lines.append("invalidate \(instance) (\(parsed.rawValue)); now \(try center.status(of: instance.tip, key: instance.key))")
        case .reset(let tip):
            guard let instance = resolve(tip, &report) else { return }
            try center.resetEligibility(instance.tip, key: instance.key)
            report.lines.append("reset \(instance); now \(try center.status(of: instance.tip, key: instance.key))")
        case .action(let tip, let id):
            guard let instance = resolve(tip, &report) else { return }
            // The tip's actions and those the user's arm shows instead.
            var declared = pack.tips.first { $0.name == instance.tip }?.actions.map(\.id) ?? []
            for shown in try center.arm(of: instance.tip)?.arm.actions ?? [] where !declared.contains(shown.id) { declared.append(shown.id) }
            guard declared.contains(id.value) else {
                fail(id.range, "tip '\(instance.tip)' has no action '\(id.value)'"
                     + (declared.isEmpty ? " (it declares no actions)" : suggestion(id.value, declared)), &report)
                return
            }
            try center.recordAction(instance.tip, action: id.value, key: instance.key)
            report.lines.append("action \(instance) \(id.value)")
        case .expect(let expected):
            for expectation in expected { try check(expectation, into: &report) }
        case .deleteDonations(let event):
            guard pack.events.contains(where: { $0.name == event.value }) else {
                fail(event.range, "no event named '\(event.value)'" + suggestion(event.value, pack.events.map(\.name)), &report)
                return
            }
            try center.deleteDonations(of: event.value)
            report.lines.append("deleteDonations \(event.value)")
        }
    }

    /// The tip or instance a timeline names (`welcome`, `newTrail[42]`), or nil after
    /// reporting why it names none.
    private mutating func resolve(_ name: Located<String>, _ report: inout StepReport) -> TipInstance? {
        do {
            return try center.instance(named: name.value)
        } catch .unknownTip(let tip) {
            fail(name.range, "no tip named '\(tip)'" + suggestion(tip, center.pack.tips.map(\.name)), &report)
        } catch {
            fail(name.range, error.description, &report)
        }
        return nil
    }

    private mutating func check(_ expectation: TimelineExpectation, into report: inout StepReport) throws(TipError) {
        if let expected = expectation.currentTip {
            try checkCurrentTip(of: expectation.tip, expected, into: &report)
            return
        }
        guard let instance = resolve(expectation.tip, &report) else { return }
        let (name, key) = (instance.tip, instance.key)
        let tip = instance.description
        if let pattern = expectation.status {
            expectations += 1
            let status = try center.status(of: name, key: key)
            let matches: Bool
            switch (pattern.value, status) {
            case (.pending, .pending), (.available, .available), (.invalidated(nil), .invalidated): matches = true
            case (.invalidated(let reason?), .invalidated(let actual)): matches = reason == actual.rawValue
            default: matches = false
            }
            record(matches, "\(tip) status \(Self.describe(pattern.value))", found: status.description, at: pattern.range, &report)
        }
        if let expected = expectation.shouldDisplay {
            expectations += 1
            let actual = try center.shouldDisplay(name, key: key)
            var found = String(actual)
            if !actual { found += " (\(try center.explanation(of: name, key: key).reasonNotDisplayed ?? "not displayed"))" }
            record(actual == expected.value, "\(tip) shouldDisplay \(expected.value)", found: found, at: expected.range, &report)
        }
        if let expected = expectation.displayCount {
            expectations += 1
            let actual = try center.displayCount(of: name, key: key)
            record(actual == Int64(expected.value), "\(tip) displayCount \(expected.value)", found: String(actual), at: expected.range, &report)
        }
    }

    /// `{ GROUP: { currentTip: TIP } }`: the group and the tip must exist, the tip in the group.
    private mutating func checkCurrentTip(of group: Located<String>, _ expected: Located<String?>,
                                          into report: inout StepReport) throws(TipError) {
        guard let declaration = center.pack.groups.first(where: { $0.name == group.value }) else {
            var message = "no tip group named '\(group.value)'" + suggestion(group.value, center.pack.groups.map(\.name))
            if center.pack.tips.contains(where: { $0.name == group.value }) { message += " ('\(group.value)' is a tip: currentTip is expected of a group)" }
            fail(group.range, message, &report)
            return
        }
        let members = declaration.tips.map { center.pack.tips[$0].name }
        if let tip = expected.value, !members.contains(tip) {
            let known = center.pack.tips.contains { $0.name == tip }
            fail(expected.range, (known ? "tip '\(tip)' is not in group '\(group.value)'" : "no tip named '\(tip)'")
                 + (suggestion(tip, members).isEmpty ? "; its tips: \(members.joined(separator: ", "))" : suggestion(tip, members)), &report)
            return
        }
        expectations += 1
        let actual = try center.currentTip(of: group.value)
        record(actual == expected.value, "\(group.value) currentTip \(expected.value ?? "null")", found: actual ?? "null",
               at: expected.range, &report)
    }

    private mutating func record(_ passed: Bool, _ what: String, found: String, at range: SourceRange, _ report: inout StepReport) {
        expectationOutcomes.append(ExpectationOutcome(at: clock.milliseconds(), range: range, expected: what, passed: passed, found: passed ? "" : found))
        if passed {
            report.lines.append("expect \(what): ok")
        } else {
            fail(range, "expected \(what), found \(found)", &report)
        }
    }

    private static func describe(_ pattern: TimelineExpectation.StatusPattern) -> String {
        switch pattern {
        case .pending: return "pending"
        case .available: return "available"
        case .invalidated(let reason): return reason.map { "invalidated(\($0))" } ?? "invalidated"
        }
    }

    private func suggestion(_ name: String, _ candidates: [String]) -> String {
        Suggestions.didYouMean(name, in: candidates).map { "; \($0)" } ?? ""
    }
}
