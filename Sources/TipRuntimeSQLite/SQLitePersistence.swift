#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipRuntime

/// The embedded, persistent default store: one SQLite file in WAL mode with
/// `synchronous=FULL`, so every acknowledged write survives a crash, and a busy timeout, so
/// several processes can share the file. Every write is one transaction that only adds
/// records (or applies last-writer-wins to a parameter), so no writer, merge included, can
/// erase another's acknowledged write. Schema changes go through versioned migrations.
public final class SQLitePersistence: TipPersistence {
    public let deviceID: String
    /// The path of the store's file, as given to `init`.
    public let path: String
    private let connection: SQLiteConnection

    /// The statements of the records' rules (`StoreSQL`), over this store's tables.
    static let sql = StoreSQL(dialect: .sqlite, tables: .init(donations: "donations", parameters: "parameters",
                                                               tipRecords: "tip_records", donationDeletions: "donation_deletions",
                                                               assignments: "assignments"))

    /// The schema, one step per version.
    static let migrations = SQLiteMigrations([
        // 1: donations with (device, sequence) ids; tips' eligibility and per-device display
        // counters as mutable rows.
        """
        CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
        CREATE TABLE donations(
            id TEXT PRIMARY KEY, event TEXT NOT NULL, date INTEGER NOT NULL, value TEXT NOT NULL DEFAULT ''
        );
        CREATE INDEX donations_by_event_date ON donations(event, date);
        CREATE TABLE parameters(
            name TEXT PRIMARY KEY, value TEXT NOT NULL, stamp_ms INTEGER NOT NULL, stamp_device TEXT NOT NULL
        );
        CREATE TABLE tips(
            name TEXT PRIMARY KEY,
            invalidation TEXT, invalidation_ms INTEGER, invalidation_device TEXT,
            reset_ms INTEGER, reset_device TEXT
        );
        CREATE TABLE display_counters(
            tip TEXT NOT NULL, device TEXT NOT NULL,
            epoch_ms INTEGER, epoch_device TEXT,
            count INTEGER NOT NULL, duration_ms INTEGER NOT NULL, first_display INTEGER,
            PRIMARY KEY(tip, device)
        );
        """,
        // 2: a tip's displays, invalidations and resets as records with ids, merged by union.
        // Version-1 state becomes records whose ids are derived from what each row says, so
        // copies of one version-1 store (synced devices, a backup) migrate to the same ids for
        // the same facts and to different ids for different ones. A version-1 display counter
        // stays one record per (tip, device, epoch) whose copies merge to the larger figures,
        // the version-1 rule (`TipEventRecord.mergingCopies`). Donation ids of version 1
        // (device and sequence) gain the donation's content, so that two copies' different
        // donations under one sequence number stay two.
        """
        CREATE TABLE tip_records(
            id TEXT PRIMARY KEY, tip TEXT NOT NULL, kind TEXT NOT NULL,
            stamp_ms INTEGER NOT NULL, stamp_device TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 0, duration_ms INTEGER NOT NULL DEFAULT 0, reason TEXT
        );
        CREATE INDEX tip_records_by_tip ON tip_records(tip);
        INSERT INTO tip_records(id, tip, kind, stamp_ms, stamp_device, reason)
            SELECT 'v1-invalidation:' || name || ':' || invalidation_ms || ':' || invalidation_device || ':' || invalidation,
                   name, 'invalidation', invalidation_ms, invalidation_device, invalidation
            FROM tips WHERE invalidation IS NOT NULL AND invalidation_ms IS NOT NULL;
        INSERT INTO tip_records(id, tip, kind, stamp_ms, stamp_device)
            SELECT 'v1-reset:' || name || ':' || reset_ms || ':' || reset_device, name, 'reset', reset_ms, reset_device
            FROM tips WHERE reset_ms IS NOT NULL;
        INSERT INTO tip_records(id, tip, kind, stamp_ms, stamp_device, count, duration_ms)
            SELECT 'v1-display:' || c.tip || ':' || c.device || ':' || coalesce(c.epoch_ms, '') || ':' || coalesce(c.epoch_device, ''),
                   c.tip, 'display',
                   CASE WHEN t.reset_ms IS NULL THEN coalesce(c.first_display, 0)
                        ELSE max(coalesce(c.first_display, 0), t.reset_ms + 1) END,
                   c.device, c.count, c.duration_ms
            FROM display_counters c LEFT JOIN tips t ON t.name = c.tip
            WHERE c.epoch_ms IS t.reset_ms AND c.epoch_device IS t.reset_device
              AND (c.count > 0 OR c.duration_ms > 0);
        UPDATE donations SET id = id || '#' || date || '#' || event || '#' || value;
        DROP TABLE tips;
        DROP TABLE display_counters;
        DELETE FROM meta WHERE key = 'next_sequence';
        """,
        // 3 (format 2): `deleteDonations` keeps, per event, the latest instant up to which its
        // donations are deleted; a record of an instance of a keyed tip carries its key, an
        // INTEGER or a TEXT as the tip declares (the column has no affinity, so each keeps its
        // type; NULL for a tip without a key), and every record the instant it happened as
        // rules read it (`date_ms`; NULL for older records: their stamp's). Existing stores
        // gain the empty table and columns and keep everything.
        """
        CREATE TABLE donation_deletions(event TEXT PRIMARY KEY, instant INTEGER NOT NULL);
        ALTER TABLE tip_records ADD COLUMN instance_key;
        ALTER TABLE tip_records ADD COLUMN date_ms INTEGER;
        """,
        // 4: every table has an index of all its columns, so that `PRAGMA integrity_check`,
        // which compares each index with its table row by row, finds a changed byte anywhere
        // in a record, not only in the columns that were indexed (a merge checks its source
        // so before reading it: see `verifiedSnapshot()`).
        """
        CREATE INDEX donations_whole ON donations(id, event, date, value);
        CREATE INDEX parameters_whole ON parameters(name, value, stamp_ms, stamp_device);
        CREATE INDEX tip_records_whole ON tip_records(
            id, tip, kind, stamp_ms, stamp_device, count, duration_ms, reason, instance_key, date_ms);
        CREATE INDEX meta_whole ON meta(key, value);
        CREATE INDEX donation_deletions_whole ON donation_deletions(event, instant);
        """,
        // 5 (experiments and tip analytics): a tip record may be a tap on one of the tip's
        // actions (`action_id`) or a hidden arm's exposure (`experiment`), and a display or
        // exposure carries the user's arm; experiment assignments, one per experiment and salt
        // (the earliest). Existing records gain NULLs and keep everything else.
        """
        ALTER TABLE tip_records ADD COLUMN action_id TEXT;
        ALTER TABLE tip_records ADD COLUMN experiment TEXT;
        ALTER TABLE tip_records ADD COLUMN arm TEXT;
        DROP INDEX tip_records_whole;
        CREATE INDEX tip_records_whole ON tip_records(
            id, tip, kind, stamp_ms, stamp_device, count, duration_ms, reason, instance_key, date_ms, action_id, experiment, arm);
        CREATE TABLE assignments(
            experiment TEXT NOT NULL, salt TEXT NOT NULL, id TEXT NOT NULL, arm TEXT NOT NULL, date_ms INTEGER NOT NULL,
            PRIMARY KEY(experiment, salt)
        );
        CREATE INDEX assignments_whole ON assignments(experiment, salt, id, arm, date_ms);
        """,
    ], kind: .device)

