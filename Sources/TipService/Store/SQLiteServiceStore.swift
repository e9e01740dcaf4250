import TipRuntime
import TipRuntimeSQLite

/// The tip service's embedded store: every user's records in one SQLite file (WAL,
/// `synchronous=FULL`), each table keyed by the user id first. A transaction is one
/// `BEGIN IMMEDIATE … COMMIT` on the store's one write connection: SQLite's write lock
/// serialises it with every other transaction on the file — this process's and other
/// processes' — so one user's requests never interleave, and a transaction that returned is
/// durable. A snapshot (a request that only reads) is one statement on a read connection of
/// a pool, in the WAL read transaction SQLite opens for it: it sees every transaction
/// committed before it began, and neither waits for the writer nor makes the writer wait.
public final class SQLiteServiceStore: ServiceStore {
    public let path: String
    private let connection: SQLiteConnection
    private let busyTimeoutMilliseconds: Int32
    /// Idle read connections (`PRAGMA query_only`); a snapshot takes one or opens one.
    private let readers = RuntimeLock<[SQLiteConnection]>([])
    /// Idle read connections kept beyond this many are closed (the server's worker threads
    /// bound how many are in use at once).
    static let maximumIdleReaders = 16

    /// The schema, one step per version (like the device store's `SQLiteMigrations`).
    static let migrations = SQLiteMigrations([
        // 1: users (the frequency gap's latest first display), donations, parameters, tip
        // records and donation deletions (format 2's `deleteDonations`: per event, the latest
        // instant through which its donations are deleted), each keyed by the user id first,
        // so the schema distributes by user.
        """
        CREATE TABLE service_users(
            user_id TEXT NOT NULL PRIMARY KEY, latest_first_display INTEGER
        ) WITHOUT ROWID;
        CREATE TABLE service_donations(
            user_id TEXT NOT NULL, id TEXT NOT NULL, event TEXT NOT NULL, date INTEGER NOT NULL,
            value TEXT NOT NULL DEFAULT '', PRIMARY KEY(user_id, id)
        ) WITHOUT ROWID;
        CREATE INDEX service_donations_by_date ON service_donations(user_id, date, id);
        CREATE INDEX service_donations_by_event ON service_donations(user_id, event, date);
        CREATE TABLE service_parameters(
            user_id TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL,
            stamp_ms INTEGER NOT NULL, stamp_device TEXT NOT NULL, PRIMARY KEY(user_id, name)
        ) WITHOUT ROWID;
        CREATE TABLE service_tip_records(
            user_id TEXT NOT NULL, id TEXT NOT NULL, tip TEXT NOT NULL, kind TEXT NOT NULL,
            stamp_ms INTEGER NOT NULL, stamp_device TEXT NOT NULL,
            count INTEGER NOT NULL DEFAULT 0, duration_ms INTEGER NOT NULL DEFAULT 0, reason TEXT,
            instance_key, date_ms INTEGER,
            PRIMARY KEY(user_id, id)
        ) WITHOUT ROWID;
        CREATE TABLE service_donation_deletions(
            user_id TEXT NOT NULL, event TEXT NOT NULL, instant INTEGER NOT NULL, PRIMARY KEY(user_id, event)
        ) WITHOUT ROWID;
        """,
        // 2 (experiments and tip analytics): a tip record may be a tap on one of the tip's
        // actions (`action_id`) or a hidden arm's exposure (`experiment`), and a display or
        // exposure carries the user's arm; experiment assignments, one per user, experiment and
        // salt (the earliest). Existing records gain NULLs and keep everything else.
        """
        ALTER TABLE service_tip_records ADD COLUMN action_id TEXT;
        ALTER TABLE service_tip_records ADD COLUMN experiment TEXT;
        ALTER TABLE service_tip_records ADD COLUMN arm TEXT;
        CREATE TABLE service_assignments(
            user_id TEXT NOT NULL, experiment TEXT NOT NULL, salt TEXT NOT NULL, id TEXT NOT NULL, arm TEXT NOT NULL,
            date_ms INTEGER NOT NULL, PRIMARY KEY(user_id, experiment, salt)
        ) WITHOUT ROWID;
        """,
    ], kind: .service)

