
/// The runtime: tips of a verified rule pack, their status and display decisions with
/// TipKit's semantics, over a persistent store and an injected clock.
///
/// Safe to call from many threads and tasks at once: all state sits behind one lock, and
/// every write reaches the store (durably) before the call returns.
public final class TipCenter: Sendable {
    let state: RuntimeLock<EngineState>
    let observers: RuntimeLock<ObserverRegistry>
    let persistence: any TipPersistence
    let clock: any TipClock

    /// Opens a runtime over `persistence`, loading its parameters, tips and donations.
    /// - Parameter assignmentUnit: who is put in experiments' arms (e.g. the app's account id,
    ///   so that the user has one arm on all their devices); nil: the store's device id.
    public convenience init(pack: VerifiedRulePack, persistence: any TipPersistence, clock: any TipClock = SystemClock(),
                            assignmentUnit: String? = nil) throws(TipError) {
        try self.init(pack: PreparedRulePack(pack), persistence: persistence, clock: clock, assignmentUnit: assignmentUnit)
    }

    /// Opens a runtime over `persistence` with a pack prepared once for many runtimes.
    package init(pack: PreparedRulePack, persistence: any TipPersistence, clock: any TipClock = SystemClock(),
                assignmentUnit: String? = nil) throws(TipError) {
        self.persistence = persistence
        self.clock = clock
        var engine = EngineState(prepared: pack, deviceID: persistence.deviceID, assignmentUnit: assignmentUnit)
        do throws(TipStoreError) {
            try engine.load(from: persistence, now: clock.milliseconds())
        } catch {
            throw .store(error)
        }
        state = RuntimeLock(engine)
        observers = RuntimeLock(ObserverRegistry())
    }

    /// Who is put in experiments' arms: the unit the runtime was opened with, else the store's
    /// device id.
    public var assignmentUnit: String { state.withLock { $0.assignmentUnit } }

    /// The pack this runtime evaluates.
    public var pack: RulePack { state.withLock { $0.model } }

    /// The current instant of the runtime's clock.
    /// The current instant in milliseconds since 1970 (`now` for apps).
    package var nowMilliseconds: Int64 { clock.milliseconds() }

    // MARK: - Parameters

    /// Sets a parameter. A value of the wrong type (or outside an enum-like parameter's
    /// `values`, or a Double that is not finite) is refused and changes nothing. Transient
    /// parameters are not persisted.
    public func setParameter(_ name: String, to value: RuntimeValue) throws(TipError) {
        try setParameters([name: value])
    }

    /// Sets several parameters together: all are checked before any changes.
    public func setParameters(_ values: [String: RuntimeValue]) throws(TipError) {
        let now = clock.milliseconds()
        try mutate { (engine: inout EngineState) throws(TipError) in
            var updated = engine.parameters
            var persisted: [(String, RuntimeValue)] = []
            // Every value is checked before anything, the stamp clock included, changes.
            for (name, value) in values.sorted(by: { $0.key < $1.key }) {
                guard let index = engine.parameterIndex[name] else { throw .unknownParameter(name) }
                let declaration = engine.model.parameters[index]
                if let refusal = declaration.refusal(of: value) { throw refusal }
                try? updated.set(index, to: value)
                if !declaration.isTransient { persisted.append((name, value)) }
            }
            var writes: [(String, ParameterRecord)] = []
            for (name, value) in persisted {
                writes.append((name, ParameterRecord(value: value, stamp: try engine.stamp(at: now))))
            }
            if !writes.isEmpty {
                try stored { () throws(TipStoreError) in
                    try persistence.write(parameters: Dictionary(writes, uniquingKeysWith: { _, last in last }))
                }
            }
            engine.parameters = updated
        }
    }

    /// A parameter's current value: `parameter(named:)`'s `value` (the pair of
    /// `setParameter(_:to:)`).
    public func parameterValue(_ name: String) throws(TipError) -> RuntimeValue {
        try parameter(named: name).value
    }

    // MARK: - Events

    /// `donate(_:value:at:)` at an instant in milliseconds since 1970.
    @discardableResult
    package func donate(_ event: String, value: [String: RuntimeValue] = [:], at date: Int64) throws(TipError) -> DonationRecord {
        try donate([PendingDonation(event: event, milliseconds: date, value: value)])[0]
    }