    /// Opens the store at `path`, creating it when `create` is true and it is missing.
    /// - Parameter deviceID: the id for a new store (default: a random one); an existing
    ///   store keeps the id it was created with.
    /// - Parameter readOnly: open without writing (a store of an older schema is then refused:
    ///   upgrading it writes).
    /// - Parameter busyTimeout: how long a write waits for another process's lock before failing
    ///   with `TipStoreError.Kind.locked`, in seconds (to the millisecond; 0: not at all; at most
    ///   about 24 days, what SQLite's 32-bit milliseconds hold, which an infinity means).
    /// - Throws: `TipError.store`, saying why the store cannot be opened (`corrupt`,
    ///   `newerSchema`, `readOnly`, `locked`, `io`); `TipError.unrepresentableTime` for a
    ///   `busyTimeout` that is not a number or is below zero.
    public convenience init(path: String, deviceID newDeviceID: String? = nil, readOnly: Bool = false, create: Bool = true,
                            busyTimeout: TimeInterval = 5) throws(TipError) {
        guard busyTimeout >= 0 else { throw .unrepresentableTime("a busy timeout is zero or more seconds, not \(busyTimeout)") }
        let milliseconds = Int32(clamping: Milliseconds.of(seconds: busyTimeout))
        do {
            try self.init(path: path, deviceID: newDeviceID, readOnly: readOnly, create: create, busyTimeoutMilliseconds: milliseconds)
        } catch {
            throw .store(error)
        }
    }