    /// Opens (creating and migrating when needed) the service store at `path`. Several
    /// servers may open one new file at the same instant: the schema is created once.
    /// - Parameter busyTimeoutMilliseconds: how long a transaction waits for another
    ///   process's write lock before failing with `TipStoreError.Kind.locked` (503).
    public init(path: String, busyTimeoutMilliseconds: Int32 = 10_000) throws(TipStoreError) {
        self.path = path
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        do {
            connection = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        } catch {
            throw SQLitePersistence.storeError(error)
        }
        let cache: Result<Void, SQLiteError> = connection.withSession { session in
            Result { () throws(SQLiteError) in try session.execute("PRAGMA cache_size=-\(Self.cacheKilobytes)") }
        }
        if case .failure(let error) = cache { throw SQLitePersistence.storeError(error) }
        do {
            try Self.migrations.apply(to: connection)
        } catch {
            switch error {
            case .newerSchema: throw TipStoreError(.newerSchema, error.description)
            case .foreignDatabase, .otherKind, .notMigrated: throw TipStoreError(.corrupt, "\(path): \(error.description)")
            case .sqlite(let sqlite): throw SQLitePersistence.storeError(sqlite)
            }
        }
    }

    /// The page cache of the service's connection: every request reads one user's rows from
    /// anywhere in the file, so the default 2 MB cache leaves most reads to the kernel.
    static let cacheKilobytes = 65_536
    /// The page cache of each read connection: smaller, since up to `maximumIdleReaders` of
    /// them are kept and each would otherwise fill its own copy of the hot pages (the kernel's
    /// page cache, which they share, holds the rest).
    static let readerCacheKilobytes = 8_192

    public func transaction<T>(user: String, _ body: (any TipPersistence) throws -> T) throws -> T {
        do {
            return try connection.withSession { session in
                try session.transaction { tx in
                    let view = SQLiteUserPersistence(session: tx, user: user)
                    defer { view.close() }
                    return try body(view)
                }
            }
        } catch let error as SQLiteError {
            throw SQLitePersistence.storeError(error)
        }
    }

    public func snapshot(user: String, donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        // One statement: one snapshot, in the implicit read transaction it holds while it runs.
        try withReader { session in try SQLiteUserPersistence.read(user: user, session, donations: body) }
    }

    public func recordCount(user: String, atMost limit: Int) throws(TipStoreError) -> Int {
        try withReader { session in try SQLiteUserPersistence.recordCount(user: user, session, atMost: limit) }
    }

    public func reportTallies(_ plan: ReportPlan) throws(TipStoreError) -> ReportTallies {
        // One read transaction: every statement counts the same state.
        try withReader { session in
            try session.readTransaction { session in
                try ReportSQL.sqlite.tallies(plan) { statement in
                    let parameters: [SQLiteValue] = statement.parameters.map { parameter in
                        switch parameter {
                        case .text(let text): .text(text)
                        case .integer(let value): .integer(Int(value))
                        case .null: .null
                        }
                    }
                    return try session.query(statement.sql, parameters) { rows in
                        var result: [[ReportSQL.Value]] = []
                        while try rows.next() {
                            result.append(statement.columns.enumerated().map { index, column in
                                switch (column, rows.value(Int32(index))) {
                                case (.integer, .integer(let value)): .integer(Int64(value))
                                case (.integer, _): .integer(0)
                                case (.text, .text(let text)): .text(text)
                                case (.text, _): .text(nil)
                                }
                            })
                        }
                        return result
                    }
                }
            }
        }
    }

    /// Runs `body` on an idle read connection (or a new one), then keeps the connection for the
    /// next read; a reader whose read failed is closed, not reused: its state is not known.
    private func withReader<T>(_ body: (SQLiteConnection.Session) throws -> T) throws(TipStoreError) -> T {
        do {
            let reader = try takeReader()
            let result = try reader.withSession(body)
            readers.withLock { idle in
                if idle.count < Self.maximumIdleReaders { idle.append(reader) }
            }
            return result
        } catch {
            throw SQLiteUserPersistence.storeError(error)
        }
    }

    /// An idle read connection, or a new one.
    private func takeReader() throws -> SQLiteConnection {
        if let reader = readers.withLock({ $0.popLast() }) { return reader }
        let reader = try SQLiteConnection(path: path, create: false, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try reader.withSession { session in
            try session.execute("PRAGMA query_only=ON; PRAGMA cache_size=-\(Self.readerCacheKilobytes)")
        }
        return reader
    }

    public func checkHealth() throws(TipStoreError) {
        let outcome: Result<SQLiteValue?, SQLiteError> = connection.withSession { session in
            Result { () throws(SQLiteError) -> SQLiteValue? in try session.scalar("SELECT count(*) FROM service_users WHERE user_id = ''") }
        }
        if case .failure(let error) = outcome { throw SQLitePersistence.storeError(error) }
    }
}
