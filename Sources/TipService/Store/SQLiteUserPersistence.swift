import TipRuntime
import TipRuntimeSQLite

/// One user's records in the service's SQLite file, as a `TipPersistence` whose every read
/// and write runs inside the transaction `SQLiteServiceStore.transaction` opened. Each
/// method's writes sit in a savepoint, so a method that fails leaves nothing behind (the
/// "one transaction" each promises), while the whole request stays one transaction.
final class SQLiteUserPersistence: TipPersistence, UserRecordCounting, @unchecked Sendable {
    // @unchecked: the session is a C handle that the connection's lock guards; the view is
    // used only inside the transaction's closure, on its thread, and closed when it returns.
    private var session: SQLiteConnection.Session?
    let user: String
    let deviceID: String

    /// The statements of the records' rules (`StoreSQL`), over the service's tables, keyed by the user.
    static let sql = StoreSQL(dialect: .sqlite, tables: .init(donations: "service_donations", parameters: "service_parameters",
                                                               tipRecords: "service_tip_records", donationDeletions: "service_donation_deletions",
                                                               assignments: "service_assignments"),
                              scope: ["user_id"])

    init(session: SQLiteConnection.Session, user: String) {
        self.session = session
        self.user = user
        deviceID = ServiceDeviceID.forUser(user)
    }

    /// Ends the view with its transaction: later use fails rather than touch another one.
    func close() { session = nil }

