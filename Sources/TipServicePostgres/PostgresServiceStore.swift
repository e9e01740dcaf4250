import TipRuntime
import TipService

/// The tip service's store on PostgreSQL, for any number of `tipc serve` processes
/// sharing one database. Each `transaction(user:_:)` is one database transaction on a
/// connection of its own: it starts by locking the user's row in `users` (`SELECT … FOR
/// UPDATE`, after creating the row if needed), so the user's transactions run one at a time
/// across threads, processes and servers, and touch that user's rows only — which is what a
/// sharded PostgreSQL runs too. It commits when the body returns (a body that only read ends
/// with a rollback: same state, no wait for the disk); any failure, inside the body or of one
/// of its store operations (even one the body caught), rolls everything back.
///
/// A snapshot (a request that only reads) is one statement in autocommit on a pooled
/// connection: under READ COMMITTED a statement reads one snapshot, taken when it starts, so
/// it holds every transaction committed before; it takes no lock and never waits for one.
///
/// A lost connection or a server that is down is `TipStoreError.Kind.unavailable`; the next
/// transaction connects again, so the store recovers by itself once the server is back.
public final class PostgresServiceStore: ServiceStore {
    private let pool: PostgresConnectionPool

    /// Connects to `url` (`postgres://user@host:port/db`, or libpq's `key=value` form) and
    /// brings the schema up to date (see `PostgresMigrations`).
    /// - Parameter lockTimeoutMilliseconds: how long a transaction waits for the user's lock
    ///   (another server's transaction of the same user) before failing with
    ///   `TipStoreError.Kind.locked` (503), rather than hanging behind a stuck server.
    public init(url: String, lockTimeoutMilliseconds: Int = 10_000) throws(TipStoreError) {
        pool = PostgresConnectionPool(url: url, setup: "SET lock_timeout = \(max(1, lockTimeoutMilliseconds))")
        let connection = try Self.mapping { () throws(PostgresError) in try pool.connect() }
        try PostgresMigrations.apply(on: connection)
        pool.giveBack(connection)
    }

