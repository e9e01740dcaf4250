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

        /// Several processes, and several threads, open a new database at the same instant: each
        /// opens normally and the schema is applied once.
        ///
        /// The threads are made to wait for the migration lock together, all four. The processes
        /// are launched together but not held: a running exit test holds one of the pool's threads
        /// until its process ends, so how many run at once depends on what else the test run
        /// keeps busy (holding the lock until two processes waited made this test take over two
        /// minutes in a full run on two cores).
        @Test func processesStartingTogetherMigrateOnce() async throws {
            let url = try TestCluster.freshDatabase()
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 {
                    group.addTask {
                        await #expect(processExitsWith: .success) { [url = url as String] in
                            do {
                                let store = try PostgresServiceStore(url: url)
                                try store.transaction(user: "starter") { try $0.append([PendingDonation(event: "e", milliseconds: 1).record()]) }
                                exit(0)
                            } catch {
                                FileHandle.standardError.write(Data("\(error)\n".utf8))
                                exit(1)
                            }
                        }
                    }
                }
            }
            try Self.expectMigratedOnce(url)
            let store = try PostgresServiceStore(url: url)
            #expect(try store.load(user: "starter").donations.count == 4)

            // And threads of one process, on another new database: all four wait together.
            let threadsURL = try TestCluster.freshDatabase()
            let threadsWaiting = try Self.holdMigrationLock(threadsURL, untilWaiting: 4)
            let failures = RuntimeLock<[String]>([])
            let opened = DispatchGroup()
            for _ in 0..<4 {
                opened.enter()
                Thread.detachNewThread {
                    do { _ = try PostgresServiceStore(url: threadsURL) } catch { failures.withLock { $0.append("\(error)") } }
                    opened.leave()
                }
            }
            #expect(await threadsWaiting() == 4, "the four threads wait for the migration lock together")
            // Waited for on a thread of its own, not one of the pool's.
            await withCheckedContinuation { continuation in
                Thread.detachNewThread {
                    opened.wait()
                    continuation.resume()
                }
            }
            #expect(failures.withLock { $0 }.isEmpty)
            try Self.expectMigratedOnce(threadsURL)
        }

        /// Takes the migration lock of the database at `url` and gives it back once `waiters`
        /// sessions wait for it, or after three minutes. It polls from a thread of its own, so that no
        /// blocked task of the pool can stall it. The call returned gives how many were seen waiting.
        static func holdMigrationLock(_ url: String, untilWaiting waiters: Int64) throws -> @Sendable () async -> Int64 {
            let holder = try PostgresConnection(url: url)
            try holder.query("SELECT pg_advisory_lock($1)", [.bigint(PostgresMigrations.lockKey)])
            let seen = RuntimeLock<Int64?>(nil)
            let released = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                var waiting: Int64 = 0
                for _ in 0..<18_000 where waiting < waiters {
                    waiting = (try? holder.query("""
                        SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND NOT granted
                        AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                        """).int64(0, 0)) ?? 0
                    if waiting < waiters { usleep(10_000) }
                }
                _ = try? holder.query("SELECT pg_advisory_unlock($1)", [.bigint(PostgresMigrations.lockKey)])
                seen.withLock { $0 = waiting }
                released.signal()
            }
            return {
                await withCheckedContinuation { continuation in
                    Thread.detachNewThread {
                        released.wait()
                        released.signal()  // for any later call
                        continuation.resume(returning: seen.withLock { $0 } ?? 0)
                    }
                }
            }
        }

        static func expectMigratedOnce(_ url: String) throws {
            let versions = try PostgresConnection(url: url).query("SELECT count(*), max(version)::bigint FROM schema_migrations")
            let latest = Int64(PostgresMigrations.latestVersion)
            #expect(versions.int64(0, 0) == latest && versions.int64(0, 1) == latest, "each step applied once")
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
