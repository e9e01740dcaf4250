import CSQLite
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One connection to an SQLite database file. All access is serialised by a lock; prepared
/// statements are cached by their SQL and reused.
///
/// The handle is opened in WAL mode with `synchronous=FULL`, so a committed transaction survives
/// a crash of the process or of the machine, and with a busy timeout, so a second process can
/// share the file.
package final class SQLiteConnection: @unchecked Sendable {
    // @unchecked: the C handle and the statement cache are only touched inside `lock`.

    /// The open C handle; owned by the connection, closed in its `deinit`.
    final class Handle {
        let pointer: OpaquePointer
        var statements: [String: SQLiteStatement] = [:]

        init(pointer: OpaquePointer) { self.pointer = pointer }

        deinit {
            statements.removeAll()
            sqlite3_close_v2(pointer)
        }
    }

    /// Row access inside `query`; valid only during its closure.
    package struct Rows {
        fileprivate let statement: SQLiteStatement

        /// Advances to the next row; false when there is none.
        package func next() throws(SQLiteError) -> Bool { try statement.step() }
        package func int(_ column: Int32) -> Int { statement.int(column) }
        package func text(_ column: Int32) -> String { statement.text(column) }
        package func value(_ column: Int32) -> SQLiteValue { statement.column(column) }
    }

    /// Statements run while the lock is held; valid only during `withSession`'s closure.
    package struct Session {
        fileprivate let handle: Handle

        /// Runs `sql` (one or more statements without parameters).
        package func execute(_ sql: String) throws(SQLiteError) {
            var message: UnsafeMutablePointer<CChar>?
            let code = sqlite3_exec(handle.pointer, sql, nil, nil, &message)
            if code != SQLITE_OK {
                let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
                sqlite3_free(message)
                throw SQLiteError(code: code, message: text, context: sql)
            }
        }

        /// Runs one prepared (cached) statement with `values` bound, discarding rows.
        package func run(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) {
            let statement = try prepared(sql)
            try statement.bind(values)
            while try statement.step() {}
            statement.reset()
        }

        /// Runs a query and hands its rows to `body`.
        package func query<T>(_ sql: String, _ values: [SQLiteValue] = [], _ body: (Rows) throws -> T) throws -> T {
            let statement = try prepared(sql)
            try statement.bind(values)
            defer { statement.reset() }
            return try body(Rows(statement: statement))
        }

        /// The first column of the first row, if any.
        package func scalar(_ sql: String, _ values: [SQLiteValue] = []) throws(SQLiteError) -> SQLiteValue? {
            let statement = try prepared(sql)
            try statement.bind(values)
            defer { statement.reset() }
            return try statement.step() ? statement.column(0) : nil
        }

        /// Runs `body` in one transaction (`BEGIN IMMEDIATE`), committed if it returns and rolled
        /// back if it throws.
        package func transaction<T>(_ body: (Session) throws -> T) throws -> T {
            try inTransaction("BEGIN IMMEDIATE", body)
        }

        /// Runs `body`'s reads in one transaction (`BEGIN`), so they see one consistent state
        /// while other connections write.
        package func readTransaction<T>(_ body: (Session) throws -> T) throws -> T {
            try inTransaction("BEGIN", body)
        }

        private func inTransaction<T>(_ begin: String, _ body: (Session) throws -> T) throws -> T {
            try run(begin)
            do {
                let result = try body(self)
                try run("COMMIT")
                return result
            } catch {
                try? run("ROLLBACK")
                throw error
            }
        }

        /// Rows changed by the last statement.
        package var changes: Int { Int(sqlite3_changes(handle.pointer)) }

        private func prepared(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
            if let cached = handle.statements[sql] { return cached }
            let statement = try SQLiteStatement(connection: handle, sql: sql)
            handle.statements[sql] = statement
            return statement
        }
    }

    private let lock = ConnectionLock()
    private let handle: Handle
    package let path: String

    /// Opens the database at `path` (creating it if `create` and it is missing).
    /// - Parameter busyTimeoutMilliseconds: how long to wait for another process's lock.
    package init(path: String, readOnly: Bool = false, create: Bool = true, busyTimeoutMilliseconds: Int32 = 5_000) throws(SQLiteError) {
        var pointer: OpaquePointer?
        let access = readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | (create ? SQLITE_OPEN_CREATE : 0)
        let flags = access | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let error = SQLiteError(handle: pointer, code: code, context: "open \(path)")
            sqlite3_close_v2(pointer)
            throw error
        }
        sqlite3_extended_result_codes(pointer, 1)
        sqlite3_busy_timeout(pointer, busyTimeoutMilliseconds)
        self.handle = Handle(pointer: pointer)
        self.path = path
        // Not shared yet: no lock needed.
        let session = Session(handle: handle)
        if !readOnly {
            // Switching a new file to WAL needs an exclusive lock, and while another process
            // switches it SQLite answers SQLITE_BUSY at once, without the busy handler (it could
            // deadlock): two servers starting on one new file would see "database is locked".
            // The switch is retried for up to the busy timeout.
            var waited: Int64 = 0
            while true {
                do throws(SQLiteError) {
                    try session.execute("PRAGMA journal_mode=WAL")
                    break
                } catch where error.code & 0xFF == SQLITE_BUSY && waited < Int64(busyTimeoutMilliseconds) {
                    usleep(5_000)
                    waited += 5
                }
            }
        }
        try session.execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON")
    }

    /// Runs `body` with exclusive access to the connection.
    package func withSession<T>(_ body: (Session) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(Session(handle: handle))
    }
}

/// A plain mutual-exclusion lock (pthread), for a critical section whose closure may throw
/// any error and return any value. Owned by the connection, which is what crosses threads.
final class ConnectionLock {
    /// Heap-allocated so the mutex never moves.
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
}
