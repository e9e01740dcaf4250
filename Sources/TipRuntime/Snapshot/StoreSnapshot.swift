#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Why a tip was invalidated (TipKit's `Tip.InvalidationReason`).
public enum InvalidationReason: String, Sendable, Hashable, CaseIterable, Codable {
    /// The user did what the tip suggests, or tapped an action that ends it.
    case actionPerformed
    /// The user closed the tip (its close button).
    case tipClosed
    /// The tip reached its `maxDisplayCount` displays since its latest reset, over all devices.
    case displayCountExceeded
    /// The tip reached its `maxDisplayDuration` on screen since its latest reset, over all devices.
    case displayDurationExceeded
}

/// When and where a write happened: last-writer-wins order is by time, then by device id, so
/// that every replica picks the same winner.
public struct Stamp: Sendable, Hashable, Comparable, Codable {
    /// Milliseconds since 1970 on the writing device's clock.
    public var milliseconds: Int64
    /// The writing store's device id (`TipPersistence.deviceID`): orders writes of one instant.
    public var device: String

    /// A write at `milliseconds` since 1970 (UTC) by `device`.
    public init(milliseconds: Int64, device: String) {
        self.milliseconds = milliseconds
        self.device = device
    }

    /// Devices compare by their ids' bytes, as SQL stores compare them, so every store picks
    /// the same winner.
    public static func < (a: Stamp, b: Stamp) -> Bool {
        a.milliseconds != b.milliseconds ? a.milliseconds < b.milliseconds : a.device.utf8.lexicographicallyPrecedes(b.device.utf8)
    }

    /// Equal when the times and the devices' bytes are (two ids Unicode calls equivalent but
    /// written differently are two devices, as in every SQL store).
    public static func == (a: Stamp, b: Stamp) -> Bool {
        a.milliseconds == b.milliseconds && a.device.utf8.elementsEqual(b.device.utf8)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(milliseconds)
        for byte in device.utf8 { hasher.combine(byte) }
    }
}

/// Identities of stored records: 128 random bits as 32 lowercase hex digits, so two copies of
/// one store (a restored backup) never give two different records the same id.
public enum RecordID {
    /// A new id: 128 bits from the system's random generator, as 32 lowercase hex digits.
    public static func random() -> String {
        var generator = SystemRandomNumberGenerator()
        return hex(generator.next() as UInt64) + hex(generator.next() as UInt64)
    }

    private static func hex(_ value: UInt64) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}

/// One donated event, as stored and synced. Its id is unique across devices and copies.
public struct DonationRecord: Sendable, Hashable {
    /// The donation's id (`RecordID.random()` for a new donation).
    public var id: String
    /// The name of the donated event.
    public var event: String
    /// Milliseconds since 1970.
    public var date: Int64
    /// Payload values by field name; empty for events without a payload.
    public var value: [String: RuntimeValue]

    /// `date` as a `Date`: when the event happened.
    public var timestamp: Date { Date(millisecondsSince1970: date) }

    /// A donation of `event` under `id`, dated `date` (milliseconds since 1970, UTC), with the
    /// payload `value`.
    public init(id: String, event: String, date: Int64, value: [String: RuntimeValue] = [:]) {
        self.id = id
        self.event = event
        self.date = date
        self.value = value
    }
}

