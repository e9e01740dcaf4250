
/// Persistence in memory only: state lasts as long as the object (tests, previews, and apps
/// that do not want tips remembered). Its writes are the definition of what each write means,
/// which every other store is tested against.
public final class MemoryPersistence: TipPersistence {
    public let deviceID: String
    private let state: RuntimeLock<StoreSnapshot>

    /// A store that starts with `snapshot` (empty unless given) and whose device id is `deviceID`.
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

    public func append(_ donations: [DonationRecord]) throws(TipStoreError) { try apply(.append(donations)) }

    public func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) {
        try apply(.trim(event: event, maximumCount: maximumCount, maximumAgeMilliseconds: maximumAgeMilliseconds, now: now))
    }

    public func write(parameters: [String: ParameterRecord]) throws(TipStoreError) { try apply(.write(parameters: parameters)) }

    public func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) {
        try apply(.add(records, latestFirstDisplay: latestFirstDisplay))
    }

    public func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError) { try apply(.assign(assignments)) }

    public func merge(_ other: StoreSnapshot) throws(TipStoreError) { try apply(.merge(other)) }

    public func clear() throws(TipStoreError) { try apply(.clear) }

    public func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) {
        try apply(.deleteDonations(event: event, through: instant))
    }

    /// Every write: the operation's definition, under the lock.
    private func apply(_ operation: StoreOperation) throws(TipStoreError) {
        try state.withLock { (snapshot: inout StoreSnapshot) throws(TipStoreError) in
            snapshot = try operation.applied(to: snapshot)
        }
    }
}

/// `donationLimit` as one rule for every store: an event's donations dated before `now` minus
/// `maximumAge` go (never relative to the newest donation, so one donation dated in the future
/// trims nothing), then the oldest beyond `maximumCount` (same-instant ties by id).
package enum DonationLimit {
    /// The earliest date `maximumAge` keeps at `now` (saturating).
    package static func cutoff(now: Int64, maximumAgeMilliseconds age: Int64) -> Int64 {
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
