#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Where a runtime keeps its state between launches. Every write returns only once it is
/// durable (for SQLite: committed with `synchronous=FULL`), so an acknowledged write survives
/// a crash; writes only add records or apply last-writer-wins, so no write of one process can
/// erase another's.
public protocol TipPersistence: AnyObject, Sendable {
    /// This store's device id: stamps writes.
    var deviceID: String { get }
    /// Reads everything stored as one consistent state: hands the donations to `body` one by
    /// one, oldest first (same-instant ones by id), and returns the rest (a snapshot without
    /// donations).
    func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot
    /// Adds donations in one transaction, by union: a donation already stored changes nothing
    /// (a retried write), another one under its id is a collision error, and then nothing is added.
    func append(_ donations: [DonationRecord]) throws(TipStoreError)
    /// Applies an event's `donationLimit` in one transaction: deletes its donations dated before
    /// `now` minus `maximumAge` (saturating at the 64-bit bounds; never relative to the newest
    /// donation), then the oldest beyond `maximumCount`, in the order of
    /// `DonationRecord.precedes` (same-instant ties by id). A negative count keeps none.
    func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError)
    /// Stores parameters' values in one transaction, each unless the store holds a later
    /// write of it (last writer wins).
    func write(parameters: [String: ParameterRecord]) throws(TipStoreError)
    /// Adds tip records (displays, invalidations, resets, actions, exposures) and raises the latest first display
    /// to `latestFirstDisplay`, in one transaction.
    func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError)
    /// Stores experiment assignments in one transaction: per experiment and salt the earliest
    /// (`AssignmentRecord.precedes`) holds; the same assignment again changes nothing, another
    /// one under a stored assignment's id is a collision, and then nothing is stored.
    func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError)
    /// Merges another store's snapshot into this one in one transaction: adds the records it
    /// lacks and applies last-writer-wins to parameters; nothing stored is removed. A
    /// collision (one id, two different records) is an error, and then nothing changes.
    func merge(_ other: StoreSnapshot) throws(TipStoreError)
    /// Removes everything (`resetDatastore`).
    func clear() throws(TipStoreError)
    /// `deleteDonations(of:)`: records, in one transaction, that the donations of `event` dated
    /// at or before `instant` are deleted (a later recorded instant stays), and removes them.
    func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError)
}

extension TipPersistence {
    /// Everything stored, donations included, as one consistent state.
    public func load() throws(TipStoreError) -> StoreSnapshot {
        var donations: [String: DonationRecord] = [:]
        var snapshot = try read { donations[$0.id] = $0 }
        snapshot.donations = donations
        return snapshot
    }
}

/// A failure of the store, with the state unchanged.
public struct TipStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is: a caller can tell a damaged store from a busy one or a lost
    /// connection.
    public enum Kind: String, Sendable, Hashable {
        /// The file is not a tipc store, or is damaged.
        case corrupt
        /// The file cannot be written (permissions, read-only medium).
        case readOnly
        /// Another process holds the lock longer than the busy timeout.
        case locked
        /// Written by a newer tipc.
        case newerSchema
        /// Two different records share an id (nothing was written).
        case collision
        /// Any other I/O failure.
        case io
        /// The database cannot be reached (a server store's connection failed or was lost);
        /// the tip service answers 503.
        case unavailable
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What went wrong, for a person to read (the error's `description`).
    public var message: String

    /// A failure of kind `kind`, described by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}

/// A donation not stored yet (it has no id), for `TipCenter.donate(_:)`'s batches.
public struct PendingDonation: Sendable, Hashable {
    /// The event's name.
    public var event: String
    /// The instant, in milliseconds since 1970 (what the store keeps).
    package var milliseconds: Int64
    /// The payload's values by field name; empty for an event without a payload.
    public var value: [String: RuntimeValue]

    /// The event `event` with payload `value`, donated at `date` (whole milliseconds, like every
    /// instant the runtime keeps).
    public init(_ event: String, value: [String: RuntimeValue] = [:], at date: Date) {
        self.init(event: event, milliseconds: date.millisecondsSince1970, value: value)
    }

    package init(event: String, milliseconds: Int64, value: [String: RuntimeValue] = [:]) {
        self.event = event
        self.milliseconds = milliseconds
        self.value = value
    }

    /// When the event happened.
    public var date: Date {
        get { Date(millisecondsSince1970: milliseconds) }
        set { milliseconds = newValue.millisecondsSince1970 }
    }
}

extension PendingDonation {
    /// The stored form, under a new random id.
    package func record() -> DonationRecord {
        DonationRecord(id: RecordID.random(), event: event, date: milliseconds, value: value)
    }
}
