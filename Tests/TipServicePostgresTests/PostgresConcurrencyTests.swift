import Foundation
import Testing
import TipRuntime
@testable import TipServicePostgres

extension PostgresTests {
    /// One user's transactions from several processes and threads at once run one at a time:
    /// every acknowledged donation is stored exactly once, and no read-modify-write is lost.
    @Suite("One user, many writers")
    struct Serialisation {
        /// In each transaction: read the user's state, add one donation dated by the number of
        /// donations read, and write that number plus one as a parameter.
        static func donateOnce(_ store: PostgresServiceStore, user: String) throws -> String {
            try store.transaction(user: user) { persistence in
                let before = try persistence.load()
                let donation = PendingDonation(event: "opened", milliseconds: Int64(before.donations.count)).record()
                try persistence.append([donation])
                let count = Int64(before.donations.count + 1)
                try persistence.write(parameters: ["count": ParameterRecord(value: .int(count), stamp: Stamp(milliseconds: count, device: "w"))])
                return donation.id
            }
        }

        @Test func processesAndThreadsOnOneUserLoseNothing() async throws {
            let url = try TestCluster.url()
            let user = freshUser()
            let store = try PostgresServiceStore(url: url)
            let processes = 4, threads = 3, each = 15
            var acknowledged: [String] = []
            await withTaskGroup(of: [String].self) { group in
                for _ in 0..<processes {
                    group.addTask {
                        let result = await #expect(processExitsWith: .success, observing: [\.standardOutputContent]) {
                            [url = url as String, user = user as String, threads = threads as Int, each = each as Int] in
                            let store = try PostgresServiceStore(url: url)
                            let lines = RuntimeLock<[String]>([])
                            DispatchQueue.concurrentPerform(iterations: threads) { _ in
                                for _ in 0..<each {
                                    // Printed only once committed: the acknowledgement.
                                    guard let id = try? Self.donateOnce(store, user: user) else { exit(1) }
                                    lines.withLock { $0.append(id) }
                                }
                            }
                            print(lines.withLock { $0 }.joined(separator: "\n"))
                        }
                        let output = String(decoding: result?.standardOutputContent ?? [], as: UTF8.self)
                        return output.split(separator: "\n").map(String.init)
                    }
                }
                for await ids in group { acknowledged += ids }
            }
            #expect(acknowledged.count == processes * threads * each)
            let stored = try store.load(user: user)
            #expect(Set(stored.donations.keys) == Set(acknowledged))
            #expect(stored.donations.count == acknowledged.count, "each once")
            // Each transaction dated its donation by how many it read: one at a time, they read
            // 0, 1, 2, …; two at once would have read the same number.
            #expect(stored.donations.values.map(\.date).sorted() == (0..<Int64(acknowledged.count)).map { $0 }, "transactions interleaved")
            #expect(stored.parameters["count"]?.value == .int(Int64(acknowledged.count)), "no lost update")
            let rows = try PostgresConnection(url: url).query("SELECT count(*) FROM donations WHERE user_id = $1", [.utf8(user)])
            #expect(rows.int64(0, 0) == Int64(acknowledged.count))
        }

        /// A transaction that only read ends without a commit and leaves nothing behind (not
        /// even the row it created to lock a new user); one that wrote keeps it.
        @Test func aReadOnlyTransactionLeavesNothing() throws {
            let url = try TestCluster.url()
            let store = try PostgresServiceStore(url: url)
            let user = freshUser()
            let snapshot = try store.load(user: user)
            #expect(snapshot == StoreSnapshot())
            let connection = try PostgresConnection(url: url)
            let count = "SELECT count(*) FROM users WHERE user_id = $1"
            #expect(try connection.query(count, [.utf8(user)]).int64(0, 0) == 0)
            try store.transaction(user: user) { try $0.write(parameters: ["p": ParameterRecord(value: .int(1), stamp: Stamp(milliseconds: 1, device: "d"))]) }
            #expect(try connection.query(count, [.utf8(user)]).int64(0, 0) == 1)
            #expect(try store.load(user: user).parameters["p"]?.value == .int(1))
        }

        /// A user locked by a transaction that does not end (a stuck server) makes the next one
        /// fail as locked after the lock timeout, not hang; once it ends, the user is usable.
        @Test func aStuckTransactionTimesOutAsLocked() throws {
            let url = try TestCluster.url()
            let store = try PostgresServiceStore(url: url, lockTimeoutMilliseconds: 200)
            let user = freshUser()
            try store.transaction(user: user) { try $0.append([PendingDonation(event: "e", milliseconds: 1).record()]) }
            let stuck = try PostgresConnection(url: url)
            try stuck.execute("BEGIN")
            try stuck.query("SELECT 1 FROM users WHERE user_id = $1 FOR UPDATE", [.utf8(user)])
            let error = #expect(throws: TipStoreError.self) { try store.transaction(user: user) { try $0.load() } }
            #expect(error?.kind == .locked)
            try stuck.execute("ROLLBACK")
            #expect(try store.load(user: user).donations.count == 1)
        }

