/// The embedded, persistent default store: one SQLite file in WAL mode with
/// `synchronous=FULL`, so every acknowledged write survives a crash, and a busy timeout, so
/// two processes can share the file. Schema changes go through versioned migrations.
public final class SQLitePersistence: TipPersistence {
    public let deviceID: String
    public let path: String
    private let connection: SQLiteConnection

    /// The schema, one step per version.
    static let migrations = SQLiteMigrations([
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
    ])

    /// Opens (creating if needed) the store at `path`.
    /// - Parameter deviceID: the id for a new store (default: a random one); an existing
    ///   store keeps the id it was created with.
    /// - Parameter busyTimeoutMilliseconds: how long a write waits for another process's lock
    ///   before failing with `TipStoreError.Kind.locked`.
    public init(path: String, deviceID newDeviceID: String? = nil, readOnly: Bool = false,
                busyTimeoutMilliseconds: Int32 = 5_000) throws(TipStoreError) {
        self.path = path
        do {
            connection = try SQLiteConnection(path: path, readOnly: readOnly, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw Self.storeError(error)
        }
        do {
            if readOnly { try Self.migrations.check(connection) } else { try Self.migrations.apply(to: connection) }
        } catch {
            switch error {
            case .newerSchema: throw TipStoreError(.newerSchema, error.description)
            case .foreignDatabase, .notMigrated(found: 0, _): throw TipStoreError(.corrupt, error.description)
            case .notMigrated: throw TipStoreError(.readOnly, error.description)
            case .sqlite(let sqlite): throw Self.storeError(sqlite)
            }
        }
        let candidate = newDeviceID ?? Self.randomDeviceID()
        deviceID = try Self.run(connection) { session -> String in
            if case .text(let existing) = try session.scalar("SELECT value FROM meta WHERE key = 'device_id'") { return existing }
            try session.run("INSERT INTO meta(key, value) VALUES ('device_id', ?1)", [.text(candidate)])
            return candidate
        }
    }

    private static func randomDeviceID() -> String {
        var generator = SystemRandomNumberGenerator()
        let value = generator.next() as UInt64
        let hex = String(value, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    // MARK: - TipPersistence

    public func loadState() throws(TipStoreError) -> StoreSnapshot {
        try Self.run(connection) { session -> StoreSnapshot in
            var snapshot = StoreSnapshot()
            try session.query("SELECT name, value, stamp_ms, stamp_device FROM parameters") { rows in
                while try rows.next() {
                    guard let value = RuntimeValue(storageText: rows.text(1)) else { continue }
                    snapshot.parameters[rows.text(0)] = ParameterRecord(
                        value: value, stamp: Stamp(milliseconds: Int64(rows.int(2)), device: rows.text(3)))
                }
            }
            try session.query("SELECT name, invalidation, invalidation_ms, invalidation_device, reset_ms, reset_device FROM tips") { rows in
                while try rows.next() {
                    var record = TipRecord()
                    if case .text(let reason) = rows.value(1), let reason = InvalidationReason(rawValue: reason) {
                        record.invalidation = .init(reason: reason, stamp: Stamp(milliseconds: Int64(rows.int(2)), device: rows.text(3)))
                    }
                    if case .integer(let ms) = rows.value(4) {
                        record.reset = Stamp(milliseconds: Int64(ms), device: rows.text(5))
                    }
                    snapshot.tips[rows.text(0)] = record
                }
            }
            try session.query("SELECT tip, device, epoch_ms, epoch_device, count, duration_ms, first_display FROM display_counters") { rows in
                while try rows.next() {
                    var epoch: Stamp?
                    if case .integer(let ms) = rows.value(2) { epoch = Stamp(milliseconds: Int64(ms), device: rows.text(3)) }
                    var first: Int64?
                    if case .integer(let ms) = rows.value(6) { first = Int64(ms) }
                    let counter = DisplayCounter(epoch: epoch, count: Int64(rows.int(4)), durationMilliseconds: Int64(rows.int(5)), firstDisplay: first)
                    snapshot.tips[rows.text(0), default: TipRecord()].counters[rows.text(1)] = counter
                }
            }
            if case .text(let text) = try session.scalar("SELECT value FROM meta WHERE key = 'latest_first_display'") {
                snapshot.latestFirstDisplay = Int64(text)
            }
            return snapshot
        }
    }

    public func forEachDonation(_ body: (DonationRecord) throws -> Void) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.query("SELECT id, event, date, value FROM donations ORDER BY date, rowid") { rows in
                while try rows.next() {
                    let payload = PayloadStorage.decode(rows.text(3)) ?? [:]
                    try body(DonationRecord(id: rows.text(0), event: rows.text(1), date: Int64(rows.int(2)), value: payload))
                }
            }
        }
    }

    public func append(_ donations: [PendingDonation]) throws(TipStoreError) -> [DonationRecord] {
        let device = deviceID
        return try Self.run(connection) { session in
            try session.transaction { tx in
                var sequence = 0
                if case .text(let text) = try tx.scalar("SELECT value FROM meta WHERE key = 'next_sequence'") {
                    sequence = Int(text) ?? 0
                }
                var records: [DonationRecord] = []
                records.reserveCapacity(donations.count)
                for donation in donations {
                    sequence += 1
                    let record = donation.record(id: "\(device):\(sequence)")
                    try tx.run("INSERT OR IGNORE INTO donations(id, event, date, value) VALUES (?1, ?2, ?3, ?4)",
                               [.text(record.id), .text(record.event), .integer(Int(record.date)), .text(PayloadStorage.encode(record.value))])
                    records.append(record)
                }
                try tx.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('next_sequence', ?1)", [.text(String(sequence))])
                return records
            }
        }
    }

    public func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                if let age = maximumAgeMilliseconds {
                    try tx.run("""
                        DELETE FROM donations WHERE event = ?1
                          AND date < (SELECT max(date) FROM donations WHERE event = ?1) - ?2
                        """, [.text(event), .integer(Int(age))])
                }
                if let limit = maximumCount {
                    try tx.run("""
                        DELETE FROM donations WHERE rowid IN (
                          SELECT rowid FROM donations WHERE event = ?1 ORDER BY date DESC, rowid DESC LIMIT -1 OFFSET ?2)
                        """, [.text(event), .integer(Int(limit))])
                }
            }
        }
    }

    public func write(parameter name: String, _ record: ParameterRecord?) throws(TipStoreError) {
        try Self.run(connection) { session in
            if let record {
                try session.run("INSERT OR REPLACE INTO parameters(name, value, stamp_ms, stamp_device) VALUES (?1, ?2, ?3, ?4)",
                                [.text(name), .text(record.value.storageText), .integer(Int(record.stamp.milliseconds)), .text(record.stamp.device)])
            } else {
                try session.run("DELETE FROM parameters WHERE name = ?1", [.text(name)])
            }
        }
    }

    public func write(tip name: String, _ record: TipRecord, latestFirstDisplay: Int64?) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                try Self.insert(tip: name, record, into: tx)
                try Self.writeLatestFirstDisplay(latestFirstDisplay, into: tx)
            }
        }
    }

    public func replace(with snapshot: StoreSnapshot) throws(TipStoreError) {
        try Self.run(connection) { session in
            try session.transaction { tx in
                try tx.execute("DELETE FROM donations; DELETE FROM parameters; DELETE FROM tips; DELETE FROM display_counters")
                for record in snapshot.donations.values {
                    try tx.run("INSERT INTO donations(id, event, date, value) VALUES (?1, ?2, ?3, ?4)",
                               [.text(record.id), .text(record.event), .integer(Int(record.date)), .text(PayloadStorage.encode(record.value))])
                }
                for (name, record) in snapshot.parameters {
                    try tx.run("INSERT INTO parameters(name, value, stamp_ms, stamp_device) VALUES (?1, ?2, ?3, ?4)",
                               [.text(name), .text(record.value.storageText), .integer(Int(record.stamp.milliseconds)), .text(record.stamp.device)])
                }
                for (name, record) in snapshot.tips { try Self.insert(tip: name, record, into: tx) }
                try Self.writeLatestFirstDisplay(snapshot.latestFirstDisplay, into: tx)
            }
        }
    }

    /// Runs `PRAGMA integrity_check`; true when SQLite finds the file sound.
    public func integrityCheck() throws(TipStoreError) -> Bool {
        try Self.run(connection) { session -> Bool in
            try session.scalar("PRAGMA integrity_check") == .text("ok")
        }
    }

    // MARK: - Helpers

    private static func insert(tip name: String, _ record: TipRecord, into session: SQLiteConnection.Session) throws(SQLiteError) {
        let invalidation = record.invalidation
        try session.run(
            "INSERT OR REPLACE INTO tips(name, invalidation, invalidation_ms, invalidation_device, reset_ms, reset_device) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            [.text(name),
             invalidation.map { .text($0.reason.rawValue) } ?? .null,
             invalidation.map { .integer(Int($0.stamp.milliseconds)) } ?? .null,
             invalidation.map { .text($0.stamp.device) } ?? .null,
             record.reset.map { .integer(Int($0.milliseconds)) } ?? .null,
             record.reset.map { .text($0.device) } ?? .null])
        try session.run("DELETE FROM display_counters WHERE tip = ?1", [.text(name)])
        for (device, counter) in record.counters {
            try session.run(
                "INSERT INTO display_counters(tip, device, epoch_ms, epoch_device, count, duration_ms, first_display) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
                [.text(name), .text(device),
                 counter.epoch.map { .integer(Int($0.milliseconds)) } ?? .null,
                 counter.epoch.map { .text($0.device) } ?? .null,
                 .integer(Int(counter.count)), .integer(Int(counter.durationMilliseconds)),
                 counter.firstDisplay.map { .integer(Int($0)) } ?? .null])
        }
    }

    private static func writeLatestFirstDisplay(_ value: Int64?, into session: SQLiteConnection.Session) throws(SQLiteError) {
        if let value {
            try session.run("INSERT OR REPLACE INTO meta(key, value) VALUES ('latest_first_display', ?1)", [.text(String(value))])
        } else {
            try session.run("DELETE FROM meta WHERE key = 'latest_first_display'")
        }
    }

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

    static func storeError(_ error: SQLiteError) -> TipStoreError {
        if error.isCorrupt { return TipStoreError(.corrupt, "the store is not a tipc database or is damaged: \(error.message)") }
        if error.isBusy { return TipStoreError(.locked, "the store is locked by another process: \(error.message)") }
        if error.isReadOnly { return TipStoreError(.readOnly, "the store cannot be written: \(error.message)") }
        return TipStoreError(.io, error.description)
    }
}
