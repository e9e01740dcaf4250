
/// Persistence in memory only: state lasts as long as the object (tests, previews, and apps
/// that do not want tips remembered).
public final class MemoryPersistence: TipPersistence {
    public let deviceID: String
    private let state: RuntimeLock<StoreSnapshot>

    public init(deviceID: String = "memory", snapshot: StoreSnapshot = .empty) {
        self.deviceID = deviceID
        state = RuntimeLock(snapshot)
    }

    public func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        var snapshot = state.withLock { $0 }
        for donation in snapshot.donations.values.sorted(by: DonationRecord.precedes) { body(donation) }
        snapshot.donations = [:]
        return snapshot
    }

    public func append(_ donations: [DonationRecord]) throws(TipStoreError) {
        try state.withLock { (snapshot: inout StoreSnapshot) throws(TipStoreError) in
            for donation in donations where snapshot.donations[donation.id] != nil {
                throw TipStoreError.collision("donation", id: donation.id)
            }
            for donation in donations { snapshot.donations[donation.id] = donation }
        }
    }

    public func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) {
        state.withLock { snapshot in
            let kept = DonationLimit.kept(snapshot.donations.values.filter { $0.event == event },
                                          maximumCount: maximumCount, maximumAgeMilliseconds: maximumAgeMilliseconds, now: now)
            for donation in snapshot.donations.values where donation.event == event && !kept.contains(donation.id) {
                snapshot.donations[donation.id] = nil
            }
        }
    }

    public func write(parameters: [String: ParameterRecord]) throws(TipStoreError) {
        state.withLock { snapshot in
            for (name, record) in parameters {
                snapshot.parameters[name] = snapshot.parameters[name].map { ParameterRecord.later($0, record) } ?? record
            }
        }
    }

    public func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) {
        try merge(StoreSnapshot(tipRecords: Dictionary(records.map { ($0.id, $0) }, uniquingKeysWith: { a, _ in a }),
                                latestFirstDisplay: latestFirstDisplay))
    }

    public func merge(_ other: StoreSnapshot) throws(TipStoreError) {
        try state.withLock { (snapshot: inout StoreSnapshot) throws(TipStoreError) in
            snapshot = try snapshot.merged(with: other)
        }
    }

    public func clear() throws(TipStoreError) {
        state.withLock { $0 = .empty }
    }

    public func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) {
        state.withLock { snapshot in
            let recorded = max(snapshot.donationDeletions[event] ?? instant, instant)
            snapshot.donationDeletions[event] = recorded
            snapshot.donations = snapshot.donations.filter { $0.value.event != event || $0.value.date > recorded }
        }
    }
}

/// `donationLimit` as one rule for every store: an event's donations dated before `now` minus
/// `maximumAge` go (never relative to the newest donation, so one donation dated in the future
/// trims nothing), then the oldest beyond `maximumCount` (same-instant ties by id).
public enum DonationLimit {
    /// The earliest date `maximumAge` keeps at `now` (saturating).
    public static func cutoff(now: Int64, maximumAgeMilliseconds age: Int64) -> Int64 {
        now.addingSaturating(age == .min ? .max : -age)
    }

    /// The ids of `donations` (all of one event) that the limit keeps.
    static func kept(_ donations: [DonationRecord], maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) -> Set<String> {
        var ordered = donations.sorted(by: DonationRecord.precedes)
        if let age = maximumAgeMilliseconds {
            let cutoff = cutoff(now: now, maximumAgeMilliseconds: age)
            ordered.removeAll { $0.date < cutoff }
        }
        if let limit = maximumCount, ordered.count > Int(clamping: max(0, limit)) {
            ordered.removeFirst(ordered.count - Int(clamping: max(0, limit)))
        }
        return Set(ordered.map(\.id))
    }
}
