/// A tip's experiment and the user's arm in it.
public struct TipExperimentArm: Sendable, Hashable {
    /// The experiment the tip is in.
    public var experiment: PackExperiment
    /// The arm the user is in: the stored one, or the one the unit hashes to.
    public var arm: PackExperimentArm
    /// The user's stored assignment for the experiment's current salt; nil until the arm is
    /// first needed (the arm then comes from hashing the unit).
    public var assignment: AssignmentRecord?

    package init(experiment: PackExperiment, arm: PackExperimentArm, assignment: AssignmentRecord?) {
        self.experiment = experiment
        self.arm = arm
        self.assignment = assignment
    }
}

extension EngineState {
    /// The user's arm in the experiment on `tip`, without storing anything: the arm of the
    /// stored assignment for the experiment's current salt while the pack still has that arm
    /// (whatever the weights are now), else the arm the unit hashes to. Nil when the tip is in
    /// no experiment.
    func armChoice(ofTip tip: Int) -> TipExperimentArm? {
        guard let index = prepared.experimentOfTip[tip], let assignment = prepared.experimentAssignments[index] else { return nil }
        let experiment = model.experiments[index]
        let stored = assignments[AssignmentRecord.Key(experiment: experiment.name, salt: experiment.salt)]
        if let stored, let arm = experiment.arms.first(where: { $0.name.utf8.elementsEqual(stored.arm.utf8) }) {
            return TipExperimentArm(experiment: experiment, arm: arm, assignment: stored)
        }
        let hashed = assignment.armIndex(forBucket: assignment.bucket(for: assignmentUnit))
        return TipExperimentArm(experiment: experiment, arm: experiment.arms[hashed], assignment: stored)
    }

    /// The user's arm in the experiment on `tip`, with the assignment to store when none is
    /// stored for the experiment's current salt (kept in this state already). An assignment
    /// stored for an arm the pack no longer has keeps holding (the earliest holds, wherever
    /// stores merge): the user's arm is then the hashed one, and nothing new is stored.
    mutating func assignArm(ofTip tip: Int, now: Int64) -> (choice: TipExperimentArm, new: AssignmentRecord?)? {
        guard var choice = armChoice(ofTip: tip) else { return nil }
        guard choice.assignment == nil else { return (choice, nil) }
        let record = AssignmentRecord(experiment: choice.experiment.name, salt: choice.experiment.salt, arm: choice.arm.name, date: now)
        assignments[record.key] = record
        choice.assignment = record
        return (choice, record)
    }

    /// Goes back to `earlier` after a failed change, keeping the assignments stored meanwhile.
    mutating func rollBack(to earlier: EngineState) {
        let stored = assignments
        self = earlier
        assignments = stored
    }

    /// The exposure to record when `tip` (its instance `key`) is in a hidden arm and would
    /// display now (available, and the display frequency and its group allow it), unless an
    /// exposure of the experiment was recorded since the current assignment was made (on
    /// any instance: all of them share the arm) or a testing override decides the tip.
    mutating func exposure(ofTip tip: Int, key: TipKey?, choice: TipExperimentArm, now: Int64) throws(TipError) -> TipEventRecord? {
        guard choice.arm.isHidden, overrides.verdict(for: model.tips[tip].name) == nil, wouldDisplay(tip, key: key, now: now) else { return nil }
        let experiment = choice.experiment.name
        let since = choice.assignment?.date ?? .min
        let exposed = records.containsRecord(ofTip: tip) { record in
            guard case .exposure(let name) = record.kind else { return false }
            return name.utf8.elementsEqual(experiment.utf8) && record.date >= since
        }
        guard !exposed else { return nil }
        let record = TipEventRecord(tip: model.tips[tip].name, key: key, stamp: try stamp(at: now), kind: .exposure(experiment: experiment),
                                    date: now, arm: choice.arm.name)
        records = records.adding(record, tip: tip)
        return record
    }
}

extension TipCenter {
    /// The user's arm in the experiment on `tip`, or nil when the tip is in none. The first
    /// time a tip's arm is needed, the assignment (experiment, salt, arm, date, a random id)
    /// is stored: later packs that change the weights keep the user in it; a new salt, or an
    /// arm that no longer exists, assigns afresh. Every instance of a keyed tip shares the arm.
    public func arm(of tip: String) throws(TipError) -> TipExperimentArm? {
        let now = clock.milliseconds()
        return try state.withLock { (engine: inout EngineState) throws(TipError) -> TipExperimentArm? in
            guard let index = engine.tipIndex[tip] else { throw .unknownTip(tip) }
            return try neededArm(ofTip: index, &engine, now: now)
        }
    }

    /// `Tip.arm`: `arm(of:)` that does not throw. When the store refuses a new assignment, the
    /// arm the unit hashes to, left unstored for the next query to store.
    func arm(_ tip: Tip) -> TipExperimentArm? {
        let now = clock.milliseconds()
        return state.withLock { engine in
            let index = engine.index(ofKeptTip: tip.name)
            do throws(TipError) {
                return try neededArm(ofTip: index, &engine, now: now)
            } catch {
                return engine.armChoice(ofTip: index)
            }
        }
    }

    /// `arm(of:)` under the lock: stores the assignment when it is new; on a store failure
    /// the state is unchanged.
    func neededArm(ofTip tip: Int, _ engine: inout EngineState, now: Int64) throws(TipError) -> TipExperimentArm? {
        guard let (choice, new) = engine.assignArm(ofTip: tip, now: now) else { return nil }
        if let new {
            do throws(TipStoreError) {
                try persistence.assign([new])
            } catch {
                engine.assignments[new.key] = nil
                throw .store(error)
            }
        }
        return choice
    }

    /// Before a display decision of `tip` in an experiment: stores the user's assignment if
    /// it is new, and, for a hidden arm whose tip would display now, its one exposure record.
    func settleExperiment(ofTip tip: Int, key: TipKey?, _ engine: inout EngineState, now: Int64) throws(TipError) {
        guard let choice = try neededArm(ofTip: tip, &engine, now: now) else { return }
        let before = engine
        guard let exposure = try engine.exposure(ofTip: tip, key: key, choice: choice, now: now) else { return }
        do throws(TipStoreError) {
            try persistence.add([exposure], latestFirstDisplay: nil)
        } catch {
            engine = before
            throw .store(error)
        }
    }
}
