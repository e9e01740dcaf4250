/// What the stores count for one arm of an experiment, from which its report is computed.
public struct ArmCounts: Sendable, Hashable {
    public var name: String
    public var weight: Int
    /// Users assigned to the arm.
    public var assigned: Int
    /// Users who saw the tip in this arm (in a hidden arm: who would have).
    public var exposed: Int
    public var displays: Int
    /// Taps per action id.
    public var actions: [String: Int]
    public var closes: Int
    /// Exposed users who converted.
    public var converted: Int

    public init(name: String, weight: Int, assigned: Int, exposed: Int, displays: Int = 0, actions: [String: Int] = [:],
                closes: Int = 0, converted: Int) {
        self.name = name
        self.weight = weight
        self.assigned = assigned
        self.exposed = exposed
        self.displays = displays
        self.actions = actions
        self.closes = closes
        self.converted = converted
    }
}

/// One experiment's report: per arm its counts, conversion rate and interval, and against
/// the baseline (the first arm) the difference, its interval and p-value; the sample ratio
/// check over all arms; and a verdict per arm unless the sample ratio is a mismatch.
public struct ExperimentReport: Sendable, Hashable, Codable {
    /// Fewer exposed users than this in an arm is too few to judge it.
    public static let minimumExposed = 100
    /// The significance level of a verdict.
    public static let alpha = 0.05