    /// Donates several events in one durable transaction: all are checked (a date outside the
    /// years 0000–9999 included) before any is stored.
    @discardableResult
    public func donate(_ batch: [PendingDonation]) throws(TipError) -> [DonationRecord] {
        let now = clock.milliseconds()
        return try mutate { (engine: inout EngineState) throws(TipError) -> [DonationRecord] in
            var indexed: [(event: Int, payload: [RuntimeValue])] = []
            for donation in batch {
                guard let event = engine.eventIndex[donation.event] else { throw .donation(.unknownEventName(donation.event)) }
                guard RecordBounds.contains(donation.milliseconds) else { throw .donation(.dateOutOfRange(event: donation.event, date: donation.milliseconds)) }
                do throws(DonationError) {
                    indexed.append((event, try engine.orderedPayload(event: event, donation.value)))
                } catch {
                    throw .donation(error)
                }
            }
            let records = batch.map { $0.record() }
            try stored { () throws(TipStoreError) in try persistence.append(records) }
            // A donation dated at or before its event's deletion is stored but does not count.
            for (donation, entry) in zip(batch, indexed) where !engine.isDeleted(event: donation.event, date: donation.milliseconds) {
                try? engine.donations.donate(event: entry.event, at: donation.milliseconds, payload: entry.payload)
            }
            engine.expireDonations(now: now)
            trimStore(events: Set(indexed.map(\.event)), engine.model, now: now)
            return records
        }
    }

    /// Applies the `donationLimit` of `events` to the store at `now`. Housekeeping only: the
    /// donations are durable and acknowledged before it runs, so a trim that fails (another
    /// process holding the lock) is left to the next one and never reported as a failed write.
    private func trimStore(events: Set<Int>, _ model: RulePack, now: Int64) {
        for event in events.sorted() {
            let declaration = model.events[event]
            guard declaration.maximumCount != nil || declaration.maximumAgeMilliseconds != nil else { continue }
            do {
                try persistence.trim(event: declaration.name, maximumCount: declaration.maximumCount,
                                     maximumAgeMilliseconds: declaration.maximumAgeMilliseconds, now: now)
            } catch {
                continue
            }
        }
    }

    /// The number of donations of `event` held for evaluation now (nil: the pack has no such
    /// event): `event(named:)`'s `donationCount`.
    public func donationCount(of event: String) -> Int? {
        (try? self.event(named: event))?.donationCount
    }

    // MARK: - Tips

    /// The tip's status now (of its instance `key`, for a keyed tip): `tip(named:key:)`'s `status`.
    public func status(of tip: String, key: TipKey? = nil) throws(TipError) -> TipStatus {
        try self.tip(named: tip, key: key).status
    }

    /// Every tip's status now, by name, from one pass of the VM over the whole pack. A keyed
    /// tip has no status of its own (each instance has one) and is not listed.
    public func statuses() -> [String: TipStatus] {
        let now = clock.milliseconds()
        return state.withLock { engine in
            engine.expireDonations(now: now)
            let satisfied = engine.evaluator.satisfiedTips(parameters: engine.parameters, store: engine.donations, now: now,
                                                           records: engine.records)
            var result: [String: TipStatus] = [:]
            result.reserveCapacity(satisfied.count)
            for (index, tip) in engine.model.tips.enumerated() where tip.key == nil {
                if let reason = engine.invalidation(of: index) {
                    result[tip.name] = .invalidated(reason)
                } else {
                    result[tip.name] = satisfied[index] ? .available : .pending
                }
            }
            return result
        }
    }

    /// Whether the tip should display now: `tip(named:key:)`'s `shouldDisplay`. A tip in a
    /// hidden experiment arm never displays, and the first time it would have, one exposure
    /// record is stored instead. Unlike the reference's, this throws `TipError.store` when the
    /// store refused the user's arm or exposure (the refused record was not stored; the next
    /// decision tries again), for a caller that must know, such as a reader over a read-only snapshot.
    public func shouldDisplay(_ tip: String, key: TipKey? = nil) throws(TipError) -> Bool {
        let decision = decide(try self.tip(named: tip, key: key))
        if let unstored = decision.unstored { throw unstored }
        return decision.shouldDisplay
    }

