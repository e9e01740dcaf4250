import Foundation
import Testing
import TipRuntime
import TipService
@testable import TipServicePostgres

/// Every PostgreSQL test. They share one cluster, and use users or databases of their own; the
/// restart tests have a cluster to themselves, as they stop it.
@Suite("PostgreSQL store")
struct PostgresTests {}

extension PostgresTests {
    @Suite("Schema and migrations")
    struct Migrations {
        @Test func aNewDatabaseIsMigratedOnceAndReopensUnchanged() throws {
            let url = try TestCluster.freshDatabase()
            _ = try PostgresServiceStore(url: url)
            _ = try PostgresServiceStore(url: url)
            let connection = try PostgresConnection(url: url)
            let versions = try connection.query("SELECT version::bigint FROM schema_migrations ORDER BY version")
            #expect((0..<versions.count).map { versions.int64($0, 0) } == (1...PostgresMigrations.latestVersion).map { Int64($0) })
            // Every table is keyed by the user id first (so that the data can be distributed by user).
            let keys = try connection.query("""
                SELECT c.relname::text, a.attname::text FROM pg_index i
                JOIN pg_class c ON c.oid = i.indrelid
                JOIN pg_attribute a ON a.attrelid = i.indrelid AND a.attnum = i.indkey[0]
                WHERE i.indisprimary AND c.relnamespace = 'public'::regnamespace AND c.relname <> 'schema_migrations'
                ORDER BY 1
                """)
            let firstColumns = (0..<keys.count).map { "\(keys.string($0, 0) ?? "")(\(keys.string($0, 1) ?? ""))" }
            #expect(firstColumns == ["assignments(user_id)", "donation_deletions(user_id)", "donations(user_id)", "parameters(user_id)", "tip_records(user_id)", "users(user_id)"])
            let sequences = try connection.query("SELECT count(*) FROM pg_sequences WHERE schemaname = 'public'")
            #expect(sequences.int64(0, 0) == 0, "no sequence shared by users")
        }

        /// Several processes open a new database at the same instant: each opens normally and
        /// the schema is applied once.
        @Test func processesStartingTogetherMigrateOnce() async throws {
            let url = try TestCluster.freshDatabase()
            // The migration lock held until all four wait for it, so they truly start together.
            let holder = try PostgresConnection(url: url)
            try holder.query("SELECT pg_advisory_lock($1)", [.bigint(PostgresMigrations.lockKey)])
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    do {
                        var waiting: Int64 = 0
                        for _ in 0..<12_000 where waiting < 4 {
                            waiting = try holder.query("""
                                SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                                AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                                """).int64(0, 0) ?? 0
                            // Yields its thread: the four launches need one, and blocking tests may hold the others.
                            if waiting < 4 { try await Task.sleep(for: .milliseconds(10)) }
                        }
                        #expect(waiting == 4, "the four processes wait for the migration lock together")
                    } catch {
                        Issue.record(error)
                    }
                    _ = try? holder.query("SELECT pg_advisory_unlock($1)", [.bigint(PostgresMigrations.lockKey)])
                }
                for _ in 0..<4 {
                    group.addTask {
                        await #expect(processExitsWith: .success) { [url = url as String] in
                            do {
                                let store = try PostgresServiceStore(url: url)
                                try store.transaction(user: "starter") { try $0.append([PendingDonation(event: "e", date: 1).record()]) }
                                exit(0)
                            } catch {
                                FileHandle.standardError.write(Data("\(error)\n".utf8))
                                exit(1)
                            }
                        }
                    }
                }
            }
            // And threads of one process too.
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { _ = try PostgresServiceStore(url: url) } }
                try await group.waitForAll()
            }
            let connection = try PostgresConnection(url: url)
            let versions = try connection.query("SELECT count(*), max(version)::bigint FROM schema_migrations")
            let latest = Int64(PostgresMigrations.latestVersion)
            #expect(versions.int64(0, 0) == latest && versions.int64(0, 1) == latest, "each step applied once")
            let store = try PostgresServiceStore(url: url)
            #expect(try store.load(user: "starter").donations.count == 4)
        }

        @Test func aDatabaseOfANewerSchemaIsRefused() throws {
            let url = try TestCluster.freshDatabase()
            _ = try PostgresServiceStore(url: url)
            try PostgresConnection(url: url).execute("INSERT INTO schema_migrations(version) VALUES (99)")
            let error = #expect(throws: TipStoreError.self) { try PostgresServiceStore(url: url) }
            #expect(error?.kind == .newerSchema)
            #expect(error?.message.contains("99") == true)
        }

        @Test func anUnreachableServerIsUnavailable() throws {
            let url = try TestCluster.url() + "&dbname=no_such_database"
            let error = #expect(throws: TipStoreError.self) { try PostgresServiceStore(url: url) }
            #expect(error?.kind == .unavailable)
            #expect(error?.message.contains("no_such_database") == true)
        }
    }
}

extension PostgresTests {
    @Suite("Connection pool")
    struct Pool {
        /// A connection given back inside a transaction, open or failed, is closed rather than
        /// handed to the next request, which reads in autocommit.
        @Test func aConnectionInATransactionIsNotReused() throws {
            let pool = PostgresConnectionPool(url: try TestCluster.url(), setup: "SET lock_timeout = 1000")
            let (open, _) = try pool.take()
            try open.execute("BEGIN")
            #expect(!open.isUsable)
            pool.giveBack(open)
            let (failed, _) = try pool.take()
            #expect(failed !== open)
            try failed.execute("BEGIN")
            #expect(throws: PostgresError.self) { try failed.execute("SELECT 1/0") }
            #expect(!failed.isUsable)
            pool.giveBack(failed)
            let (next, reused) = try pool.take()
            #expect(!reused && next !== failed)
            try next.execute("SELECT 1")
            #expect(next.isUsable)
            pool.giveBack(next)
            let (again, reusedAgain) = try pool.take()
            #expect(reusedAgain && again === next)
        }
    }
}