    public func transaction<T>(user: String, _ body: (any TipPersistence) throws -> T) throws -> T {
        let userID = Array(user.utf8)
        let (connection, latestFirstDisplay) = try begin(user: userID)
        defer { pool.giveBack(connection) }
        let view = PostgresUserPersistence(connection: connection, user: userID, deviceID: ServiceDeviceID.forUser(user),
                                           latestFirstDisplay: latestFirstDisplay)
        let result: T
        do {
            result = try body(view)
        } catch {
            view.close()
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
        let (failure, wrote) = view.close()
        if let failure {
            _ = try? connection.execute("ROLLBACK")
            throw failure
        }
        if !wrote {
            // Only read (and locked the user's row): ending it without a commit gives the same
            // state and spares the commit's wait for the WAL on disk.
            try Self.mapping { () throws(PostgresError) in try connection.execute("ROLLBACK") }
            return result
        }
        let committed = try Self.mapping { () throws(PostgresError) in try connection.execute("COMMIT") }
        // COMMIT of a transaction the server already failed answers ROLLBACK, not an error.
        guard committed.commandStatus == "COMMIT" else {
            throw TipStoreError(.io, "PostgreSQL rolled the transaction back (\(committed.commandStatus))")
        }
        return result
    }

    public func snapshot(user: String, donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        let (connection, rows) = try open { (connection) throws(PostgresError) in
            try connection.query(PostgresUserPersistence.readAll, [.bytea(Array(user.utf8))])
        }
        pool.giveBack(connection)
        return PostgresUserPersistence.snapshot(rows, donations: body)
    }

    public func recordCount(user: String, atMost limit: Int) throws(TipStoreError) -> Int {
        let (connection, rows) = try open { (connection) throws(PostgresError) in
            try connection.query(PostgresUserPersistence.countRecords, [.bytea(Array(user.utf8)), .bigint(Int64(limit))])
        }
        pool.giveBack(connection)
        return PostgresUserPersistence.recordCount(rows)
    }

    public func reportTallies(_ plan: ReportPlan) throws(TipStoreError) -> ReportTallies {
        // One REPEATABLE READ transaction, read only: every statement counts the same snapshot.
        let (connection, _) = try open { (connection) throws(PostgresError) in
            try connection.execute("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY")
        }
        defer { pool.giveBack(connection) }
        do {
            let tallies = try ReportSQL.postgres.tallies(plan) { (statement) throws(PostgresError) -> [[ReportSQL.Value]] in
                let parameters: [PostgresValue] = statement.parameters.map { parameter in
                    switch parameter {
                    case .text(let text): .utf8(text)
                    case .integer(let value): .bigint(value)
                    case .null: .null
                    }
                }
                let rows = try connection.query(statement.sql, parameters)
                return (0..<rows.count).map { row in
                    statement.columns.enumerated().map { index, column in
                        switch column {
                        case .integer: .integer(rows.int64(row, index) ?? 0)
                        case .text: .text(rows.string(row, index))
                        }
                    }
                }
            }
            try Self.mapping { () throws(PostgresError) in try connection.execute("COMMIT") }
            return tallies
        } catch let error as PostgresError {
            _ = try? connection.execute("ROLLBACK")
            throw Self.storeError(error)
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error as? TipStoreError ?? TipStoreError(.io, "\(error)")
        }
    }

    public func checkHealth() throws(TipStoreError) {
        let (connection, _) = try open { (connection) throws(PostgresError) in try connection.execute("SELECT 1") }
        pool.giveBack(connection)
    }

    /// Opens the user's transaction: BEGIN, then the user's row locked (created first when
    /// new). Returns the connection and the user's latest first display.
    private func begin(user: [UInt8]) throws(TipStoreError) -> (PostgresConnection, Int64?) {
        try open { (connection) throws(PostgresError) in try lock(user: user, on: connection) }
    }

    /// A connection on which `first` succeeded, and what `first` returned. An idle connection
    /// that turns out broken here (the server restarted while it was idle) has done nothing
    /// yet, so it is replaced once by a new one, and the other idle connections, as old as
    /// it, are closed.
    private func open<T>(_ first: (PostgresConnection) throws(PostgresError) -> T) throws(TipStoreError) -> (PostgresConnection, T) {
        try Self.mapping { () throws(PostgresError) -> (PostgresConnection, T) in
            let (connection, reused) = try pool.take()
            do throws(PostgresError) {
                return (connection, try first(connection))
            } catch where reused && error.connectionLost {
                pool.closeIdle()
                let fresh = try pool.connect()
                do throws(PostgresError) {
                    return (fresh, try first(fresh))
                } catch {
                    pool.giveBack(fresh)
                    throw error
                }
            } catch {
                pool.giveBack(connection)
                throw error
            }
        }
    }

    /// BEGIN and the user's row locked; on failure the transaction is rolled back.
    private func lock(user: [UInt8], on connection: PostgresConnection) throws(PostgresError) -> Int64? {
        try connection.execute("BEGIN")
        do throws(PostgresError) {
            let select = "SELECT latest_first_display FROM users WHERE user_id = $1 FOR UPDATE"
            var row = try connection.query(select, [.bytea(user)])
            if row.count == 0 {
                // Two servers may create the same user at once: one insert wins, both then lock it.
                try connection.query("INSERT INTO users(user_id) VALUES ($1) ON CONFLICT (user_id) DO NOTHING", [.bytea(user)])
                row = try connection.query(select, [.bytea(user)])
            }
            guard row.count == 1 else {
                throw PostgresError(sqlState: "", message: "the users table has no row for the user after creating it", connectionLost: false)
            }
            return row.int64(0, 0)
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }

    // MARK: - Errors

    /// Runs `body`, its PostgreSQL failure turned into a store error.
    @discardableResult
    static func mapping<T>(_ body: () throws(PostgresError) -> T) throws(TipStoreError) -> T {
        do throws(PostgresError) { return try body() } catch { throw storeError(error) }
    }

    static func storeError(_ error: PostgresError) -> TipStoreError {
        // A lost connection, or a failure libpq reports without the server's SQLSTATE (the
        // server never answered: "server closed the connection unexpectedly" can come before
        // libpq marks the connection bad): try again.
        if error.connectionLost || error.sqlState.isEmpty {
            return TipStoreError(.unavailable, "the PostgreSQL database is unavailable: \(error.description)")
        }
        switch error.sqlState {
        case "55P03", "57014", "40001", "40P01":  // lock or statement timeout, serialisation, deadlock
            return TipStoreError(.locked, "PostgreSQL: \(error.description)")
        case "25006", "42501":  // read-only transaction, insufficient privilege
            return TipStoreError(.readOnly, "PostgreSQL refuses the write: \(error.description)")
        default:
            return TipStoreError(.io, "PostgreSQL: \(error.description)")
        }
    }
}