    /// The display decision of `tip` now, storing the user's arm (and a hidden arm's exposure)
    /// when the tip is in an experiment. A store that refuses them changes nothing (`unstored`
    /// says why), and the decision is the same: the arm is the one the unit hashes to until one
    /// is stored.
    func decide(_ tip: Tip) -> (shouldDisplay: Bool, unstored: TipError?) {
        let now = clock.milliseconds()
        return state.withLock { engine in
            let index = engine.index(ofKeptTip: tip.name)
            engine.expireDonations(now: now)
            var unstored: TipError?
            do throws(TipError) {
                try settleExperiment(ofTip: index, key: tip.key, &engine, now: now)
            } catch {
                unstored = error
            }
            return (engine.shouldDisplay(index, key: tip.key, now: now), unstored)
        }
    }

    /// Displays since the tip's (instance's) latest reset, over all devices.
    public func displayCount(of tip: String, key: TipKey? = nil) throws(TipError) -> Int64 {
        try self.tip(named: tip, key: key).displayCount
    }

    /// `displayDuration(of:key:)` in milliseconds.
    package func displayDurationMilliseconds(of tip: String, key: TipKey? = nil) throws(TipError) -> Int64 {
        read(try self.tip(named: tip, key: key)) { engine, index, _ in engine.history(of: index, key: key).displayDurationMilliseconds }
    }

    /// `recordDisplay(_:key:duration:)` with the time on screen in milliseconds.
    package func recordDisplay(_ tip: String, key: TipKey? = nil, milliseconds: Int64) throws(TipError) {
        try recordDisplay(tip, key: key, count: 1, milliseconds: milliseconds)
    }

    /// `recordDisplayDuration(_:key:duration:)` in milliseconds.
    package func recordDisplayDuration(_ tip: String, key: TipKey? = nil, milliseconds: Int64) throws(TipError) {
        try recordDisplay(tip, key: key, count: 0, milliseconds: milliseconds)
    }

    private func recordDisplay(_ tip: String, key: TipKey?, count: Int64, milliseconds: Int64) throws(TipError) {
        let now = clock.milliseconds()
        try writeTip(tip, key: key) { engine, index throws(TipError) in
            let arm = try neededArm(ofTip: index, &engine, now: now)?.arm.name
            return try engine.recordDisplay(index, key: key, count: count, milliseconds: milliseconds, now: now, arm: arm)
        }
    }

    /// Invalidates the tip; a tip already invalidated keeps its first reason.
    public func invalidate(_ tip: String, key: TipKey? = nil, reason: InvalidationReason) throws(TipError) {
        let now = clock.milliseconds()
        try writeTip(tip, key: key) { engine, index throws(TipError) in try engine.invalidate(index, key: key, reason: reason, now: now) }
    }

    /// `recordAction(_:action:key:id:at:)` dated in milliseconds since 1970 (nil: now).
    @discardableResult
    package func recordAction(_ tip: String, action: String, key: TipKey? = nil, id: String = RecordID.random(),
                              at date: Int64?) throws(TipError) -> (record: TipEventRecord, isNew: Bool) {
        let now = clock.milliseconds()
        if let date, !RecordBounds.contains(date) {
            throw .invalidAction("the action's date \(date) ms is outside \(RecordBounds.description); nothing was recorded")
        }
        guard !id.isEmpty else { throw .invalidAction("an action's id cannot be empty; nothing was recorded") }
        return try mutate { (engine: inout EngineState) throws(TipError) -> (record: TipEventRecord, isNew: Bool) in
            let index = try engine.resolve(tip, key: key)
            let before = engine
            let (record, isNew) = try engine.recordAction(index, key: key, action: action, id: id, date: date ?? now, now: now)
            guard isNew else { return (record, false) }
            do throws(TipStoreError) {
                try persistence.add([record], latestFirstDisplay: nil)
            } catch {
                engine = before
                throw .store(error)
            }
            return (record, true)
        }
    }

    /// Makes the tip eligible again, with its display count and duration restarted.
    public func resetEligibility(_ tip: String, key: TipKey? = nil) throws(TipError) {
        let now = clock.milliseconds()
        try writeTip(tip, key: key) { engine, index throws(TipError) in try engine.resetEligibility(index, key: key, now: now) }
    }