extension DonationRecord {
    /// The order of donations everywhere they are listed: by date, same-instant ones by their
    /// ids' bytes (as every SQL store orders them).
    public static func precedes(_ a: DonationRecord, _ b: DonationRecord) -> Bool {
        a.date != b.date ? a.date < b.date : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// A parameter's persisted value and when it was set.
public struct ParameterRecord: Sendable, Hashable {
    /// The parameter's value.
    public var value: RuntimeValue
    /// When and by which device the value was set: of two writes, the later stamp wins.
    public var stamp: Stamp

    /// The value `value`, set at `stamp`.
    public init(value: RuntimeValue, stamp: Stamp) {
        self.value = value
        self.stamp = stamp
    }
}

/// One thing that happened to a tip: a display, an invalidation, a reset of its eligibility,
/// a tap on one of its actions, or a hidden experiment arm's "would display" (an exposure).
/// Records are never changed or removed (but by `resetDatastore`); a tip's state is derived
/// from them, so merging two stores is the union of their records.
public struct TipEventRecord: Sendable, Hashable {
    /// What happened to the tip.
    public enum Kind: Sendable, Hashable {
        /// `count` displays (1, or 0 for more time on screen of a display already counted) and
        /// the milliseconds on screen.
        case display(count: Int64, milliseconds: Int64)
        /// The tip was invalidated for this reason (by the app, or on reaching a display limit).
        case invalidation(InvalidationReason)
        /// `resetEligibility`: the records stamped before it no longer count.
        case reset
        /// `recordAction`: the user tapped the tip's action with this id. Analytics only: no
        /// rule reads it, and it changes no status (closing is an invalidation).
        case action(String)
        /// The first time a tip in a hidden arm of this experiment would have displayed (the
        /// record's `arm` is the arm): analytics only, like an action.
        case exposure(experiment: String)
    }

    /// The record's id (`RecordID.random()` unless given).
    public var id: String
    /// The name of the tip.
    public var tip: String
    /// The instance's key, for a record of an instance of a keyed tip.
    public var key: TipKey?
    /// When (milliseconds since 1970, UTC) and by which device the record was written; it orders
    /// the tip's history, so a reset undoes only the records stamped before it.
    public var stamp: Stamp
    /// What happened: a display, an invalidation, a reset, an action or an exposure.
    public var kind: Kind
    /// When it happened (milliseconds since 1970), as rules see it (`tip(X).displays`): the
    /// instant of the call. The stamp may be a little later, as a device's stamps are strictly
    /// increasing; a record stored before format 2 has its stamp's instant.
    public var date: Int64

    /// `date` as a `Date`: when it happened.
    public var timestamp: Date { Date(millisecondsSince1970: date) }
    /// The user's arm in the experiment of the tip: on a display of a tip in an experiment,
    /// and on an exposure; nil on every other record.
    public var arm: String?

    /// A record of `kind` for the tip `tip` (its instance `key`), written at `stamp`; `date`
    /// (milliseconds since 1970, UTC) is the stamp's instant unless given.
    public init(id: String = RecordID.random(), tip: String, key: TipKey? = nil, stamp: Stamp, kind: Kind, date: Int64? = nil,
                arm: String? = nil) {
        self.id = id
        self.tip = tip
        self.key = key
        self.date = date ?? stamp.milliseconds
        self.stamp = stamp
        self.kind = kind
        self.arm = arm
    }

    /// The order of records in a tip's history: by stamp, then by their ids' bytes (a total order).
    static func precedes(_ a: TipEventRecord, _ b: TipEventRecord) -> Bool {
        a.stamp != b.stamp ? a.stamp < b.stamp : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// A tip's state as derived from its records: eligibility since the latest reset, and the
/// displays and time on screen since then, over every device.
package struct TipHistory: Sendable, Hashable {
    /// The tip's records, in their order (`TipEventRecord.precedes`).
    package private(set) var records: [TipEventRecord] = []
    /// What rules read of the records since the latest reset (`tip(X).displays`,
    /// `tip(X).invalidations`), kept with them.
    package private(set) var displayColumns = DonationColumns()
    package private(set) var invalidationColumns = DonationColumns(fields: [PayloadColumn(type: .string)])

    package init(records: [TipEventRecord] = []) {
        self.records = records.sorted(by: TipEventRecord.precedes)
        updateColumns()
    }

    /// Adds a record in its place in the order (usually the end: a new record is the latest).
    package mutating func add(_ record: TipEventRecord) {
        var position = records.endIndex
        while position > records.startIndex, TipEventRecord.precedes(record, records[position - 1]) { position -= 1 }
        records.insert(record, at: position)
        updateColumns()
    }

    /// Derives the state and the columns from the records since the latest reset, once per
    /// change (rules read them on every evaluation): one display entry per
    /// display counted (a record of more time on screen adds none), one invalidation entry
    /// per invalidation record, each dated by its record's stamp (ascending, as records are).
    private mutating func updateColumns() {
        var displays: [Int64] = [], dated: [(date: Int64, reason: String)] = []
        currentInvalidation = nil
        displayCount = 0
        displayDurationMilliseconds = 0
        for record in current {
            switch record.kind {
            case .display(let count, let milliseconds):
                displayCount = displayCount.addingSaturating(count)
                displayDurationMilliseconds = displayDurationMilliseconds.addingSaturating(milliseconds)
                // A version-1 counter carries many displays under one stamp; bounded.
                for _ in 0..<min(max(count, 0), 1 << 16) { displays.append(record.date) }
            case .invalidation(let reason):
                if currentInvalidation == nil { currentInvalidation = reason }
                dated.append((record.date, reason.rawValue))
            case .reset, .action, .exposure:
                break
            }
        }
        // By date (a clock set back may date a later record earlier); stable, so records of
        // one instant keep their order.
        displays.sort()
        dated = dated.enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
        var invalidations: [Int64] = [], reasons: [Int64] = [], reasonTexts: [String] = []
        for (date, reason) in dated {
            invalidations.append(date)
            if let code = reasonTexts.firstIndex(of: reason) {
                reasons.append(Int64(code))
            } else {
                reasons.append(Int64(reasonTexts.count))
                reasonTexts.append(reason)
            }
        }
        displayColumns = DonationColumns(timestamps: displays)
        invalidationColumns = DonationColumns(timestamps: invalidations, fields: [PayloadColumn(type: .string, slots: reasons, strings: reasonTexts)])
    }

    /// The records since the latest reset.
    package var current: ArraySlice<TipEventRecord> {
        guard let reset = records.lastIndex(where: { $0.kind == .reset }) else { return records[...] }
        return records[(reset + 1)...]
    }

    /// The reason the tip is invalidated now (the first invalidation since the latest reset),
    /// or nil when it is eligible.
    package private(set) var currentInvalidation: InvalidationReason?

    /// Displays since the latest reset, all devices together.
    package private(set) var displayCount: Int64 = 0

    /// Milliseconds on screen since the latest reset, all devices together; saturates at
    /// `Int64.max` rather than wrapping.
    package private(set) var displayDurationMilliseconds: Int64 = 0
}

extension Int64 {
    /// `self + other`, clamped to the representable range.
    package func addingSaturating(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}

/// A user's arm in an experiment, stored the first time the arm is needed so that it stays
/// the same when the experiment's weights change (a new salt, or an arm that no longer exists,
/// assigns afresh). Where two records differ for one experiment and salt (two devices that
/// assigned before they synced), the earliest holds on every device: merging keeps one record
/// per `Key`, the first by `precedes`.
public struct AssignmentRecord: Sendable, Hashable {
    /// An experiment and the salt its assignment used: one assignment holds per key.
    public struct Key: Sendable, Hashable {
        /// The experiment's name.
        public var experiment: String
        /// The salt users were hashed with (`PackExperiment.salt`).
        public var salt: String

        /// The key of `experiment`'s assignment under `salt`.
        public init(experiment: String, salt: String) {
            self.experiment = experiment
            self.salt = salt
        }

        /// By bytes, as SQL stores compare them (two spellings Unicode calls equal are two keys).
        public static func == (a: Key, b: Key) -> Bool {
            a.experiment.utf8.elementsEqual(b.experiment.utf8) && a.salt.utf8.elementsEqual(b.salt.utf8)
        }

        public func hash(into hasher: inout Hasher) {
            for byte in experiment.utf8 { hasher.combine(byte) }
            hasher.combine(0xFF as UInt16)
            for byte in salt.utf8 { hasher.combine(byte) }
        }
    }

    /// The record's id (`RecordID.random()` unless given).
    public var id: String
    /// The experiment's name.
    public var experiment: String
    /// The salt the user was hashed with (`PackExperiment.salt`).
    public var salt: String
    /// The name of the user's arm.
    public var arm: String
    /// When the arm was first needed (milliseconds since 1970).
    public var date: Int64

    /// `date` as a `Date`: when the arm was first needed.
    public var timestamp: Date { Date(millisecondsSince1970: date) }

    /// The user's assignment to `arm` of `experiment` under `salt`, first needed at `date`
    /// (milliseconds since 1970, UTC).
    public init(id: String = RecordID.random(), experiment: String, salt: String, arm: String, date: Int64) {
        self.id = id
        self.experiment = experiment
        self.salt = salt
        self.arm = arm
        self.date = date
    }

    /// The experiment and salt this assignment is for.
    public var key: Key { Key(experiment: experiment, salt: salt) }

    /// The order that decides which of two assignments of one key holds: the earlier date,
    /// then the smaller id by its bytes (as every SQL store orders them).
    public static func precedes(_ a: AssignmentRecord, _ b: AssignmentRecord) -> Bool {
        a.date != b.date ? a.date < b.date : a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
    }
}

/// Everything a store holds, as one value: what `export` prints, what sync exchanges and what
/// `merge` combines.
public struct StoreSnapshot: Sendable, Hashable {
    /// By donation id.
    public var donations: [String: DonationRecord]
    /// By parameter name (transient parameters are not persisted).
    public var parameters: [String: ParameterRecord]
    /// Displays, invalidations and resets of tips, by record id.
    public var tipRecords: [String: TipEventRecord]
    /// The latest first display of any tip that does not ignore the display frequency: the
    /// frequency gap runs from it.
    public var latestFirstDisplay: Int64?
    /// `deleteDonations(of:)`: by event name, the latest instant up to which its donations are
    /// deleted (donations dated at or before it no longer count, on every device once merged).
    public var donationDeletions: [String: Int64]
    /// Experiment assignments: one per experiment and salt, the earliest (`AssignmentRecord.precedes`).
    public var assignments: [AssignmentRecord.Key: AssignmentRecord]

    /// A snapshot holding these records and deletions (each empty unless given), keyed as the
    /// properties say.
    public init(donations: [String: DonationRecord] = [:], parameters: [String: ParameterRecord] = [:],
                tipRecords: [String: TipEventRecord] = [:], latestFirstDisplay: Int64? = nil,
                donationDeletions: [String: Int64] = [:], assignments: [AssignmentRecord.Key: AssignmentRecord] = [:]) {
        self.donations = donations
        self.parameters = parameters
        self.tipRecords = tipRecords
        self.latestFirstDisplay = latestFirstDisplay
        self.donationDeletions = donationDeletions
        self.assignments = assignments
    }

    /// The assignment that holds for `experiment` under `salt`, if one is stored.
    public func assignment(experiment: String, salt: String) -> AssignmentRecord? {
        assignments[AssignmentRecord.Key(experiment: experiment, salt: salt)]
    }

    /// The snapshot of an empty store: no records, no deletions, no first display.
    public static let empty = StoreSnapshot()

    /// The history of every tip and instance that has records.
    package var histories: [TipInstance: TipHistory] {
        Dictionary(grouping: tipRecords.values, by: { TipInstance(tip: $0.tip, key: $0.key) }).mapValues { TipHistory(records: $0) }
    }
}
