#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a tip is or is not shown now: its status, every rule's value with the values of its
/// sub-expressions, and each gate of the display decision (what `tipc explain` prints).
public struct TipExplanation: Sendable, Hashable {
    /// One of the tip's rules, evaluated.
    public struct Rule: Sendable, Hashable {
        /// The rule's position among the tip's rules, from 0.
        public var index: Int
        /// Whether it held, or why it could not be evaluated (a rule that fails is false).
        public var outcome: RuleOutcome
        /// Where the rule is written, if the pack has debug information.
        public var range: PackSourceRange?
        /// Sub-expression values by source range, outermost first (ranges containing others
        /// come before them). Values computed inside a `where` predicate are left out.
        public var values: [(range: PackSourceRange, value: TraceValue)]

        public static func == (a: Rule, b: Rule) -> Bool {
            a.index == b.index && a.outcome == b.outcome && a.range == b.range
                && a.values.map(\.range) == b.values.map(\.range) && a.values.map(\.value) == b.values.map(\.value)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(index)
            hasher.combine(outcome)
        }
    }

    /// The tip explained, with its key for a keyed tip (`newTrail[42]`).
    public var tip: String
    /// The instant explained, in milliseconds since 1970 (`now` for apps).
    package var nowMilliseconds: Int64
    /// The tip's status: pending, available or invalidated.
    public var status: TipStatus
    /// Whether the tip should display now (`TipCenter.shouldDisplay`).
    public var shouldDisplay: Bool
    /// Every rule of the tip, in declared order.
    public var rules: [Rule]
    /// The minimum gap between tips (0: immediate), and when the gap lets this tip display
    /// (nil: it does now, or the tip is exempt or already displayed).
    package var displayFrequencyMilliseconds: Int64
    /// Whether the tip is exempt from the display frequency.
    public var ignoresDisplayFrequency: Bool
    package var frequencyGateOpensMilliseconds: Int64?
    /// The tip's group, its priority, and the tip the group offers now (nil: none).
    public var group: (name: String, priority: PackGroupPriority, offered: String?)?
    /// Displays since the tip's latest reset, over every device.
    public var displayCount: Int64
    /// The displays after which the tip is invalidated (nil: no limit).
    public var maxDisplayCount: Int64?
    package var displayDurationMilliseconds: Int64
    package var maxDisplayDurationMilliseconds: Int64?
    /// The testing override that decides the tip, if any (true: shown, false: hidden).
    public var override: Bool?
    /// The tip's experiment and the user's arm in it (stored, or the one hashing gives until
    /// it is first needed); nil when the tip is in no experiment.
    public var experiment: (name: String, arm: String, isHidden: Bool, isStored: Bool)?

    /// The instant explained.
    public var now: Date { Date(millisecondsSince1970: nowMilliseconds) }
    /// The minimum gap between tips (0: immediate).
    public var displayFrequency: TimeInterval { Milliseconds.seconds(displayFrequencyMilliseconds) }
    /// When the gap lets this tip display (nil: it does now, or the tip is exempt or already displayed).
    public var frequencyGateOpens: Date? { frequencyGateOpensMilliseconds.map(Date.init(millisecondsSince1970:)) }
    /// Time on screen since the tip's latest reset.
    public var displayDuration: TimeInterval { Milliseconds.seconds(displayDurationMilliseconds) }
    /// The time on screen after which the tip is invalidated (nil: no limit).
    public var maxDisplayDuration: TimeInterval? { maxDisplayDurationMilliseconds.map(Milliseconds.seconds) }

    public static func == (a: TipExplanation, b: TipExplanation) -> Bool {
        a.tip == b.tip && a.nowMilliseconds == b.nowMilliseconds && a.status == b.status && a.shouldDisplay == b.shouldDisplay && a.rules == b.rules
            && a.frequencyGateOpensMilliseconds == b.frequencyGateOpensMilliseconds && a.group?.offered == b.group?.offered
            && a.displayCount == b.displayCount && a.displayDurationMilliseconds == b.displayDurationMilliseconds
            && a.override == b.override && a.experiment?.name == b.experiment?.name && a.experiment?.arm == b.experiment?.arm
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(tip)
        hasher.combine(nowMilliseconds)
    }
}

extension TipCenter {
    /// Explains the tip's status and display decision now (every rule evaluated and traced):
    /// `tip(named:key:)`'s `explanation`.
    public func explanation(of tip: String, key: TipKey? = nil) throws(TipError) -> TipExplanation {
        try self.tip(named: tip, key: key).explanation
    }
}

