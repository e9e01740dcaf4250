/// Everything a `TipCenter` knows, as one value mutated under its lock: the pack, parameter
/// values, the donation index, each tip's history, the testing overrides and the observers.
/// Every decision of the runtime's semantics (docs/runtime.md) is made here, as a pure function of this state and an instant.
struct EngineState {
    /// What the pack alone determines, shared by every runtime opened with the same
    /// `PreparedRulePack`.
    let prepared: PreparedRulePack
    let deviceID: String
    /// Who is put in experiments' arms: the app's account id, the service's user id, or the
    /// store's device id.
    let assignmentUnit: String
    var pack: VerifiedRulePack { prepared.verified }
    var evaluator: RuleEvaluator { prepared.evaluator }
    var tipIndex: [String: Int] { prepared.tipIndex }
    var parameterIndex: [String: Int] { prepared.parameterIndex }
    var eventIndex: [String: Int] { prepared.eventIndex }
    /// For each tip, the group it belongs to (index into `pack.pack.groups`).
    var groupOfTip: [Int?] { prepared.groupOfTip }
    /// For each tip, the windows its rules read.
    var windows: [[EventWindow]] { prepared.windows }
    /// For each tip, the comparisons of its rules whose outcome depends on `now`.
    var datedComparisons: [[NowComparison]] { prepared.datedComparisons }
    /// For each tip, the windows its rules read over other tips' records.
    var tipWindows: [[TipRecordWindow]] { prepared.tipWindows }
    /// The events with a `maximumAge`, whose oldest donations expire as time passes.
    var agingEvents: [Int] { prepared.agingEvents }

    var parameters: ParameterValues
    var donations: InMemoryDonationStore
    /// Each tip's and instance's displays, invalidations and resets.
    var records: TipRecordTable
    var latestFirstDisplay: Int64?
    var overrides = TestingOverrides()
    /// By event name, the instant up to which `deleteDonations(of:)` deleted its donations.
    var donationDeletions: [String: Int64] = [:]
    /// The last stamp handed out: stamps are strictly increasing on this device.
    var lastStampMilliseconds: Int64 = .min
    /// The user's stored experiment assignments, per experiment and salt.
    var assignments: [AssignmentRecord.Key: AssignmentRecord] = [:]

    init(prepared: PreparedRulePack, deviceID: String, assignmentUnit: String? = nil) {
        self.prepared = prepared
        self.deviceID = deviceID
        self.assignmentUnit = assignmentUnit ?? deviceID
        let model = prepared.verified.pack
        parameters = ParameterValues(pack: model)
        donations = InMemoryDonationStore(events: model.events)
        records = TipRecordTable(pack: model, tipIndex: prepared.tipIndex)
    }

    var model: RulePack { pack.pack }

    /// A stamp for a write at `now`, later than every stamp this device handed out or loaded
    /// before, so the write is the latest of its record. Where that stamp would fall outside
    /// `RecordBounds` (the store holds a stamp at the bound, or the clock is outside it), the
    /// write is refused: it could not be the latest, and a write acknowledged and then lost is
    /// worse than one refused.
    mutating func stamp(at now: Int64) throws(TipError) -> Stamp {
        let next = max(now, lastStampMilliseconds.addingSaturating(1))
        guard RecordBounds.contains(next) else { throw .stampOutOfRange(now: now, latestStored: lastStampMilliseconds) }
        lastStampMilliseconds = next
        return Stamp(milliseconds: next, device: deviceID)
    }

    // MARK: - Loading

    /// Replaces the state with what `persistence` holds, as of `now`; donations stream into
    /// the index as they are read.
    mutating func load(from persistence: any TipPersistence, now: Int64) throws(TipStoreError) {
        donations = InMemoryDonationStore(events: model.events)
        let snapshot = try persistence.read { donation in index(donation) }
        apply(snapshot)
        excludeDeletedDonations()
        expireDonations(now: now)
    }

    /// Forgets everything stored (`resetDatastore`): no donations, parameters at their
    /// defaults, no tip records, no frequency gap.
    mutating func clear() {
        donations = InMemoryDonationStore(events: model.events)
        apply(.empty)
    }

