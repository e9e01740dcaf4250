import TipRuntime
import TipService

/// One user's records inside one open transaction of `PostgresServiceStore`: the
/// `TipPersistence` a service request works on. Every statement names the user, so nothing
/// reads or writes another user's rows. The transaction, not each call, is the unit of
/// atomicity: the first failing operation dooms it (the store then rolls it back even if the
/// body caught the error), and once the transaction has ended every call fails.
final class PostgresUserPersistence: TipPersistence, UserRecordCounting {
    let deviceID: String
    private let connection: PostgresConnection
    private let user: PostgresValue
    private let state: RuntimeLock<State>

    private struct State {
        var open = true
        /// The first failure, which dooms the transaction.
        var failure: TipStoreError?
        /// Whether any operation wrote (or tried to).
        var wrote = false
        /// The user's latest first display as this transaction sees it (the user's row is
        /// locked, so nobody else changes it meanwhile).
        var latestFirstDisplay: Int64?
    }

    /// The statements of the records' rules (`StoreSQL`), over the service's tables, keyed by the user.
    static let sql = StoreSQL(dialect: .postgres, tables: .init(donations: "donations", parameters: "parameters",
                                                                 tipRecords: "tip_records", donationDeletions: "donation_deletions",
                                                                 assignments: "assignments"),
                              scope: ["user_id"])

    init(connection: PostgresConnection, user: [UInt8], deviceID: String, latestFirstDisplay: Int64?) {
        self.connection = connection
        self.user = .bytea(user)
        self.deviceID = deviceID
        state = RuntimeLock(State(latestFirstDisplay: latestFirstDisplay))
    }

    /// Ends the view's use (the transaction is ending); returns the failure that dooms the
    /// transaction, if any, and whether anything was written.
    @discardableResult
    func close() -> (failure: TipStoreError?, wrote: Bool) {
        state.withLock { state in
            state.open = false
            return (state.failure, state.wrote)
        }
    }

    // MARK: - TipPersistence

    /// Everything in one statement (one round trip, so one snapshot even outside a
    /// transaction): the six tables' rows in one shape, the tip records' columns from the
    /// second on, marked by their source ('a' for assignments, 'd', 'p', 'r', 'u' for the
    /// user's row, 'x' for donation deletions; a tip record's key in the `value` column; an
    /// assignment's experiment in `name`, date in `ms`, salt in `value` and arm in `arm`), the
    /// donations in their order (by date, then id).
    static let readAll = """
        SELECT 'd'::text AS source, id, event AS name, NULL::text AS kind, date AS ms, NULL::bytea AS device,
               0::bigint AS count, 0::bigint AS duration_ms, NULL::text AS reason, value, NULL::bigint AS date_ms,
               NULL::bytea AS action_id, NULL::bytea AS experiment, NULL::bytea AS arm
          FROM donations WHERE user_id = $1
        UNION ALL
        SELECT 'p', NULL, name, NULL, stamp_ms, stamp_device, 0, 0, NULL, value, NULL, NULL, NULL, NULL FROM parameters WHERE user_id = $1
        UNION ALL
        SELECT 'r', id, tip, kind, stamp_ms, stamp_device, count, duration_ms, reason, instance_key, date_ms, action_id, experiment, arm
          FROM tip_records WHERE user_id = $1
        UNION ALL
        SELECT 'u', NULL, NULL, NULL, latest_first_display, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL FROM users WHERE user_id = $1
        UNION ALL
        SELECT 'x', NULL, event, NULL, instant, NULL, 0, 0, NULL, NULL, NULL, NULL, NULL, NULL FROM donation_deletions WHERE user_id = $1
        UNION ALL
        SELECT 'a', id, experiment, NULL, date_ms, NULL, 0, 0, NULL, salt, NULL, NULL, NULL, arm FROM assignments WHERE user_id = $1
        ORDER BY source, ms, id
        """

