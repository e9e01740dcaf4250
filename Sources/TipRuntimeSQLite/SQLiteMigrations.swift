/// Versioned schema migrations kept in `PRAGMA user_version`. Each migration runs in its own
/// transaction; a file whose version is newer than the newest known migration is refused
/// rather than touched.
public struct SQLiteMigrations: Sendable {
    /// The SQL of each version, in order: `steps[0]` brings version 0 to 1, and so on.
    public let steps: [String]

    public init(_ steps: [String]) {
        self.steps = steps
    }

    /// The schema version this code writes.
    public var latestVersion: Int { steps.count }

    public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The file was written by a newer version of the software.
        case newerSchema(found: Int, supported: Int)
        case sqlite(SQLiteError)

        public var description: String {
            switch self {
            case .newerSchema(let found, let supported):
                return "the store has schema version \(found), newer than the \(supported) this tipc knows; upgrade tipc to open it"
            case .sqlite(let error):
                return error.description
            }
        }
    }

    /// Brings the database up to `latestVersion`.
    public func apply(to connection: SQLiteConnection) throws(Failure) {
        let outcome: Result<Int?, SQLiteError> = connection.withSession { session in
            Result { () throws(SQLiteError) -> Int? in try migrate(session) }
        }
        switch outcome {
        case .success(nil): return
        case .success(let found?): throw .newerSchema(found: found, supported: latestVersion)
        case .failure(let error): throw .sqlite(error)
        }
    }

    /// Runs the missing steps; returns the version found when it is newer than known.
    private func migrate(_ session: SQLiteConnection.Session) throws(SQLiteError) -> Int? {
        var version = try currentVersion(session)
        if version > latestVersion { return version }
        while version < latestVersion {
            try session.execute("BEGIN IMMEDIATE")
            do throws(SQLiteError) {
                // Re-read inside the write lock: another process may have migrated meanwhile.
                if try currentVersion(session) == version {
                    try session.execute(steps[version])
                    try session.execute("PRAGMA user_version = \(version + 1)")
                }
                try session.execute("COMMIT")
            } catch {
                try? session.execute("ROLLBACK")
                throw error
            }
            version = try currentVersion(session)
        }
        return nil
    }

    private func currentVersion(_ session: SQLiteConnection.Session) throws(SQLiteError) -> Int {
        if case .integer(let version) = try session.scalar("PRAGMA user_version") { return version }
        return 0
    }
}