    /// Takes everything but the donations from `snapshot`. A stored parameter counts only when
    /// its value has the declared type (and is one of its `values`, and a finite number for a
    /// Double); otherwise the default stands and the stored value stays untouched in the store.
    private mutating func apply(_ snapshot: StoreSnapshot) {
        parameters = ParameterValues(pack: model)
        for (index, declaration) in model.parameters.enumerated() where !declaration.isTransient {
            guard let record = snapshot.parameters[declaration.name] else { continue }
            lastStampMilliseconds = max(lastStampMilliseconds, record.stamp.milliseconds)
            if declaration.accepts(record.value) { try? parameters.set(index, to: record.value) }
        }
        records = TipRecordTable(pack: model, tipIndex: tipIndex, stored: snapshot.histories)
        for record in snapshot.tipRecords.values {
            lastStampMilliseconds = max(lastStampMilliseconds, record.stamp.milliseconds)
        }
        latestFirstDisplay = snapshot.latestFirstDisplay
        donationDeletions = snapshot.donationDeletions
        assignments = snapshot.assignments
    }

    /// Adds a stored donation to the query index. Donations of events this pack does not
    /// declare, or whose payload no longer fits, stay stored but are not indexed.
    mutating func index(_ donation: DonationRecord) {
        guard let event = eventIndex[donation.event],
              let payload = try? orderedPayload(event: event, donation.value) else { return }
        try? donations.donate(event: event, at: donation.date, payload: payload)
    }

    /// Drops from the index the donations that `maximumAge` no longer keeps at `now`.
    mutating func expireDonations(now: Int64) {
        for event in agingEvents { donations.trim(event: event, now: now) }
    }

    /// A payload by field name, in the event's field order, validated.
    func orderedPayload(event: Int, _ value: [String: RuntimeValue]) throws(DonationError) -> [RuntimeValue] {
        let declaration = model.events[event]
        for key in value.keys.sorted() where !declaration.fields.contains(where: { $0.name == key }) {
            throw .unknownField(event: declaration.name, field: key)
        }
        var ordered: [RuntimeValue] = []
        for field in declaration.fields {
            guard let fieldValue = value[field.name] else { throw .missingField(event: declaration.name, field: field.name) }
            ordered.append(fieldValue)
        }
        try donations.validate(event: event, payload: ordered)
        return ordered
    }

    // MARK: - Status and display decisions

    /// The rules of `tip` (its instance `key`) evaluated at `now`; `tip(X)` reads the records.
    func evaluation(of tip: Int, key: TipKey? = nil, now: Int64, allRules: Bool = false) -> TipEvaluation {
        evaluator.evaluateTip(tip, parameters: parameters, store: donations, now: now, allRules: allRules,
                              instance: RuleInstance(key: key, records: records))
    }

    /// The history of `tip` (its instance `key`): empty for an instance with no records.
    func history(of tip: Int, key: TipKey? = nil) -> TipHistory {
        records.history(tip, key)
    }

    /// Why `tip` (its instance `key`) is invalidated now (see `TipRecordTable.invalidation`).
    func invalidation(of tip: Int, key: TipKey? = nil) -> InvalidationReason? {
        records.invalidation(of: tip, key: key)
    }

    func status(of tip: Int, key: TipKey? = nil, now: Int64) -> TipStatus {
        statusAndEvaluation(of: tip, key: key, now: now).status
    }

    /// The status now, with the evaluation of the rules it was decided by (nil for an
    /// invalidated tip, whose rules are not evaluated).
    func statusAndEvaluation(of tip: Int, key: TipKey?, now: Int64) -> (status: TipStatus, evaluation: TipEvaluation?) {
        if let reason = invalidation(of: tip, key: key) { return (.invalidated(reason), nil) }
        let evaluation = evaluation(of: tip, key: key, now: now)
        return (evaluation.isSatisfied ? .available : .pending, evaluation)
    }

    /// When the display frequency lets `tip` (its instance `key`) display: now (nil) or the
    /// instant the gap ends. Each instance is its own tip: one never displayed waits.
    func frequencyGateOpens(for tip: Int, key: TipKey? = nil, now: Int64) -> Int64? {
        let gap = model.displayFrequencyMilliseconds
        guard gap > 0, !model.tips[tip].ignoresDisplayFrequency, history(of: tip, key: key).displayCount == 0,
              let latest = latestFirstDisplay else { return nil }
        let (opens, overflow) = latest.addingReportingOverflow(gap)
        if overflow { return .max }
        return opens > now ? opens : nil
    }