extension EngineState {
    /// The explanation of `index` (its instance `key`) at `now`.
    func explanation(of index: Int, key: TipKey?, now: Int64) -> TipExplanation {
        let tip = model.tips[index].name
        let declaration = model.tips[index]
        var rules: [TipExplanation.Rule] = []
        for (ruleIndex, rule) in declaration.rules.enumerated() {
            let (outcome, trace) = evaluator.trace(tip: index, rule: ruleIndex, parameters: parameters,
                                                          store: donations, now: now,
                                                          instance: RuleInstance(key: key, records: records))
            rules.append(TipExplanation.Rule(index: ruleIndex, outcome: outcome, range: rule.range,
                                             values: TipCenter.values(of: trace, sourceMap: rule.sourceMap)))
        }
        let record = history(of: index, key: key)
        var group: (String, PackGroupPriority, String?)?
        if let groupIndex = groupOfTip[index] {
            let declaration = model.groups[groupIndex]
            group = (declaration.name, declaration.priority,
                     offeredTip(inGroup: groupIndex, now: now).map { model.tips[$0].name })
        }
        return TipExplanation(
            tip: TipInstance(tip: tip, key: key).description, nowMilliseconds: now, status: status(of: index, key: key, now: now),
            shouldDisplay: shouldDisplay(index, key: key, now: now),
            rules: rules, displayFrequencyMilliseconds: model.displayFrequencyMilliseconds,
            ignoresDisplayFrequency: declaration.ignoresDisplayFrequency,
            frequencyGateOpensMilliseconds: frequencyGateOpens(for: index, key: key, now: now), group: group,
            displayCount: record.displayCount, maxDisplayCount: declaration.maxDisplayCount,
            displayDurationMilliseconds: record.displayDurationMilliseconds,
            maxDisplayDurationMilliseconds: declaration.maxDisplayDurationMilliseconds,
            override: overrides.verdict(for: tip),
            experiment: armChoice(ofTip: index).map { ($0.experiment.name, $0.arm.name, $0.arm.isHidden, $0.assignment != nil) })
    }
}

extension TipCenter {
    /// The last value traced for each source range (outside `where` predicates), ordered so
    /// that a range comes before the ranges it contains.
    static func values(of trace: [TraceEntry], sourceMap: [SourceMapEntry]) -> [(range: PackSourceRange, value: TraceValue)] {
        var byRange: [PackSourceRange: TraceValue] = [:]
        var order: [PackSourceRange] = []
        for entry in trace where entry.donation == nil {
            guard let mapped = sourceMap.last(where: { Int($0.pc) == entry.pc }) else { continue }
            if byRange.updateValue(entry.value, forKey: mapped.range) == nil { order.append(mapped.range) }
        }
        let sorted = order.sorted { a, b in
            let aStart = (a.startLine, a.startColumn), bStart = (b.startLine, b.startColumn)
            if aStart != bStart { return aStart < bStart }
            return (a.endLine, a.endColumn) > (b.endLine, b.endColumn)
        }
        return sorted.map { ($0, byRange[$0]!) }
    }
}

extension TipExplanation {
    /// Why the tip is not displayed now, in one line (nil when it is): the testing override
    /// that hides it, the reason it is invalidated, the first rule that does not hold, the
    /// user's hidden experiment arm, the instant the display frequency lets a new tip show, or
    /// the tip its group offers instead.
    /// `tipc explain`, `tipc simulate`, the preview and the tip service all say it this way.
    public var reasonNotDisplayed: String? {
        guard !shouldDisplay else { return nil }
        return Self.reasonNotDisplayed(
            override: override, status: status,
            firstRuleNotHolding: { rules.first(where: { !$0.outcome.holds }).map { ($0.index, $0.outcome) } },
            hiddenArm: experiment.flatMap { $0.isHidden ? (experiment: $0.name, arm: $0.arm) : nil },
            frequencyGateOpensMilliseconds: { frequencyGateOpensMilliseconds },
            group: { group.map { (name: $0.name, offered: $0.offered) } })
    }

    /// The one wording of `reasonNotDisplayed`, for a tip that is not displayed, from the gates
    /// in the order they decide. A gate's fact is asked for only when the gates before it let
    /// the tip through, so that a caller without an explanation (the tip service) computes no
    /// more than the reason needs: the first rule that does not hold, not every rule traced.
    static func reasonNotDisplayed(override: Bool?, status: TipStatus,
                                   firstRuleNotHolding: () -> (index: Int, outcome: RuleOutcome)?,
                                   hiddenArm: (experiment: String, arm: String)?,
                                   frequencyGateOpensMilliseconds: () -> Int64?,
                                   group: () -> (name: String, offered: String?)?) -> String {
        if override == false { return "hidden by a testing override" }
        switch status {
        case .invalidated(let reason): return "invalidated (\(reason.rawValue))"
        case .pending:
            if let rule = firstRuleNotHolding() {
                if case .failed(let failure, _) = rule.outcome { return "pending: rule \(rule.index + 1) failed (\(failure))" }
                return "pending: rule \(rule.index + 1) does not hold"
            }
            return "pending"
        case .available: break
        }
        if let hiddenArm { return "hidden arm '\(hiddenArm.arm)' of experiment '\(hiddenArm.experiment)': never displayed" }
        if let opens = frequencyGateOpensMilliseconds() {
            return "display frequency: no new tip before \(ISO8601.string(fromMilliseconds: Int(opens)))"
        }
        if let group = group() {
            if let offered = group.offered { return "group '\(group.name)' offers '\(offered)' first" }
            return "group '\(group.name)' offers no tip now"
        }
        return "not displayed"
    }
}
