import TipAnalytics
import TipRuntime

/// What `tipc report` and `GET /v1/report` count, taken from a pack: each experiment's tip,
/// current salt, goal and arms, and every tip outside an experiment with its goal; and the
/// instant up to which records count. Stores count it (`ServiceStore.reportTallies`), or
/// `tallies(users:)` counts it over whole snapshots; `report(_:)` turns the counts into the
/// report.
///
/// The counts, per experiment and arm (a user is a unit: a user id in the service):
/// - assigned: users whose assignment for the experiment and its current salt names the arm
///   (assignments of another salt, or of an arm the pack no longer has, count nowhere);
/// - exposed: assigned users with a display of the tip carrying their arm, or an exposure
///   record of the experiment; their first exposure is the earliest such record;
/// - displays: displays of the tip carrying the arm, by users assigned to it;
/// - actions (per action id), closes (`tipClosed` invalidations): of the tip, by users
///   assigned to the arm;
/// - converted: exposed users who donated the goal event at or after their first exposure and
///   at most the goal's window after it.
/// Per tip outside experiments: users shown (with at least one display), displays, actions per
/// id, closes, invalidations per reason, and converted users shown (as above, from the first
/// display) when the tip has a goal. Only records, donations and assignments dated at or
/// before `at` count.
public struct ReportPlan: Sendable, Hashable {
    public struct Experiment: Sendable, Hashable {
        public var name: String
        public var tip: String
        public var salt: String
        public var goalEvent: String
        public var goalWindowMilliseconds: Int64
        /// The arms in declared order (the first is the baseline), with their weights.
        public var arms: [(name: String, weight: Int)]

        public static func == (a: Experiment, b: Experiment) -> Bool {
            a.name == b.name && a.tip == b.tip && a.salt == b.salt && a.goalEvent == b.goalEvent
                && a.goalWindowMilliseconds == b.goalWindowMilliseconds && a.arms.elementsEqual(b.arms, by: { $0 == $1 })
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(name)
            hasher.combine(salt)
        }

        public init(name: String, tip: String, salt: String, goalEvent: String, goalWindowMilliseconds: Int64, arms: [(name: String, weight: Int)]) {
            self.name = name
            self.tip = tip
            self.salt = salt
            self.goalEvent = goalEvent
            self.goalWindowMilliseconds = goalWindowMilliseconds
            self.arms = arms
        }

        /// The goal as a manifest writes it: `EVENT within DURATION`.
        public var goalText: String { "\(goalEvent) within \(DurationText.string(milliseconds: goalWindowMilliseconds))" }
    }

    public struct Tip: Sendable, Hashable {
        public var id: String
        public var goal: (event: String, windowMilliseconds: Int64)?

        public init(id: String, goal: (event: String, windowMilliseconds: Int64)?) {
            self.id = id
            self.goal = goal
        }

        public static func == (a: Tip, b: Tip) -> Bool {
            a.id == b.id && a.goal?.event == b.goal?.event && a.goal?.windowMilliseconds == b.goal?.windowMilliseconds
        }

        public func hash(into hasher: inout Hasher) { hasher.combine(id) }
    }

    public var experiments: [Experiment]
    /// The tips in no experiment, in the pack's order (none when the report is of one experiment).
    public var tips: [Tip]
    /// Milliseconds since 1970: what is dated later does not count.
    public var at: Int64

    /// A plan from its parts (`at` nil: everything).
    public init(experiments: [Experiment], tips: [Tip], at: Int64? = nil) {
        self.experiments = experiments
        self.tips = tips
        self.at = at ?? Int64.max
    }