    func frequencyAllows(_ tip: Int, key: TipKey? = nil, now: Int64) -> Bool { frequencyGateOpens(for: tip, key: key, now: now) == nil }

    /// The tip `group` offers now, if any: `firstAvailable` offers its first available tip
    /// that the display frequency allows; `ordered`, its first tip not invalidated.
    func offeredTip(inGroup group: Int, now: Int64) -> Int? {
        let members = model.groups[group].tips
        switch model.groups[group].priority {
        case .firstAvailable:
            return members.first { status(of: $0, now: now) == .available && frequencyAllows($0, now: now) }
        case .ordered:
            return members.first { invalidation(of: $0) == nil }
        }
    }

    /// Whether the group of `tip` (if any) offers it now.
    func groupAllows(_ tip: Int, now: Int64) -> Bool {
        guard let group = groupOfTip[tip] else { return true }
        return offeredTip(inGroup: group, now: now) == tip
    }

    /// Keyed tips are never group members, so only a tip without a key waits for its group.
    /// Testing overrides name tips: they apply to every instance of a keyed tip. A tip in a
    /// hidden arm of its experiment never displays (without an override).
    func shouldDisplay(_ tip: Int, key: TipKey? = nil, now: Int64) -> Bool {
        shouldDisplay(tip, key: key, status: status(of: tip, key: key, now: now), now: now)
    }

    /// `shouldDisplay(_:key:now:)` for a tip whose status now is known already.
    func shouldDisplay(_ tip: Int, key: TipKey?, status: @autoclosure () -> TipStatus, now: Int64) -> Bool {
        if let verdict = overrides.verdict(for: model.tips[tip].name) { return verdict }
        return wouldDisplay(tip, key: key, status: status(), now: now) && armChoice(ofTip: tip)?.arm.isHidden != true
    }

    /// Whether the tip is available and the display frequency and its group allow it: what
    /// decides a display, before a hidden experiment arm and testing overrides.
    func wouldDisplay(_ tip: Int, key: TipKey? = nil, now: Int64) -> Bool {
        wouldDisplay(tip, key: key, status: status(of: tip, key: key, now: now), now: now)
    }

    /// `wouldDisplay(_:key:now:)` for a tip whose status now is known already.
    func wouldDisplay(_ tip: Int, key: TipKey?, status: TipStatus, now: Int64) -> Bool {
        status == .available && frequencyAllows(tip, key: key, now: now) && groupAllows(tip, now: now)
    }

    // MARK: - Changes

    /// Records one display (`count` 1, or 0 for more time on screen of a display already
    /// recorded) and `milliseconds` on screen; invalidates the tip when it reaches
    /// `maxDisplayCount` or `maxDisplayDuration`. Returns the records to store.
    /// `arm` is the user's arm in the tip's experiment, carried by the display record.
    mutating func recordDisplay(_ tip: Int, key: TipKey? = nil, count: Int64, milliseconds: Int64, now: Int64,
                                arm: String? = nil) throws(TipError) -> [TipEventRecord] {
        let firstEver = history(of: tip, key: key).displayCount == 0 && count > 0
        let wasInvalidated = invalidation(of: tip, key: key) != nil
        let display = TipEventRecord(tip: model.tips[tip].name, key: key, stamp: try stamp(at: now),
                                     kind: .display(count: count, milliseconds: max(0, milliseconds)), date: now, arm: arm)
        records = records.adding(display, tip: tip)
        if firstEver, !model.tips[tip].ignoresDisplayFrequency {
            latestFirstDisplay = max(latestFirstDisplay ?? .min, now)
        }
        // The limit's reason is recorded as it is reached, so that it stays the first reason.
        guard !wasInvalidated, let reason = invalidation(of: tip, key: key) else { return [display] }
        return [display] + (try invalidate(tip, key: key, reason: reason, now: now))
    }

    /// Invalidates `tip`; an invalidated tip keeps its first reason. The record is stored even
    /// then: what this runtime knows may be older than a reset another device or process made,
    /// and the invalidation must win over that reset when the stores merge. Returns the records
    /// to store.
    mutating func invalidate(_ tip: Int, key: TipKey? = nil, reason: InvalidationReason, now: Int64) throws(TipError) -> [TipEventRecord] {
        let record = TipEventRecord(tip: model.tips[tip].name, key: key, stamp: try stamp(at: now), kind: .invalidation(reason), date: now)
        records = records.adding(record, tip: tip)
        return [record]
    }

