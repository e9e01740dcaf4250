import TipRuntime

extension ReportPlan {
    /// The plan's counts over users given whole, one snapshot each: the definition in Swift
    /// (device stores are counted so), which the service stores' SQL gives too. Names compare
    /// by their bytes, as SQL compares them.
    public func tallies(users: some Sequence<StoreSnapshot>) -> ReportTallies {
        var tallies = ReportTallies()
        for user in users {
            for experiment in experiments { count(experiment, user, into: &tallies) }
            for tip in tips { count(tip, user, into: &tallies) }
        }
        return tallies
    }

    private func count(_ experiment: Experiment, _ user: StoreSnapshot, into tallies: inout ReportTallies) {
        guard let assignment = user.assignments[AssignmentRecord.Key(experiment: experiment.name, salt: experiment.salt)],
              assignment.date <= at,
              let arm = experiment.arms.first(where: { Self.same($0.name, assignment.arm) })?.name else { return }
        var tally = tallies.experiments[experiment.name, default: [:]][arm, default: ArmTally()]
        tally.assigned += 1
        var firstExposure: Int64?
        for record in user.tipRecords.values where Self.same(record.tip, experiment.tip) && record.date <= at {
            let carriesArm = record.arm.map { Self.same($0, arm) } ?? false
            switch record.kind {
            case .display(let count, _) where carriesArm:
                tally.displays += Int(count)
                if count > 0 { firstExposure = min(firstExposure ?? record.date, record.date) }
            case .exposure(let name) where carriesArm && Self.same(name, experiment.name):
                firstExposure = min(firstExposure ?? record.date, record.date)
            case .action(let id):
                tally.actions[id, default: 0] += 1
            case .invalidation(.tipClosed):
                tally.closes += 1
            default:
                break
            }
        }
        if let firstExposure {
            tally.exposed += 1
            if converts(user, after: firstExposure, event: experiment.goalEvent, within: experiment.goalWindowMilliseconds) { tally.converted += 1 }
        }
        tallies.experiments[experiment.name, default: [:]][arm] = tally
    }

    private func count(_ tip: Tip, _ user: StoreSnapshot, into tallies: inout ReportTallies) {
        var tally = tallies.tips[tip.id, default: TipTally()]
        var firstDisplay: Int64?
        for record in user.tipRecords.values where Self.same(record.tip, tip.id) && record.date <= at {
            switch record.kind {
            case .display(let count, _):
                tally.displays += Int(count)
                if count > 0 { firstDisplay = min(firstDisplay ?? record.date, record.date) }
            case .action(let id):
                tally.actions[id, default: 0] += 1
            case .invalidation(let reason):
                tally.invalidations[reason.rawValue, default: 0] += 1
            case .reset, .exposure:
                break
            }
        }
        if let firstDisplay {
            tally.usersShown += 1
            if let goal = tip.goal, converts(user, after: firstDisplay, event: goal.event, within: goal.windowMilliseconds) { tally.converted += 1 }
        }
        tallies.tips[tip.id] = tally
    }

    /// Whether `user` donated `event` from `start` to `window` after it (both ends included).
    private func converts(_ user: StoreSnapshot, after start: Int64, event: String, within window: Int64) -> Bool {
        user.donations.values.contains { donation in
            Self.same(donation.event, event) && donation.date >= start && donation.date - start <= window && donation.date <= at
        }
    }

    private static func same(_ a: String, _ b: String) -> Bool { a.utf8.elementsEqual(b.utf8) }
}
