/// Versioned schema migrations kept in `PRAGMA user_version`. Each migration runs in its own
/// transaction; a file whose version is newer than the newest known migration is refused
/// rather than touched.
package struct SQLiteMigrations: Sendable {
    /// The SQL of each version, in order: `steps[0]` brings version 0 to 1, and so on.
    package let steps: [String]
    /// The kind of tipc store these steps make, when they make one: a file of another kind is
    /// refused by name, untouched, rather than read as an older version of this one.
    package let kind: SQLiteStoreKind?

    package init(_ steps: [String], kind: SQLiteStoreKind? = nil) {
        self.steps = steps
        self.kind = kind
    }

    /// The schema version this code writes.
    package var latestVersion: Int { steps.count }

    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file was written by a newer version of the software.
        case newerSchema(found: Int, supported: Int)
        /// The database holds tables but no schema version: another application's, never
        /// migrated (that would write our tables into it).
        case foreignDatabase
        /// Read-only: the database is not at the latest version (empty, or older), and cannot be
        /// brought there without writing.
        case notMigrated(found: Int, supported: Int)
        /// The file is the other kind of tipc store (a service store given as a device store,
        /// or the reverse).
        case otherKind(found: SQLiteStoreKind, expected: SQLiteStoreKind)
        case sqlite(SQLiteError)

        package var description: String {
            switch self {
            case .newerSchema(let found, let supported):
                return "the store has schema version \(found), newer than the \(supported) this tipc knows; upgrade tipc to open it"
            case .foreignDatabase:
                return "the file is an SQLite database of another application, not a tipc store"
            case .notMigrated(0, _):
                return "the file is not a tipc store (an SQLite database without a tipc schema)"
            case .notMigrated(let found, let supported):
                return "the store has schema version \(found), older than the \(supported) this tipc reads; open it for writing once to upgrade it"
            case .otherKind(let found, let expected):
                return "the file is \(found), not \(expected)"
            case .sqlite(let error):
                return error.description
            }
        }
    }

    /// Brings the database up to `latestVersion` in one transaction, running `finishing` (for
    /// the first rows a new database needs) inside it, so another process sees either nothing
    /// or the whole schema.
    package func apply(to connection: SQLiteConnection,
                      finishing: (SQLiteConnection.Session) throws(SQLiteError) -> Void = { _ in }) throws(Failure) {
        let outcome: Result<Int?, Failure> = connection.withSession { session in
            Result { () throws(Failure) -> Int? in try migrate(session, finishing: finishing) }
        }
        switch outcome {
        case .success(nil): return
        case .success(let found?): throw .newerSchema(found: found, supported: latestVersion)
        case .failure(let error): throw error
        }
    }

    /// Checks, without writing, that the database is at `latestVersion` (for a read-only open).
    package func check(_ connection: SQLiteConnection) throws(Failure) {
        let outcome: Result<Int, Failure> = connection.withSession { session in
            Result { () throws(Failure) -> Int in
                let version = try sqlite { () throws(SQLiteError) in try currentVersion(session) }
                try checkKind(session)
                return version
            }
        }
        switch outcome {
        case .success(let found) where found > latestVersion: throw .newerSchema(found: found, supported: latestVersion)
        case .success(let found) where found < latestVersion: throw .notMigrated(found: found, supported: latestVersion)
        case .success: return
        case .failure(let error): throw error
        }
    }

    /// Runs the missing steps; returns the version found when it is newer than known.
    private func migrate(_ session: SQLiteConnection.Session,
                         finishing: (SQLiteConnection.Session) throws(SQLiteError) -> Void) throws(Failure) -> Int? {
        let found = try sqlite { () throws(SQLiteError) in try currentVersion(session) }
        try checkKind(session)
        if found >= latestVersion { return found > latestVersion ? found : nil }
        try sqlite { () throws(SQLiteError) in try session.execute("BEGIN IMMEDIATE") }
        do throws(Failure) {
            // Re-read inside the write lock: another process may have migrated meanwhile.
            let version = try sqlite { () throws(SQLiteError) in try currentVersion(session) }
            if version > latestVersion { throw .newerSchema(found: version, supported: latestVersion) }
            if version < latestVersion {
                // Tables without a version: another application's database, left untouched.
                let tables = try sqlite { () throws(SQLiteError) in try session.scalar("SELECT count(*) FROM sqlite_master") }
                if version == 0, tables != .integer(0) { throw .foreignDatabase }
                try sqlite { () throws(SQLiteError) in
                    for step in steps[version...] { try session.execute(step) }
                    try session.execute("PRAGMA user_version = \(latestVersion)")
                }
            }
            try sqlite { () throws(SQLiteError) in
                try finishing(session)
                try session.execute("COMMIT")
            }
        } catch {
            try? session.execute("ROLLBACK")
            throw error
        }
        return nil
    }

    /// Runs `body`, its SQLite failure wrapped as a migration failure.
    private func sqlite<T>(_ body: () throws(SQLiteError) -> T) throws(Failure) -> T {
        do throws(SQLiteError) { return try body() } catch { throw .sqlite(error) }
    }

    /// Refuses a file that holds tables but is not this kind of store: another kind of tipc
    /// store by name, anything else as another application's database.
    private func checkKind(_ session: SQLiteConnection.Session) throws(Failure) {
        guard let kind else { return }
        var tables: Set<String> = []
        do {
            try session.query("SELECT name FROM sqlite_master WHERE type = 'table'") { rows in
                while try rows.next() { tables.insert(rows.text(0)) }
            }
        } catch let error as SQLiteError {
            throw .sqlite(error)
        } catch {
            throw .sqlite(SQLiteError(code: 1, message: "\(error)", context: "reading the schema"))
        }
        // The version is not looked at here: another process may have created the schema
        // since it was read. A version that does not fit is refused where it is read again.
        guard !tables.isEmpty else { return }
        switch SQLiteStoreKind(tables: tables) {
        case kind?: return
        case let found?: throw .otherKind(found: found, expected: kind)
        case nil: throw .foreignDatabase
        }
    }

    private func currentVersion(_ session: SQLiteConnection.Session) throws(SQLiteError) -> Int {
        if case .integer(let version) = try session.scalar("PRAGMA user_version") { return version }
        return 0
    }
}

/// The kinds of SQLite file tipc writes, told apart by their tables.
package enum SQLiteStoreKind: Sendable, Hashable, CustomStringConvertible {
    /// A device's store (`tipc store --db`, the runtime's `SQLitePersistence`).
    case device
    /// The tip service's store of many users (`tipc serve --store sqlite:…`).
    case service

    /// The kind whose tables `tables` holds; nil for a file of another application.
    init?(tables: Set<String>) {
        if tables.contains("service_users") {
            self = .service
        } else if tables.contains("meta"), tables.contains("donations") {
            self = .device
        } else {
            return nil
        }
    }

    package var description: String {
        switch self {
        case .device: return "a tipc device store (the kind `tipc store --db` opens)"
        case .service: return "a tipc service store (the kind `tipc serve --store sqlite:…` opens)"
        }
    }
}