    /// Makes `tip` eligible again with its displays and time on screen restarted. Returns the
    /// records to store.
    mutating func resetEligibility(_ tip: Int, key: TipKey? = nil, now: Int64) throws(TipError) -> [TipEventRecord] {
        let record = TipEventRecord(tip: model.tips[tip].name, key: key, stamp: try stamp(at: now), kind: .reset, date: now)
        records = records.adding(record, tip: tip)
        return [record]
    }

    /// Records a tap on `action` of `tip` (its instance `key`) under `id`, dated `date`; the
    /// action must be one the tip declares. A record of `id` already in the instance's history
    /// is the same tap sent again: it is returned and nothing is stored (`stored` false); under
    /// another action, it is a collision.
    mutating func recordAction(_ tip: Int, key: TipKey?, action: String, id: String, date: Int64,
                               now: Int64) throws(TipError) -> (record: TipEventRecord, stored: Bool) {
        // The tip's own actions, and those the user's arm shows instead.
        var declared = model.tips[tip].actions.map(\.id)
        for shown in armChoice(ofTip: tip)?.arm.actions ?? [] where !declared.contains(shown.id) { declared.append(shown.id) }
        guard declared.contains(where: { $0.utf8.elementsEqual(action.utf8) }) else {
            throw .unknownAction(tip: model.tips[tip].name, action: action, declared: declared)
        }
        if let earlier = history(of: tip, key: key).records.last(where: { $0.id.utf8.elementsEqual(id.utf8) }) {
            guard case .action(let tapped) = earlier.kind, tapped.utf8.elementsEqual(action.utf8) else {
                throw .store(TipStoreError.collision("tip record", id: id))
            }
            return (earlier, false)
        }
        let record = TipEventRecord(id: id, tip: model.tips[tip].name, key: key, stamp: try stamp(at: now), kind: .action(action), date: date)
        records = records.adding(record, tip: tip)
        return (record, true)
    }

    // MARK: - Time

    /// The next instant after `now` at which a status or display decision of `tips` can
    /// change with no call into the runtime: a window's contents change, a donation reaches
    /// its event's `maximumAge`, the display frequency's gap ends, or a comparison of a rule
    /// with `now` (`now >= date(…)`, `now < $trialEnds`) changes for the current parameters.
    func nextWake(for instances: Set<TipSlot>, now: Int64) -> Int64? {
        var next: Int64?
        func consider(_ instant: Int64?) {
            guard let instant, instant > now else { return }
            next = min(next ?? instant, instant)
        }
        var seen = Set<EventWindow>()
        var seenTipWindows = Set<TipRecordWindow>()
        for instance in instances {
            let tip = instance.tip
            for window in windows[tip] where seen.insert(window).inserted {
                consider(WindowAnalysis.nextChange(timestamps: donations.donations(ofEvent: window.event).timestamps,
                                                   window: window.milliseconds, now: now))
            }
            // A window over another tip's records: every instance of it (a keyed read may
            // name any), its displays and its invalidations (an early wake changes nothing).
            for window in tipWindows[tip] where seenTipWindows.insert(window).inserted {
                let keys: [TipKey?] = model.tips[window.tip].key == nil ? [nil] : records.keys(of: window.tip)
                for key in keys {
                    let read = records.records(ofTip: window.tip, key: key)
                    consider(WindowAnalysis.nextChange(timestamps: read.displays.timestamps, window: window.milliseconds, now: now))
                    consider(WindowAnalysis.nextChange(timestamps: read.invalidations.timestamps, window: window.milliseconds, now: now))
                }
            }
            consider(frequencyGateOpens(for: tip, key: instance.key, now: now))
            for comparison in datedComparisons[tip] { consider(comparison.nextChange(parameterSlots: parameters.slots, now: now)) }
        }
        for event in agingEvents where !instances.isEmpty {
            guard let oldest = donations.donations(ofEvent: event).timestamps.first,
                  let age = model.events[event].maximumAgeMilliseconds else { continue }
            consider(oldest.addingSaturating(age).addingSaturating(1))
        }
        return next
    }
}

/// A tip, or one instance of a keyed tip, by index: what observers watch.
struct TipSlot: Hashable {
    var tip: Int
    var key: TipKey?
}
