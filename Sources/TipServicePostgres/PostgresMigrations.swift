import TipRuntime

/// The service's schema, as versioned steps recorded in `schema_migrations` (one row per
/// applied version). Servers that start together migrate one at a time: the migration runs in
/// one transaction that first takes a transaction-scoped advisory lock, so the second server
/// waits, then finds the steps applied and does nothing; the lock goes with the transaction,
/// even when its connection dies. A database whose version is newer than the code's is refused.
///
/// Every table is keyed by `user_id` first and nothing refers across users, so the schema
/// distributes by user on a sharded PostgreSQL (Citus: `create_distributed_table(t, 'user_id')`)
/// unchanged; there are no sequences. Strings the runtime gives are `bytea` of their UTF-8, so
/// every string round-trips (a `text` cannot hold U+0000) and compares byte by byte, as the
/// SQLite store compares them; `kind` and `reason` are the store's own ASCII words.
enum PostgresMigrations {
    /// Key of the advisory lock held while migrating ("tipc" in ASCII).
    static let lockKey: Int64 = 0x7469_7063

    /// `steps[0]` brings version 0 to 1, and so on.
    static let steps: [String] = [
        // 1: users (the latest first display; the row is also the lock that serialises the
        // user's transactions), donations, parameters with last-writer-wins stamps, and tip
        // records, as in the device store. The device id that stamps the service's writes is
        // derived from the user id (`ServiceDeviceID`), as in the SQLite service store.
        """
        CREATE TABLE users(
            user_id bytea PRIMARY KEY,
            latest_first_display bigint
        );
        CREATE TABLE donations(
            user_id bytea NOT NULL, id bytea NOT NULL,
            event bytea NOT NULL, date bigint NOT NULL, value bytea NOT NULL,
            PRIMARY KEY(user_id, id)
        );
        CREATE INDEX donations_by_event_date ON donations(user_id, event, date);
        CREATE TABLE parameters(
            user_id bytea NOT NULL, name bytea NOT NULL,
            value bytea NOT NULL, stamp_ms bigint NOT NULL, stamp_device bytea NOT NULL,
            PRIMARY KEY(user_id, name)
        );
        CREATE TABLE tip_records(
            user_id bytea NOT NULL, id bytea NOT NULL,
            tip bytea NOT NULL, kind text NOT NULL,
            stamp_ms bigint NOT NULL, stamp_device bytea NOT NULL,
            count bigint NOT NULL DEFAULT 0, duration_ms bigint NOT NULL DEFAULT 0, reason text,
            instance_key bytea, date_ms bigint,
            PRIMARY KEY(user_id, id)
        );
        CREATE TABLE donation_deletions(
            user_id bytea NOT NULL, event bytea NOT NULL, instant bigint NOT NULL,
            PRIMARY KEY(user_id, event)
        );
        """,
        // 2 (experiments and tip analytics): a tip record may be a tap on one of the tip's
        // actions (`action_id`) or a hidden arm's exposure (`experiment`), and a display or
        // exposure carries the user's arm; experiment assignments, one per user, experiment and
        // salt (the earliest). Existing records gain NULLs and keep everything else.
        """
        ALTER TABLE tip_records ADD COLUMN action_id bytea, ADD COLUMN experiment bytea, ADD COLUMN arm bytea;
        CREATE TABLE assignments(
            user_id bytea NOT NULL, experiment bytea NOT NULL, salt bytea NOT NULL,
            id bytea NOT NULL, arm bytea NOT NULL, date_ms bigint NOT NULL,
            PRIMARY KEY(user_id, experiment, salt)
        );
        """,
    ]

    static var latestVersion: Int { steps.count }

    /// Brings the database to `latestVersion` (see the type's comment).
    static func apply(on connection: PostgresConnection) throws(TipStoreError) {
        try PostgresServiceStore.mapping { () throws(PostgresError) in try connection.execute("BEGIN") }
        do throws(TipStoreError) {
            let found = try PostgresServiceStore.mapping { () throws(PostgresError) -> Int in
                // However long another server's migration takes: no lock timeout here.
                try connection.execute("SET LOCAL lock_timeout = 0")
                try connection.query("SELECT pg_advisory_xact_lock($1)", [.bigint(lockKey)])
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS schema_migrations(
                        version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())
                    """)
                let result = try connection.query("SELECT coalesce(max(version), 0)::bigint FROM schema_migrations")
                return Int(result.int64(0, 0) ?? 0)
            }
            if found > latestVersion {
                throw TipStoreError(.newerSchema, "the PostgreSQL database has tipc schema version \(found), newer than the \(latestVersion) this tipc knows; upgrade tipc to use it")
            }
            try PostgresServiceStore.mapping { () throws(PostgresError) in
                for version in found..<latestVersion {
                    try connection.execute(steps[version])
                    try connection.query("INSERT INTO schema_migrations(version) VALUES ($1)", [.bigint(Int64(version + 1))])
                }
                try connection.execute("COMMIT")
            }
        } catch {
            _ = try? connection.execute("ROLLBACK")
            throw error
        }
    }
}
