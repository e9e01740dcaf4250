/// Where a runtime keeps its state between launches. Every write returns only once it is
/// durable (for SQLite: committed with `synchronous=FULL`), so an acknowledged donation
/// survives a crash.
public protocol TipPersistence: AnyObject, Sendable {
    /// This store's device id: stamps writes and names its donations.
    var deviceID: String { get }
    /// Parameters, tips and the latest first display: everything but the donations.
    func loadState() throws(TipStoreError) -> StoreSnapshot
    /// Every donation, oldest first (same-instant donations in the order they were stored).
    func forEachDonation(_ body: (DonationRecord) throws -> Void) throws(TipStoreError)
    /// Appends new donations in one transaction, giving each an id (`DEVICE:SEQUENCE`, the
    /// sequence never reused) and returning the stored records.
    func append(_ donations: [PendingDonation]) throws(TipStoreError) -> [DonationRecord]
    /// Applies an event's `donationLimit`: deletes donations older than `maximumAge` before
    /// the event's newest donation, then the oldest beyond `maximumCount` (the same rule as
    /// `InMemoryDonationStore`).
    func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?) throws(TipStoreError)
    func write(parameter name: String, _ record: ParameterRecord?) throws(TipStoreError)
    func write(tip name: String, _ record: TipRecord, latestFirstDisplay: Int64?) throws(TipStoreError)
    /// Replaces everything (a merge result, or an empty snapshot for `resetDatastore`).
    func replace(with snapshot: StoreSnapshot) throws(TipStoreError)
}

extension TipPersistence {
    /// Everything stored, donations included (for export and merge).
    public func load() throws(TipStoreError) -> StoreSnapshot {
        var snapshot = try loadState()
        var donations: [String: DonationRecord] = [:]
        try forEachDonation { donations[$0.id] = $0 }
        snapshot.donations = donations
        return snapshot
    }
}

/// A failure of the store, with the state unchanged.
public struct TipStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The file is not a tipc store, or is damaged.
        case corrupt
        /// The file cannot be written (permissions, read-only medium).
        case readOnly
        /// Another process holds the lock longer than the busy timeout.
        case locked
        /// Written by a newer tipc.
        case newerSchema
        /// Any other I/O failure.
        case io
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// A donation not stored yet (it has no id).
public struct PendingDonation: Sendable, Hashable {
    public var event: String
    public var date: Int64
    public var value: [String: RuntimeValue]

    public init(event: String, date: Int64, value: [String: RuntimeValue] = [:]) {
        self.event = event
        self.date = date
        self.value = value
    }
}

extension PendingDonation {
    /// The stored form under `id`.
    public func record(id: String) -> DonationRecord {
        DonationRecord(id: id, event: event, date: date, value: value)
    }
}