    /// `init(path:deviceID:readOnly:create:busyTimeout:)` for tipc's own tools, which handle a
    /// store's errors as the store reports them.
    package init(path: String, deviceID newDeviceID: String? = nil, readOnly: Bool = false, create: Bool = true,
                 busyTimeoutMilliseconds: Int32) throws(TipStoreError) {
        self.path = path
        do {
            connection = try SQLiteConnection(path: path, readOnly: readOnly, create: create,
                                              busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw Self.storeError(error)
        }
        let candidate = newDeviceID ?? String(RecordID.random().prefix(16))
        do {
            if readOnly {
                try Self.migrations.check(connection)
            } else {
                // The device id is decided in the transaction that creates the schema, so a
                // store that another process is creating at the same instant opens whole.
                try Self.migrations.apply(to: connection) { (session) throws(SQLiteError) in
                    if try session.scalar("SELECT value FROM meta WHERE key = 'device_id'") == nil {
                        try session.run("INSERT INTO meta(key, value) VALUES ('device_id', ?1)", [.text(candidate)])
                    }
                }
            }
        } catch {
            switch error {
            case .newerSchema: throw TipStoreError(.newerSchema, error.description)
            case .foreignDatabase, .otherKind, .notMigrated(found: 0, _): throw TipStoreError(.corrupt, error.description)
            case .notMigrated: throw TipStoreError(.readOnly, error.description)
            case .sqlite(let sqlite): throw Self.storeError(sqlite)
            }
        }
        deviceID = try Self.run(connection) { session -> String in
            guard case .text(let existing) = try session.scalar("SELECT value FROM meta WHERE key = 'device_id'") else {
                throw TipStoreError(.corrupt, "the store has no device id")
            }
            return existing
        }
    }

    // MARK: - TipPersistence

    public func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        try Self.run(connection) { session -> StoreSnapshot in
            try session.readTransaction { tx -> StoreSnapshot in
                var snapshot = StoreSnapshot()
                try tx.query("SELECT \(StoreSQL.donationColumns.joined(separator: ", ")) FROM donations ORDER BY date, id") { rows in
                    while try rows.next() {
                        // A payload this version cannot read (a newer tipc's) stays stored, unused.
                        guard let value = PayloadStorage.decode(rows.text(3)) else { continue }
                        body(DonationRecord(id: rows.text(0), event: rows.text(1), date: Int64(rows.int(2)), value: value))
                    }
                }
                try tx.query("SELECT \(StoreSQL.parameterColumns.joined(separator: ", ")) FROM parameters") { rows in
                    while try rows.next() {
                        guard let value = RuntimeValue(storageText: rows.text(1)) else { continue }
                        snapshot.parameters[rows.text(0)] = ParameterRecord(
                            value: value, stamp: Stamp(milliseconds: Int64(rows.int(2)), device: rows.text(3)))
                    }
                }
                try tx.query("SELECT \(StoreSQL.tipRecordColumns.joined(separator: ", ")) FROM tip_records") { rows in
                    while try rows.next() {
                        if let record = Self.tipRecord(rows) { snapshot.tipRecords[record.id] = record }
                    }
                }
                if case .text(let text) = try tx.scalar("SELECT value FROM meta WHERE key = 'latest_first_display'") {
                    snapshot.latestFirstDisplay = Int64(text)
                }
                try tx.query("SELECT \(StoreSQL.donationDeletionColumns.joined(separator: ", ")) FROM donation_deletions") { rows in
                    while try rows.next() { snapshot.donationDeletions[rows.text(0)] = Int64(rows.int(1)) }
                }
                try tx.query("SELECT \(StoreSQL.assignmentColumns.joined(separator: ", ")) FROM assignments") { rows in
                    while try rows.next() {
                        let assignment = Self.assignment(rows)
                        snapshot.assignments[assignment.key] = assignment
                    }
                }
                return snapshot
            }
        }
    }