    /// The plan for `pack`: every experiment and every tip outside one, or only the experiment
    /// named `experiment`; counting what is dated up to `at` (nil: everything).
    public init(pack: RulePack, experiment: String? = nil, at: Int64? = nil) throws(ReportPlanError) {
        let all = pack.experiments.map { experiment in
            Experiment(name: experiment.name, tip: pack.tips[experiment.tip].name, salt: experiment.salt,
                       goalEvent: pack.events[experiment.goal.event].name, goalWindowMilliseconds: experiment.goal.windowMilliseconds,
                       arms: experiment.arms.map { ($0.name, Int($0.weight)) })
        }
        if let experiment {
            guard let chosen = all.first(where: { $0.name == experiment }) else {
                throw ReportPlanError(experiment: experiment, known: all.map(\.name))
            }
            experiments = [chosen]
            tips = []
        } else {
            experiments = all
            let inExperiments = Set(pack.experiments.map(\.tip))
            tips = pack.tips.indices.filter { !inExperiments.contains($0) }.map { index in
                let tip = pack.tips[index]
                return Tip(id: tip.name, goal: tip.goal.map { (pack.events[$0.event].name, $0.windowMilliseconds) })
            }
        }
        self.at = at ?? Int64.max
    }

    /// The report from counts of this plan. Throws when the counts are impossible (more
    /// exposed than assigned, more converted than exposed): a store that no recording can
    /// have produced.
    public func report(_ tallies: ReportTallies) throws(ReportError) -> AnalyticsReport {
        var experimentReports: [ExperimentReport] = []
        for experiment in experiments {
            let counted = tallies.experiments[experiment.name] ?? [:]
            let arms = experiment.arms.map { arm in
                let tally = counted[arm.name] ?? ArmTally()
                return ArmCounts(name: arm.name, weight: arm.weight, assigned: tally.assigned, exposed: tally.exposed, displays: tally.displays,
                                 actions: tally.actions, closes: tally.closes, converted: tally.converted)
            }
            experimentReports.append(try ExperimentReport(name: experiment.name, tip: experiment.tip, goal: experiment.goalText, arms: arms))
        }
        let tipReports = tips.map { tip in
            let tally = tallies.tips[tip.id] ?? TipTally()
            return TipReport(id: tip.id, usersShown: tally.usersShown, displays: tally.displays, actions: tally.actions,
                             closes: tally.invalidations[InvalidationReason.tipClosed.rawValue] ?? 0, invalidations: tally.invalidations,
                             converted: tip.goal == nil ? nil : tally.converted)
        }
        return AnalyticsReport(experiments: experimentReports, tips: tipReports)
    }
}

/// One arm's counts (see `ReportPlan`).
public struct ArmTally: Sendable, Hashable {
    public var assigned = 0
    public var exposed = 0
    public var displays = 0
    public var actions: [String: Int] = [:]
    public var closes = 0
    public var converted = 0

    public init(assigned: Int = 0, exposed: Int = 0, displays: Int = 0, actions: [String: Int] = [:], closes: Int = 0, converted: Int = 0) {
        self.assigned = assigned
        self.exposed = exposed
        self.displays = displays
        self.actions = actions
        self.closes = closes
        self.converted = converted
    }
}

/// One tip's counts outside experiments (see `ReportPlan`); closes are the `tipClosed`
/// invalidations.
public struct TipTally: Sendable, Hashable {
    public var usersShown = 0
    public var displays = 0
    public var actions: [String: Int] = [:]
    public var invalidations: [String: Int] = [:]
    public var converted = 0

    public init(usersShown: Int = 0, displays: Int = 0, actions: [String: Int] = [:], invalidations: [String: Int] = [:], converted: Int = 0) {
        self.usersShown = usersShown
        self.displays = displays
        self.actions = actions
        self.invalidations = invalidations
        self.converted = converted
    }
}

/// What a store counted for a `ReportPlan`: per experiment name, per arm name; per tip id.
public struct ReportTallies: Sendable, Hashable {
    public var experiments: [String: [String: ArmTally]] = [:]
    public var tips: [String: TipTally] = [:]

    public init(experiments: [String: [String: ArmTally]] = [:], tips: [String: TipTally] = [:]) {
        self.experiments = experiments
        self.tips = tips
    }
}

/// `--experiment` (or `?experiment=`) names no experiment of the pack.
public struct ReportPlanError: Error, Sendable, Hashable, CustomStringConvertible {
    public var experiment: String
    public var known: [String]

    public var description: String {
        known.isEmpty ? "no experiment '\(experiment)': the pack has no experiments"
            : "no experiment '\(experiment)' in the pack; its experiments: \(known.joined(separator: ", "))"
    }
}