    func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        try run { () throws(PostgresError) -> StoreSnapshot in
            var snapshot = Self.snapshot(try connection.query(Self.readAll, [user]), donations: body)
            // The same value as the row's: the transaction holds the user's row locked.
            snapshot.latestFirstDisplay = state.withLock { $0.latestFirstDisplay }
            return snapshot
        }
    }

    func recordCount(atMost limit: Int) throws(TipStoreError) -> Int {
        try run { () throws(PostgresError) -> Int in Self.recordCount(try connection.query(Self.countRecords, [user, .bigint(Int64(limit))])) }
    }

    /// The user's donations, tip records and assignments, each counted up to `$2` (an index
    /// walk that stops there).
    static let countRecords = """
        SELECT (SELECT count(*) FROM (SELECT 1 FROM donations WHERE user_id = $1 LIMIT $2) AS d)
             + (SELECT count(*) FROM (SELECT 1 FROM tip_records WHERE user_id = $1 LIMIT $2) AS r)
             + (SELECT count(*) FROM (SELECT 1 FROM assignments WHERE user_id = $1 LIMIT $2) AS a)
        """

    static func recordCount(_ rows: PostgresResult) -> Int {
        rows.count == 1 ? Int(rows.int64(0, 0) ?? 0) : 0
    }

    /// The records in the rows of `readAll`; the donations go to `body`, oldest first.
    static func snapshot(_ rows: PostgresResult, donations body: (DonationRecord) -> Void) -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for row in 0..<rows.count {
            switch rows.string(row, 0) {
            case "d":
                // A payload this version cannot read (a newer tipc's) stays stored, unused.
                guard let id = rows.string(row, 1), let event = rows.string(row, 2), let date = rows.int64(row, 4),
                      let text = rows.string(row, 9), let value = PayloadStorage.decode(text) else { continue }
                body(DonationRecord(id: id, event: event, date: date, value: value))
            case "p":
                guard let name = rows.string(row, 2), let text = rows.string(row, 9), let value = RuntimeValue(storageText: text),
                      let milliseconds = rows.int64(row, 4), let device = rows.string(row, 5) else { continue }
                snapshot.parameters[name] = ParameterRecord(value: value, stamp: Stamp(milliseconds: milliseconds, device: device))
            case "u":
                snapshot.latestFirstDisplay = rows.int64(row, 4)
            case "x":
                guard let event = rows.string(row, 2), let instant = rows.int64(row, 4) else { continue }
                snapshot.donationDeletions[event] = instant
            case "a":
                guard let assignment = assignment(rows, row, from: 1) else { continue }
                snapshot.assignments[assignment.key] = assignment
            default:
                if let record = tipRecord(rows, row, from: 1) { snapshot.tipRecords[record.id] = record }
            }
        }
        return snapshot
    }

    func append(_ donations: [DonationRecord]) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            for donation in donations { try insert(donation) }
        }
    }

    func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            if let age = maximumAgeMilliseconds {
                try connection.query(Self.sql.trimByAge, [user, .utf8(event), .bigint(DonationLimit.cutoff(now: now, maximumAgeMilliseconds: age))])
            }
            if let limit = maximumCount {
                try connection.query(Self.sql.trimByCount, [user, .utf8(event), .bigint(max(0, limit))])
            }
        }
    }

    func write(parameters: [String: ParameterRecord]) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            for (name, record) in parameters { try write(parameter: name, record) }
        }
    }

    func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            for record in records { try insert(record) }
            try raiseLatestFirstDisplay(latestFirstDisplay)
        }
    }

    func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            for assignment in assignments { try keep(assignment) }
        }
    }

    func merge(_ other: StoreSnapshot) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            for donation in other.donations.values { try insert(donation) }
            for record in other.tipRecords.values { try insert(record) }
            for (name, record) in other.parameters { try write(parameter: name, record) }
            try raiseLatestFirstDisplay(other.latestFirstDisplay)
            for (event, instant) in other.donationDeletions { try raiseDeletion(of: event, to: instant) }
            for assignment in other.assignments.values { try keep(assignment) }
        }
    }

    func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            try raiseDeletion(of: event, to: instant)
            try connection.query(Self.sql.deleteCoveredDonations, [user, .utf8(event)])
        }
    }

    func clear() throws(TipStoreError) {
        try run(writing: true) { () throws(PostgresError) in
            try connection.query("DELETE FROM donations WHERE user_id = $1", [user])
            try connection.query("DELETE FROM parameters WHERE user_id = $1", [user])
            try connection.query("DELETE FROM tip_records WHERE user_id = $1", [user])
            try connection.query("DELETE FROM donation_deletions WHERE user_id = $1", [user])
            try connection.query("DELETE FROM assignments WHERE user_id = $1", [user])
            // The user's row too, so nothing of the user is left (`DELETE /v1/users/{user}`). It
            // stays locked by this transaction until it ends; another transaction of the user
            // waiting for it then finds no row and creates it again.
            try connection.query("DELETE FROM users WHERE user_id = $1", [user])
            state.withLock { $0.latestFirstDisplay = nil }
        }
    }

    // MARK: - Rows (the SQLite stores' statements, in PostgreSQL)

    /// Records that `event`'s donations dated at or before `instant` are deleted; a later
    /// recorded instant stays (merge keeps the later one).
    private func raiseDeletion(of event: String, to instant: Int64) throws(PostgresError) {
        try connection.query(Self.sql.raiseDonationDeletion, [user, .utf8(event), .bigint(instant)])
    }

    /// Adds a donation; the same donation already stored is fine (a merge seeing it again),
    /// another one under its id is a collision.
    private func insert(_ donation: DonationRecord) throws(PostgresError) {
        let payload = Array(PayloadStorage.encode(donation.value).utf8)
        let inserted = try connection.query(Self.sql.insertDonation, [user, .utf8(donation.id), .utf8(donation.event), .bigint(donation.date), .bytea(payload)])
        guard inserted.affectedRows == 0 else { return }
        let stored = try connection.query(Self.sql.selectDonation, [user, .utf8(donation.id)])
        let same = stored.count == 1 && stored.bytes(0, 1) == Array(donation.event.utf8) && stored.int64(0, 2) == donation.date
            && stored.bytes(0, 3) == payload
        if !same { try collide(TipStoreError.collision("donation", id: donation.id)) }
    }

    /// Adds a tip record by union (copies of one version-1 display counter merge); another
    /// record under its id is a collision.
    private func insert(_ record: TipEventRecord) throws(PostgresError) {
        let columns = record.kind.columns
        let inserted = try connection.query(Self.sql.insertTipRecord, [
            user, .utf8(record.id), .utf8(record.tip), .text(columns.kind), .bigint(record.stamp.milliseconds), .utf8(record.stamp.device),
            .bigint(columns.count), .bigint(columns.durationMilliseconds), columns.reason.map { .text($0) } ?? .null,
            record.key.map { .utf8($0.value.storageText) } ?? .null, record.storedDate.map { .bigint($0) } ?? .null,
            columns.action.map { .utf8($0) } ?? .null, columns.experiment.map { .utf8($0) } ?? .null, record.arm.map { .utf8($0) } ?? .null,
        ])
        guard inserted.affectedRows == 0 else { return }
        let stored = try connection.query(Self.sql.selectTipRecord, [user, .utf8(record.id)])
        if stored.count != 1 || Self.tipRecord(stored, 0) != record {
            try collide(TipStoreError.collision("tip record", id: record.id))
        }
    }

    /// Stores an assignment unless the stored one of its experiment and salt comes first;
    /// another assignment under its id is a collision.
    private func keep(_ assignment: AssignmentRecord) throws(PostgresError) {
        let key: [PostgresValue] = [user, .utf8(assignment.experiment), .utf8(assignment.salt)]
        let stored = try connection.query(Self.sql.selectAssignment, key)
        if stored.count == 1, let existing = Self.assignment(stored, 0), existing.id.utf8.elementsEqual(assignment.id.utf8) {
            if existing != assignment { try collide(TipStoreError.collision("assignment", id: assignment.id)) }
            return
        }
        try connection.query(Self.sql.keepEarlierAssignment, key + [.utf8(assignment.id), .utf8(assignment.arm), .bigint(assignment.date)])
    }

    /// The assignment in a row of `StoreSQL.assignmentColumns`; in a row of `readAll` (from
    /// column 1), its own shape.
    private static func assignment(_ rows: PostgresResult, _ row: Int, from first: Int? = nil) -> AssignmentRecord? {
        if let first {
            guard let id = rows.string(row, first), let experiment = rows.string(row, first + 1), let date = rows.int64(row, first + 3),
                  let salt = rows.string(row, first + 8), let arm = rows.string(row, first + 12) else { return nil }
            return AssignmentRecord(id: id, experiment: experiment, salt: salt, arm: arm, date: date)
        }
        guard let experiment = rows.string(row, 0), let salt = rows.string(row, 1), let id = rows.string(row, 2),
              let arm = rows.string(row, 3), let date = rows.int64(row, 4) else { return nil }
        return AssignmentRecord(id: id, experiment: experiment, salt: salt, arm: arm, date: date)
    }

    /// Stores a parameter unless a later write of it is stored (last writer wins).
    private func write(parameter name: String, _ record: ParameterRecord) throws(PostgresError) {
        try connection.query(Self.sql.writeParameter, [user, .utf8(name), .utf8(record.value.storageText), .bigint(record.stamp.milliseconds),
                                                       .utf8(record.stamp.device)])
    }

    private func raiseLatestFirstDisplay(_ value: Int64?) throws(PostgresError) {
        guard let value else { return }
        let raised = state.withLock { state -> Bool in
            guard state.latestFirstDisplay.map({ value > $0 }) ?? true else { return false }
            state.latestFirstDisplay = value
            return true
        }
        if raised {
            // An upsert: `clear` may have deleted the user's row earlier in this transaction.
            try connection.query("""
                INSERT INTO users(user_id, latest_first_display) VALUES ($1, $2)
                ON CONFLICT (user_id) DO UPDATE SET latest_first_display = excluded.latest_first_display
                """, [user, .bigint(value)])
        }
    }

    /// The record in a row of `StoreSQL.tipRecordColumns` (from column `first` on); nil for a
    /// kind, reason or key this version does not know (kept, unused).
    private static func tipRecord(_ rows: PostgresResult, _ row: Int, from first: Int = 0) -> TipEventRecord? {
        guard let id = rows.string(row, first), let tip = rows.string(row, first + 1), let milliseconds = rows.int64(row, first + 3),
              let device = rows.string(row, first + 4) else { return nil }
        guard let kind = TipEventRecord.Kind(kind: rows.string(row, first + 2) ?? "", count: rows.int64(row, first + 5) ?? 0,
                                             durationMilliseconds: rows.int64(row, first + 6) ?? 0,
                                             reason: rows.string(row, first + 7), action: rows.string(row, first + 10),
                                             experiment: rows.string(row, first + 11)) else { return nil }
        // The key as its stored text (typed: an Int or a String), NULL for a tip without one.
        var key: TipKey?
        if let text = rows.string(row, first + 8) {
            switch RuntimeValue(storageText: text) {
            case .int(let number)?: key = .int(number)
            case .string(let value)?: key = .string(value)
            default: return nil
            }
        }
        return TipEventRecord(id: id, tip: tip, key: key, stamp: Stamp(milliseconds: milliseconds, device: device), kind: kind,
                              date: rows.int64(row, first + 9), arm: rows.string(row, first + 12))
    }

    // MARK: - Failures

    private func collide(_ error: TipStoreError) throws(PostgresError) {
        state.withLock { $0.failure = $0.failure ?? error }
        throw PostgresError(sqlState: "", message: error.message, connectionLost: false)
    }

    /// Runs one operation's statements: refused once the transaction has ended or failed; a
    /// failure dooms the transaction.
    private func run<T>(writing: Bool = false, _ body: () throws(PostgresError) -> T) throws(TipStoreError) -> T {
        let refusal = state.withLock { state -> TipStoreError? in
            if !state.open { return TipStoreError(.io, "the user's transaction has ended; its store cannot be used any more") }
            if let failure = state.failure { return TipStoreError(failure.kind, "an earlier failure ended the user's transaction: \(failure.message)") }
            if writing { state.wrote = true }
            return nil
        }
        if let refusal { throw refusal }
        do throws(PostgresError) {
            return try body()
        } catch {
            let failure = state.withLock { state -> TipStoreError in
                if state.failure == nil { state.failure = PostgresServiceStore.storeError(error) }
                return state.failure!
            }
            throw failure
        }
    }
}