    public func append(_ donations: [DonationRecord]) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                for donation in donations { try Self.insert(donation, into: tx) }
            }
        }
    }

    public func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                if let age = maximumAgeMilliseconds {
                    try tx.run(Self.sql.trimByAge, [.text(event), .integer(Int(DonationLimit.cutoff(now: now, maximumAgeMilliseconds: age)))])
                }
                if let limit = maximumCount {
                    try tx.run(Self.sql.trimByCount, [.text(event), .integer(Int(clamping: max(0, limit)))])
                }
            }
        }
    }

    public func write(parameters: [String: ParameterRecord]) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                for (name, record) in parameters { try Self.write(parameter: name, record, into: tx) }
            }
        }
    }

    public func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                for record in records { try Self.insert(record, into: tx) }
                try Self.raiseLatestFirstDisplay(latestFirstDisplay, in: tx)
            }
        }
    }

    public func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                for assignment in assignments { try Self.keep(assignment, sql: Self.sql, scope: [], into: tx) }
            }
        }
    }

    public func merge(_ other: StoreSnapshot) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                for donation in other.donations.values { try Self.insert(donation, into: tx) }
                for record in other.tipRecords.values { try Self.insert(record, into: tx) }
                for (name, record) in other.parameters { try Self.write(parameter: name, record, into: tx) }
                try Self.raiseLatestFirstDisplay(other.latestFirstDisplay, in: tx)
                for (event, instant) in other.donationDeletions { try Self.raiseDeletion(of: event, to: instant, in: tx) }
                for assignment in other.assignments.values { try Self.keep(assignment, sql: Self.sql, scope: [], into: tx) }
            }
        }
    }

    public func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                try Self.raiseDeletion(of: event, to: instant, in: tx)
                try tx.run(Self.sql.deleteCoveredDonations, [.text(event)])
            }
        }
    }

    public func clear() throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                try tx.execute("""
                    DELETE FROM donations; DELETE FROM parameters; DELETE FROM tip_records; DELETE FROM donation_deletions;
                    DELETE FROM assignments; DELETE FROM meta WHERE key = 'latest_first_display'
                    """)
            }
        }
    }

    /// Runs `PRAGMA integrity_check`; true when SQLite finds the file sound.
    package func integrityCheck() throws(TipStoreError) -> Bool {
        try Self.run(connection) { session -> Bool in
            try session.scalar("PRAGMA integrity_check") == .text("ok")
        }
    }

    /// Everything stored, for merging into another store, once the file has passed
    /// `PRAGMA integrity_check` (every table has an index of all its columns, so a changed
    /// byte in any record shows) and every record `StoreSnapshot.validate()`; a file that
    /// fails either is refused as `.corrupt`. Open the store read-only for this, so that a
    /// damaged or foreign file is left as it was.
    package func verifiedSnapshot() throws(TipStoreError) -> StoreSnapshot {
        guard try integrityCheck() else {
            throw TipStoreError(.corrupt, "the store is damaged (SQLite's integrity check fails); nothing was merged")
        }
        let snapshot = try load()
        try snapshot.validate()
        return snapshot
    }

    // MARK: - Rows

    /// Adds a donation; the same donation already stored is fine (a merge seeing it again),
    /// another one under its id is a collision.
    private static func insert(_ donation: DonationRecord, into session: SQLiteConnection.Session) throws {
        try insert(donation, sql: sql, scope: [], into: session)
    }

    /// `insert(_:into:)` in a store whose `sql` has a scope (the service's user), given first.
    package static func insert(_ donation: DonationRecord, sql: StoreSQL, scope: [SQLiteValue], into session: SQLiteConnection.Session) throws {
        let payload = PayloadStorage.encode(donation.value)
        try session.run(sql.insertDonation, scope + [.text(donation.id), .text(donation.event), .integer(Int(donation.date)), .text(payload)])
        guard session.changes == 0 else { return }
        let same = try session.query(sql.selectDonation, scope + [.text(donation.id)]) { rows in
            try rows.next() && rows.text(1) == donation.event && Int64(rows.int(2)) == donation.date
                && rows.text(3).utf8.elementsEqual(payload.utf8)
        }
        if !same { throw TipStoreError.collision("donation", id: donation.id) }
    }

    private static func insert(_ record: TipEventRecord, into session: SQLiteConnection.Session) throws {
        try insert(record, sql: sql, scope: [], into: session)
    }

    /// Adds a tip record by union (copies of one version-1 display counter merge); another
    /// record under its id is a collision.
    package static func insert(_ record: TipEventRecord, sql: StoreSQL, scope: [SQLiteValue], into session: SQLiteConnection.Session) throws {
        let columns = record.kind.columns
        try session.run(sql.insertTipRecord, scope + [
            .text(record.id), .text(record.tip), .text(columns.kind), .integer(Int(record.stamp.milliseconds)), .text(record.stamp.device),
            .integer(Int(columns.count)), .integer(Int(columns.durationMilliseconds)), columns.reason.map { .text($0) } ?? .null,
            keyValue(record.key), record.storedDate.map { .integer(Int($0)) } ?? .null,
            text(columns.action), text(columns.experiment), text(record.arm),
        ])
        guard session.changes == 0 else { return }
        let stored = try session.query(sql.selectTipRecord, scope + [.text(record.id)]) { rows in try rows.next() ? tipRecord(rows) : nil }
        if stored != record { throw TipStoreError.collision("tip record", id: record.id) }
    }

    /// Stores an assignment unless the stored one of its experiment and salt comes first;
    /// another assignment under its id is a collision.
    package static func keep(_ assignment: AssignmentRecord, sql: StoreSQL, scope: [SQLiteValue], into session: SQLiteConnection.Session) throws {
        let key = scope + [.text(assignment.experiment), .text(assignment.salt)]
        let stored = try session.query(sql.selectAssignment, key) { rows in try rows.next() ? Self.assignment(rows) : nil }
        if let stored, stored.id.utf8.elementsEqual(assignment.id.utf8) {
            guard stored == assignment else { throw TipStoreError.collision("assignment", id: assignment.id) }
            return
        }
        try session.run(sql.keepEarlierAssignment, key + [.text(assignment.id), .text(assignment.arm), .integer(Int(assignment.date))])
    }

    /// The assignment in the current row of `StoreSQL.assignmentColumns`.
    package static func assignment(_ rows: SQLiteConnection.Rows) -> AssignmentRecord {
        AssignmentRecord(id: rows.text(2), experiment: rows.text(0), salt: rows.text(1), arm: rows.text(3), date: Int64(rows.int(4)))
    }

    private static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }

    private static func write(parameter name: String, _ record: ParameterRecord, into session: SQLiteConnection.Session) throws {
        try write(parameter: name, record, sql: sql, scope: [], into: session)
    }

    /// Stores a parameter unless a later write of it is stored (last writer wins).
    package static func write(parameter name: String, _ record: ParameterRecord, sql: StoreSQL, scope: [SQLiteValue],
                              into session: SQLiteConnection.Session) throws {
        try session.run(sql.writeParameter, scope + [.text(name), .text(record.value.storageText), .integer(Int(record.stamp.milliseconds)),
                                                     .text(record.stamp.device)])
    }

    private static func raiseLatestFirstDisplay(_ value: Int64?, in session: SQLiteConnection.Session) throws {
        guard let value else { return }
        try session.run("""
            INSERT INTO meta(key, value) VALUES ('latest_first_display', ?1)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value
            WHERE CAST(excluded.value AS INTEGER) > CAST(meta.value AS INTEGER)
            """, [.text(String(value))])
    }

    /// Records a deletion of `event`'s donations through `instant`; a later one stays.
    private static func raiseDeletion(of event: String, to instant: Int64, in session: SQLiteConnection.Session) throws {
        try session.run(sql.raiseDonationDeletion, [.text(event), .integer(Int(instant))])
    }

    /// The stored form of an instance's key.
    package static func keyValue(_ key: TipKey?) -> SQLiteValue {
        switch key {
        case .int(let number)?: return .integer(Int(number))
        case .string(let text)?: return .text(text)
        case nil: return .null
        }
    }

    /// The record in the current row of `StoreSQL.tipRecordColumns`; nil for a kind, reason or
    /// key this version does not know (kept, unused).
    package static func tipRecord(_ rows: SQLiteConnection.Rows) -> TipEventRecord? {
        func optionalText(_ column: Int32) -> String? { rows.value(column) == .null ? nil : rows.text(column) }
        guard let kind = TipEventRecord.Kind(kind: rows.text(2), count: Int64(rows.int(5)), durationMilliseconds: Int64(rows.int(6)),
                                             reason: optionalText(7), action: optionalText(10), experiment: optionalText(11)) else { return nil }
        let key: TipKey?
        switch rows.value(8) {
        case .null: key = nil
        case .integer(let number): key = .int(Int64(number))
        case .text(let text): key = .string(text)
        case .real, .blob: return nil
        }
        return TipEventRecord(id: rows.text(0), tip: rows.text(1), key: key,
                              stamp: Stamp(milliseconds: Int64(rows.int(3)), device: rows.text(4)), kind: kind,
                              date: rows.value(9) == .null ? nil : Int64(rows.int(9)), arm: optionalText(12))
    }

    // MARK: - Errors

    /// Runs `body` on the connection, turning SQLite failures into store errors.
    private static func run<T>(_ connection: SQLiteConnection, _ body: (SQLiteConnection.Session) throws -> T) throws(TipStoreError) -> T {
        do {
            return try connection.withSession { session in try body(session) }
        } catch let error as SQLiteError {
            throw storeError(error)
        } catch let error as TipStoreError {
            throw error
        } catch {
            throw TipStoreError(.io, "\(error)")
        }
    }

    package static func storeError(_ error: SQLiteError) -> TipStoreError {
        // SQLite quotes a damaged schema's text, line breaks included: one line, as every
        // error is.
        let message = error.message.split(whereSeparator: \.isNewline).joined(separator: " ")
        if error.isCorrupt { return TipStoreError(.corrupt, "the store is not a tipc database or is damaged: \(message)") }
        if error.isBusy { return TipStoreError(.locked, "the store is locked by another process: \(error.description)") }
        if error.isReadOnly { return TipStoreError(.readOnly, "the store cannot be written: \(message)") }
        return TipStoreError(.io, error.description)
    }
}