    public struct SampleRatio: Sendable, Hashable, Codable {
        /// nil when there is nothing to test (one arm with weight, or no users).
        public let pValue: Double?
        public let mismatch: Bool

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(pValue, forKey: .pValue)
            try container.encode(mismatch, forKey: .mismatch)
        }
    }

    public struct Difference: Sendable, Hashable, Codable {
        /// The arm's conversion rate minus the baseline's.
        public let value: Double
        public let interval: Interval
        public let pValue: Double
    }

    /// What the report concludes about an arm against the baseline.
    public enum Verdict: String, Sendable, Hashable, Codable {
        /// Significantly more of its users converted.
        case better
        /// Significantly fewer did.
        case worse
        /// No significant difference.
        case inconclusive
        /// This arm or the baseline has fewer than 100 exposed users.
        case tooFewUsers
    }

    public struct Arm: Sendable, Hashable, Codable {
        public let name: String
        public let weight: Int
        public let assigned: Int
        public let exposed: Int
        public let displays: Int
        public let actions: [String: Int]
        public let closes: Int
        public let converted: Int
        /// converted / exposed; nil without exposed users.
        public let conversionRate: Double?
        /// The Wilson 95% interval of the rate; nil without exposed users.
        public let interval: Interval?
        /// Against the baseline; nil for the baseline and when either has no exposed users.
        public let difference: Difference?
        public let tooFewUsers: Bool
        /// nil for the baseline, and for every arm when the sample ratio is a mismatch.
        public let verdict: Verdict?

        /// Every figure is written, `null` when there is none, except `difference` and
        /// `verdict`, which the baseline has not.
        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(name, forKey: .name)
            try container.encode(weight, forKey: .weight)
            try container.encode(assigned, forKey: .assigned)
            try container.encode(exposed, forKey: .exposed)
            try container.encode(displays, forKey: .displays)
            try container.encode(actions, forKey: .actions)
            try container.encode(closes, forKey: .closes)
            try container.encode(converted, forKey: .converted)
            try container.encode(conversionRate, forKey: .conversionRate)
            try container.encode(interval, forKey: .interval)
            try container.encodeIfPresent(difference, forKey: .difference)
            try container.encode(tooFewUsers, forKey: .tooFewUsers)
            try container.encodeIfPresent(verdict, forKey: .verdict)
        }
    }

    public let name: String
    public let tip: String
    /// The goal as written (`backyardFavorited within 7d`).
    public let goal: String?
    public let sampleRatio: SampleRatio
    /// The arms in declared order; the first is the baseline.
    public let arms: [Arm]

    /// The report of experiment `name` on `tip` from its arms' counts, the baseline first.
    public init(name: String, tip: String, goal: String?, arms counts: [ArmCounts]) throws(ReportError) {
        guard let baselineCounts = counts.first else { throw .noArms(experiment: name) }
        func proportion(_ arm: ArmCounts) throws(ReportError) -> Proportion {
            guard arm.weight >= 0, arm.assigned >= 0, arm.displays >= 0, arm.closes >= 0, arm.actions.values.allSatisfy({ $0 >= 0 }) else {
                throw .impossibleCounts(experiment: name, arm: arm.name, "a count or the weight is negative")
            }
            guard arm.exposed <= arm.assigned else {
                throw .impossibleCounts(experiment: name, arm: arm.name, "\(arm.exposed) exposed of \(arm.assigned) assigned")
            }
            do {
                return try Proportion(successes: arm.converted, trials: arm.exposed)
            } catch {
                throw .impossibleCounts(experiment: name, arm: arm.name, "\(arm.converted) converted of \(arm.exposed) exposed")
            }
        }
        let baseline = try proportion(baselineCounts)
        let check: SampleRatioCheck
        do {
            check = try SampleRatioCheck(assigned: counts.map(\.assigned), weights: counts.map(\.weight))
        } catch {
            throw .impossibleCounts(experiment: name, arm: baselineCounts.name, error.description)
        }
        var arms: [Arm] = []
        for (index, arm) in counts.enumerated() {
            let rate = try proportion(arm)
            let difference = index == 0 ? nil : ProportionDifference(rate, from: baseline)
            let tooFew = arm.exposed < Self.minimumExposed
            var verdict: Verdict?
            if index > 0, !check.mismatch {
                if tooFew || baseline.trials < Self.minimumExposed {
                    verdict = .tooFewUsers
                } else if let difference, difference.isSignificant(alpha: Self.alpha) {
                    verdict = difference.value > 0 ? .better : .worse
                } else {
                    verdict = .inconclusive
                }
            }
            arms.append(Arm(name: arm.name, weight: arm.weight, assigned: arm.assigned, exposed: arm.exposed, displays: arm.displays,
                            actions: arm.actions, closes: arm.closes, converted: arm.converted, conversionRate: rate.rate,
                            interval: rate.wilsonInterval,
                            difference: difference.map { Difference(value: $0.value, interval: $0.interval, pValue: $0.pValue) },
                            tooFewUsers: tooFew, verdict: verdict))
        }
        self.name = name
        self.tip = tip
        self.goal = goal
        sampleRatio = SampleRatio(pValue: check.pValue, mismatch: check.mismatch)
        self.arms = arms
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(tip, forKey: .tip)
        try container.encode(goal, forKey: .goal)
        try container.encode(sampleRatio, forKey: .sampleRatio)
        try container.encode(arms, forKey: .arms)
    }
}

/// A tip's figures without an experiment.
public struct TipReport: Sendable, Hashable, Codable {
    public let id: String
    /// Users who saw the tip at least once.
    public let usersShown: Int
    public let displays: Int
    /// Taps per action id.
    public let actions: [String: Int]
    public let closes: Int
    /// Invalidations per reason (`actionPerformed`, `tipClosed`, …).
    public let invalidations: [String: Int]
    /// Users who converted after first seeing the tip; nil when the tip has no goal.
    public let converted: Int?

    public init(id: String, usersShown: Int, displays: Int, actions: [String: Int], closes: Int,
                invalidations: [String: Int], converted: Int?) {
        self.id = id
        self.usersShown = usersShown
        self.displays = displays
        self.actions = actions
        self.closes = closes
        self.invalidations = invalidations
        self.converted = converted
    }
}

/// Counts that no recording can have produced, named by experiment and arm.
public enum ReportError: Error, Equatable, CustomStringConvertible {
    case noArms(experiment: String)
    case impossibleCounts(experiment: String, arm: String, String)

    public var description: String {
        switch self {
        case .noArms(let experiment): "experiment '\(experiment)' has no arms"
        case .impossibleCounts(let experiment, let arm, let detail): "experiment '\(experiment)', arm '\(arm)': \(detail)"
        }
    }
}