        /// A snapshot (what GET reads) takes no lock: with the user's row locked by another
        /// server's open transaction that wrote, it answers at once (a lock wait would fail after
        /// 200 ms) with the last committed state, and sees the write once committed.
        @Test func aSnapshotNeverWaitsForAWriterAndSeesWhatIsCommitted() throws {
            let url = try TestCluster.url()
            let store = try PostgresServiceStore(url: url, lockTimeoutMilliseconds: 200)
            let user = freshUser()
            try store.transaction(user: user) { try $0.append([DonationRecord(id: "first", event: "e", date: 1)]) }
            let writer = try PostgresConnection(url: url)
            try writer.execute("BEGIN")
            try writer.query("SELECT 1 FROM users WHERE user_id = $1 FOR UPDATE", [.utf8(user)])
            try writer.query("INSERT INTO donations(user_id, id, event, date, value) VALUES ($1, $2, $3, 2, $4)",
                             [.utf8(user), .utf8("second"), .utf8("e"), .bytea([])])
            try writer.query("UPDATE users SET latest_first_display = 7 WHERE user_id = $1", [.utf8(user)])
            var ids: [String] = []
            var snapshot = try store.snapshot(user: user) { ids.append($0.id) }
            #expect(ids == ["first"])
            #expect(snapshot.latestFirstDisplay == nil)
            try writer.execute("COMMIT")
            ids = []
            snapshot = try store.snapshot(user: user) { ids.append($0.id) }
            #expect(ids == ["first", "second"])
            #expect(snapshot.latestFirstDisplay == 7)
        }

        /// Users do not wait for each other: one user's open transaction does not block another's.
        @Test func anotherUsersTransactionDoesNotWait() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            let first = freshUser(), second = freshUser()
            try store.transaction(user: first) { outer in
                try outer.append([PendingDonation(event: "e", milliseconds: 1).record()])
                // Same thread, second connection: would deadlock if the second user waited.
                try store.transaction(user: second) { try $0.append([PendingDonation(event: "e", milliseconds: 2).record()]) }
            }
            #expect(try store.load(user: first).donations.count == 1)
            #expect(try store.load(user: second).donations.count == 1)
        }
    }

    /// The server goes away and comes back while the store is in use.
    @Suite("PostgreSQL restarts", .serialized)
    struct Restarts {
        @Test func aStoppedServerIsUnavailableThenTheStoreRecoversWithNothingPartial() throws {
            let store = try PostgresServiceStore(url: try TestCluster.restartableURL())
            let user = freshUser()
            let kept = DonationRecord(id: "kept", event: "e", date: 1)
            try store.transaction(user: user) { try $0.append([kept]) }
            var stopped = false
            defer { if stopped { try? TestCluster.control("start-again") } }
            // The server stops in the middle of a transaction: the write before it is rolled back.
            let error = #expect(throws: TipStoreError.self) {
                try store.transaction(user: user) { persistence in
                    try persistence.append([DonationRecord(id: "partial", event: "e", date: 2)])
                    try TestCluster.control("stop")
                    stopped = true
                    try persistence.append([DonationRecord(id: "after-stop", event: "e", date: 3)])
                }
            }
            #expect(error?.kind == .unavailable)
            let down = #expect(throws: TipStoreError.self) { try store.transaction(user: user) { try $0.load() } }
            #expect(down?.kind == .unavailable)
            let health = #expect(throws: TipStoreError.self) { try store.checkHealth() }
            #expect(health?.kind == .unavailable)
            try TestCluster.control("start-again")
            stopped = false
            // Recovers by itself: new connections replace the broken ones.
            try store.checkHealth()
            try store.transaction(user: user) { try $0.append([DonationRecord(id: "later", event: "e", date: 4)]) }
            #expect(try store.load(user: user).donations.keys.sorted() == ["kept", "later"])
        }

        /// Writers keep going while the server crashes (immediate shutdown, recovered at start)
        /// and comes back: every commit the store acknowledged is there, failures are only
        /// "unavailable", and the writers succeed again afterwards.
        @Test func acknowledgedWritesSurviveACrashOfTheServerUnderLoad() throws {
            let store = try PostgresServiceStore(url: try TestCluster.restartableURL())
            let user = freshUser()
            let state = RuntimeLock((acknowledged: [String](), failures: [TipStoreError.Kind](), messages: Set<String>(), phase: 0, afterRestart: 0))
            let writers = DispatchGroup()
            for _ in 0..<4 {
                DispatchQueue.global().async(group: writers) {
                    while state.withLock({ $0.phase < 2 || $0.afterRestart < 40 }) {
                        let phase = state.withLock { $0.phase }
                        do throws(any Error) {
                            let id = try store.transaction(user: user) { persistence in
                                let donation = PendingDonation(event: "e", milliseconds: 1).record()
                                try persistence.append([donation])
                                return donation.id
                            }
                            state.withLock {
                                $0.acknowledged.append(id)
                                if phase == 2 { $0.afterRestart += 1 }
                            }
                        } catch {
                            state.withLock {
                                $0.failures.append((error as? TipStoreError)?.kind ?? .io)
                                if (error as? TipStoreError)?.kind != .unavailable { $0.messages.insert("\(error)") }
                            }
                        }
                    }
                }
            }
            func waitFor(_ condition: (_ acknowledged: Int, _ failures: Int) -> Bool) {
                for _ in 0..<3_000 {
                    if state.withLock({ condition($0.acknowledged.count, $0.failures.count) }) { return }
                    usleep(10_000)
                }
            }
            waitFor { acknowledged, _ in acknowledged >= 50 }
            try TestCluster.control("stop", "immediate")
            state.withLock { $0.phase = 1 }
            waitFor { _, failures in failures >= 8 }
            try TestCluster.control("start-again")
            state.withLock { $0.phase = 2 }
            writers.wait()
            let (acknowledged, failures, messages) = state.withLock { ($0.acknowledged, $0.failures, $0.messages) }
            #expect(!failures.isEmpty && failures.allSatisfy { $0 == .unavailable }, "\(Set(failures)): \(messages)")
            let stored = try store.load(user: user)
            #expect(Set(acknowledged).isSubset(of: Set(stored.donations.keys)), "every acknowledged donation survives")
        }
    }
}
