/// A verified rule pack with what every runtime derives from the pack alone — name indexes,
/// the rule evaluator's fused code, each tip's windows and time comparisons — made once and
/// shared by every `TipCenter` opened with it. A device opens one runtime and needs none; a
/// service that opens a runtime per request (`tipc serve`) prepares its pack once instead of
/// on every request.
package final class PreparedRulePack: Sendable {
    package let verified: VerifiedRulePack
    let evaluator: RuleEvaluator
    let tipIndex: [String: Int]
    let parameterIndex: [String: Int]
    let eventIndex: [String: Int]
    /// For each tip, the group it belongs to (index into `pack.groups`).
    let groupOfTip: [Int?]
    /// For each tip, the windows its rules read.
    let windows: [[EventWindow]]
    /// For each tip, the comparisons of its rules whose outcome depends on `now`.
    let datedComparisons: [[NowComparison]]
    /// For each tip, the windows its rules read over other tips' records.
    let tipWindows: [[TipRecordWindow]]
    /// The events with a `maximumAge`, whose oldest donations expire as time passes.
    let agingEvents: [Int]
    /// For each tip, the experiment on it (index into `pack.experiments`), if any.
    let experimentOfTip: [Int?]
    /// For each experiment, how users are put in its arms (nil for weights that assign no
    /// one, which only a pack built in memory without verification can have: such an
    /// experiment is ignored).
    let experimentAssignments: [ExperimentAssignment?]

    package init(_ pack: VerifiedRulePack) {
        verified = pack
        evaluator = RuleEvaluator(pack: pack)
        let model = pack.pack
        tipIndex = Dictionary(model.tips.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        parameterIndex = Dictionary(model.parameters.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        eventIndex = Dictionary(model.events.enumerated().map { ($0.element.name, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var groupOfTip = [Int?](repeating: nil, count: model.tips.count)
        for (group, declaration) in model.groups.enumerated() {
            for tip in declaration.tips where groupOfTip[tip] == nil { groupOfTip[tip] = group }
        }
        self.groupOfTip = groupOfTip
        windows = model.tips.map { tip in
            var all: [EventWindow] = []
            for rule in tip.rules {
                for window in WindowAnalysis.windows(in: rule.code) where !all.contains(window) { all.append(window) }
            }
            return all
        }
        datedComparisons = model.tips.map { DatedWakeups.comparisons(inRules: $0.rules.map(\.code)) }
        tipWindows = model.tips.map { tip in
            var all: [TipRecordWindow] = []
            for rule in tip.rules {
                for window in WindowAnalysis.tipWindows(in: rule.code) where !all.contains(window) { all.append(window) }
            }
            return all
        }
        agingEvents = model.events.indices.filter { model.events[$0].maximumAgeMilliseconds != nil }
        var experimentOfTip = [Int?](repeating: nil, count: model.tips.count)
        for (index, experiment) in model.experiments.enumerated() where experimentOfTip.indices.contains(experiment.tip) {
            if experimentOfTip[experiment.tip] == nil { experimentOfTip[experiment.tip] = index }
        }
        self.experimentOfTip = experimentOfTip
        experimentAssignments = model.experiments.map { try? $0.assignment() }
    }
}