    /// Clears everything: donations, parameters, tips' records, the frequency gap.
    public func resetDatastore() throws(TipError) {
        try mutate { (engine: inout EngineState) throws(TipError) in
            try stored { () throws(TipStoreError) in try persistence.clear() }
            engine.clear()
        }
    }

    // MARK: - Testing overrides (not persisted)

    /// Every tip should display, whatever its rules, eligibility and the display frequency say
    /// (TipKit's `Tips.showAllTipsForTesting()`).
    public func showAllTipsForTesting() { updateOverrides { $0.showAll = true } }
    /// No tip should display (TipKit's `Tips.hideAllTipsForTesting()`).
    public func hideAllTipsForTesting() { updateOverrides { $0.hideAll = true } }
    /// These tips should display, whatever else says (TipKit's `Tips.showTipsForTesting(_:)`).
    public func showTipsForTesting(_ tips: [String]) { updateOverrides { $0.shown.formUnion(tips) } }
    /// These tips should not display (TipKit's `Tips.hideTipsForTesting(_:)`).
    public func hideTipsForTesting(_ tips: [String]) { updateOverrides { $0.hidden.formUnion(tips) } }
    /// Removes every testing override.
    public func clearTestingOverrides() { updateOverrides { $0 = TestingOverrides() } }

    /// The testing overrides in force.
    public var testingOverrides: TestingOverrides { state.withLock { $0.overrides } }

    private func updateOverrides(_ change: (inout TestingOverrides) -> Void) {
        try? mutate { (engine: inout EngineState) throws(TipError) in change(&engine.overrides) }
    }

    // MARK: - Sync

    /// Everything stored, as one value (export, sync).
    public func snapshot() throws(TipError) -> StoreSnapshot {
        try stored { () throws(TipStoreError) in try persistence.load() }
    }

    /// Merges another store's snapshot into this one (the rules in docs/runtime.md, "Merge") in one store
    /// transaction that only adds what this store lacks, then reloads: what other writers
    /// stored meanwhile is kept and seen. A snapshot with a record dated or stamped outside the
    /// years 0000–9999 is refused before anything is written.
    public func merge(_ other: StoreSnapshot) throws(TipError) {
        let now = clock.milliseconds()
        try stored { () throws(TipStoreError) in try other.validate() }
        try mutate { (engine: inout EngineState) throws(TipError) in
            try stored { () throws(TipStoreError) in try persistence.merge(other) }
            trimStore(events: Set(engine.model.events.indices), engine.model, now: now)
            var reloaded = engine
            try stored { () throws(TipStoreError) in try reloaded.load(from: persistence, now: now) }
            engine = reloaded
        }
    }

    // MARK: - Plumbing

    /// Runs a store call, turning its failure into `TipError.store`.
    func stored<T>(_ body: () throws(TipStoreError) -> T) throws(TipError) -> T {
        do {
            return try body()
        } catch {
            throw .store(error)
        }
    }

    /// Runs a change under the lock, then tells observers what changed.
    func mutate<T>(_ change: (inout EngineState) throws(TipError) -> T) throws(TipError) -> T {
        let result = try state.withLock { (engine: inout EngineState) throws(TipError) -> T in try change(&engine) }
        publish()
        return result
    }

    /// Changes one tip's history and stores the records the change made; on a store failure
    /// the change is undone (but for an experiment assignment it stored first).
    private func writeTip(_ tip: String, key: TipKey?,
                          _ change: (inout EngineState, Int) throws(TipError) -> [TipEventRecord]) throws(TipError) {
        try mutate { (engine: inout EngineState) throws(TipError) in
            let index = try engine.resolve(tip, key: key)
            let before = engine
            let records: [TipEventRecord]
            do throws(TipError) {
                records = try change(&engine, index)
            } catch {
                engine.rollBack(to: before)
                throw error
            }
            guard !records.isEmpty else { return }
            do throws(TipStoreError) {
                try persistence.add(records, latestFirstDisplay: engine.latestFirstDisplay)
            } catch {
                engine.rollBack(to: before)
                throw .store(error)
            }
        }
    }
}