    func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        try run { session in try Self.read(user: user, session, donations: body) }
    }

    /// Everything of one user in one statement, so that it reads one snapshot even outside a
    /// transaction: the six tables' rows in one shape, marked by their source in the last
    /// column ('a' assignments, 'd' donations, 'p' parameters, 'r' tip records, 'u' the user's
    /// row, 'x' donation deletions). The first thirteen columns are a tip record's (what
    /// `SQLitePersistence.tipRecord` reads); the others put their name in the second, their
    /// instant in the fourth and their value in the ninth (an assignment: its experiment, date,
    /// salt, and its arm in the thirteenth). Donations come in their order (by date, then id).
    /// The union is sorted once as a whole: an `ORDER BY` on the union itself makes SQLite sort
    /// each of the six arms apart and merge them, which costs more than the reading.
    static let readAll = """
        SELECT * FROM (
            SELECT id, tip AS name, kind, stamp_ms AS ms, stamp_device, count, duration_ms, reason, instance_key AS value, date_ms,
                   action_id, experiment, arm, 'r' AS source FROM service_tip_records WHERE user_id = ?1
            UNION ALL
            SELECT id, event, NULL, date, NULL, 0, 0, NULL, value, NULL, NULL, NULL, NULL, 'd' FROM service_donations WHERE user_id = ?1
            UNION ALL
            SELECT NULL, name, NULL, stamp_ms, stamp_device, 0, 0, NULL, value, NULL, NULL, NULL, NULL, 'p' FROM service_parameters WHERE user_id = ?1
            UNION ALL
            SELECT NULL, NULL, NULL, latest_first_display, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, 'u' FROM service_users WHERE user_id = ?1
            UNION ALL
            SELECT NULL, event, NULL, instant, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL, 'x' FROM service_donation_deletions WHERE user_id = ?1
            UNION ALL
            SELECT id, experiment, NULL, date_ms, NULL, 0, 0, NULL, salt, NULL, NULL, NULL, arm, 'a' FROM service_assignments WHERE user_id = ?1
        ) ORDER BY source, ms, id
        """

    /// Everything stored of `user`, read by the one statement `readAll` on `session` (in a
    /// write transaction's view, or on its own: `SQLiteServiceStore.snapshot`).
    static func read(user: String, _ session: SQLiteConnection.Session, donations body: (DonationRecord) -> Void) throws -> StoreSnapshot {
        try session.query(readAll, [.text(user)]) { rows in
            var snapshot = StoreSnapshot()
            while try rows.next() {
                switch rows.text(13) {
                case "d":
                    guard let value = PayloadStorage.decode(rows.text(8)) else { continue }
                    body(DonationRecord(id: rows.text(0), event: rows.text(1), date: Int64(rows.int(3)), value: value))
                case "p":
                    guard let value = RuntimeValue(storageText: rows.text(8)) else { continue }
                    snapshot.parameters[rows.text(1)] = ParameterRecord(
                        value: value, stamp: Stamp(milliseconds: Int64(rows.int(3)), device: rows.text(4)))
                case "u":
                    if case .integer(let latest) = rows.value(3) { snapshot.latestFirstDisplay = Int64(latest) }
                case "x":
                    snapshot.donationDeletions[rows.text(1)] = Int64(rows.int(3))
                case "a":
                    let assignment = AssignmentRecord(id: rows.text(0), experiment: rows.text(1), salt: rows.text(8), arm: rows.text(12),
                                                      date: Int64(rows.int(3)))
                    snapshot.assignments[assignment.key] = assignment
                default:
                    if let record = SQLitePersistence.tipRecord(rows) { snapshot.tipRecords[record.id] = record }
                }
            }
            return snapshot
        }
    }

    func recordCount(atMost limit: Int) throws(TipStoreError) -> Int {
        try run { session in try Self.recordCount(user: user, session, atMost: limit) }
    }

    /// The user's donations, tip records and assignments, each counted up to `limit` (an index
    /// walk that stops there).
    static func recordCount(user: String, _ session: SQLiteConnection.Session, atMost limit: Int) throws -> Int {
        let count = try session.scalar("""
            SELECT (SELECT count(*) FROM (SELECT 1 FROM service_donations WHERE user_id = ?1 LIMIT ?2))
                 + (SELECT count(*) FROM (SELECT 1 FROM service_tip_records WHERE user_id = ?1 LIMIT ?2))
                 + (SELECT count(*) FROM (SELECT 1 FROM service_assignments WHERE user_id = ?1 LIMIT ?2))
            """, [.text(user), .integer(limit)])
        guard case .integer(let value)? = count else { return 0 }
        return Int(value)
    }

    func append(_ donations: [DonationRecord]) throws(TipStoreError) {
        try write { session in
            for donation in donations { try self.insert(donation, session) }
        }
    }

    func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) {
        try write { session in
            if let age = maximumAgeMilliseconds {
                try session.run(Self.sql.trimByAge, [.text(self.user), .text(event), .integer(Int(DonationLimit.cutoff(now: now, maximumAgeMilliseconds: age)))])
            }
            if let limit = maximumCount {
                try session.run(Self.sql.trimByCount, [.text(self.user), .text(event), .integer(Int(clamping: max(0, limit)))])
            }
        }
    }

    func write(parameters: [String: ParameterRecord]) throws(TipStoreError) {
        try write { session in
            for (name, record) in parameters { try self.write(parameter: name, record, session) }
        }
    }

    func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) {
        try write { session in
            for record in records { try self.insert(record, session) }
            try self.raiseLatestFirstDisplay(latestFirstDisplay, session)
        }
    }

    func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError) {
        try write { session in
            for assignment in assignments { try SQLitePersistence.keep(assignment, sql: Self.sql, scope: [.text(self.user)], into: session) }
        }
    }

    func merge(_ other: StoreSnapshot) throws(TipStoreError) {
        try write { session in
            for donation in other.donations.values { try self.insert(donation, session) }
            for record in other.tipRecords.values { try self.insert(record, session) }
            for (name, record) in other.parameters { try self.write(parameter: name, record, session) }
            try self.raiseLatestFirstDisplay(other.latestFirstDisplay, session)
            for (event, instant) in other.donationDeletions { try self.raiseDeletion(of: event, to: instant, session) }
            for assignment in other.assignments.values {
                try SQLitePersistence.keep(assignment, sql: Self.sql, scope: [.text(self.user)], into: session)
            }
        }
    }

    func clear() throws(TipStoreError) {
        try write { session in
            for table in ["service_donations", "service_parameters", "service_tip_records", "service_donation_deletions", "service_assignments",
                          "service_users"] {
                try session.run("DELETE FROM \(table) WHERE user_id = ?1", [.text(self.user)])
            }
        }
    }

    /// `deleteDonations(of:)` (format 2): records that the donations of `event` dated at or
    /// before `instant` are deleted (a later recorded instant stays), and removes them: the
    /// device store's rule, keyed by the user.
    func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) {
        try write { session in
            try self.raiseDeletion(of: event, to: instant, session)
            try session.run(Self.sql.deleteCoveredDonations, [.text(self.user), .text(event)])
        }
    }

    /// Records a deletion of `event`'s donations through `instant`; a later one stays.
    private func raiseDeletion(of event: String, to instant: Int64, _ session: SQLiteConnection.Session) throws {
        try session.run(Self.sql.raiseDonationDeletion, [.text(user), .text(event), .integer(Int(instant))])
    }

    // MARK: - Rows (the device store's statements, keyed by the user)

    private func insert(_ donation: DonationRecord, _ session: SQLiteConnection.Session) throws {
        try SQLitePersistence.insert(donation, sql: Self.sql, scope: [.text(user)], into: session)
    }

    private func insert(_ record: TipEventRecord, _ session: SQLiteConnection.Session) throws {
        try SQLitePersistence.insert(record, sql: Self.sql, scope: [.text(user)], into: session)
    }

    private func write(parameter name: String, _ record: ParameterRecord, _ session: SQLiteConnection.Session) throws {
        try SQLitePersistence.write(parameter: name, record, sql: Self.sql, scope: [.text(user)], into: session)
    }

    private func raiseLatestFirstDisplay(_ value: Int64?, _ session: SQLiteConnection.Session) throws {
        guard let value else { return }
        try session.run("""
            INSERT INTO service_users(user_id, latest_first_display) VALUES (?1, ?2)
            ON CONFLICT(user_id) DO UPDATE SET latest_first_display = excluded.latest_first_display
            WHERE service_users.latest_first_display IS NULL OR excluded.latest_first_display > service_users.latest_first_display
            """, [.text(user), .integer(Int(value))])
    }

    // MARK: - Plumbing

    /// Runs reads in the open transaction.
    private func run<T>(_ body: (SQLiteConnection.Session) throws -> T) throws(TipStoreError) -> T {
        guard let session else { throw TipStoreError(.io, "the user's transaction has ended") }
        do {
            return try body(session)
        } catch {
            throw Self.storeError(error)
        }
    }

    /// Runs writes in a savepoint of the open transaction: all of them, or none.
    private func write(_ body: (SQLiteConnection.Session) throws -> Void) throws(TipStoreError) {
        try run { session in
            try session.execute("SAVEPOINT tipc_write")
            do {
                try body(session)
                try session.execute("RELEASE tipc_write")
            } catch {
                try? session.execute("ROLLBACK TO tipc_write; RELEASE tipc_write")
                throw error
            }
        }
    }

    static func storeError(_ error: any Error) -> TipStoreError {
        switch error {
        case let error as TipStoreError: return error
        case let error as SQLiteError: return SQLitePersistence.storeError(error)
        default: return TipStoreError(.io, "\(error)")
        }
    }
}
