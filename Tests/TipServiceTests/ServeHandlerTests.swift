import Foundation
import Testing
import TipcCompiler
import TipRuntime
import TipRuntimeSQLite
import TipcTestSupport
@testable import TipService
import TipcDriver

/// `TipServer` in process, for the answers a live store does not give on demand: a store that
/// cannot be reached (503) and a synced record colliding with a stored one (409).
@Suite("tipc serve: store failures")
struct ServeHandlerTests {
    static func pack() throws -> ServicePack {
        let (_, compiled) = Frontend.compile(sources: [SourceFile(path: "app.tips", text: """
            tipkit 1
            event opened
            tip t {
              title "T"
            }
            """)])
        return ServicePack(verified: try RulePackVerifier.verify(try #require(compiled)))
    }

    struct UnreachableStore: ServiceStore {
        func transaction<T>(user: String, _ body: (any TipPersistence) throws -> T) throws -> T {
            throw TipStoreError(.unavailable, "connection refused")
        }
        func snapshot(user: String, donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
            throw TipStoreError(.unavailable, "connection refused")
        }
        func checkHealth() throws(TipStoreError) { throw TipStoreError(.unavailable, "connection refused") }
    }

    @Test func anUnreachableStoreIs503AndCounted() throws {
        let server = TipServer(pack: try Self.pack(), store: UnreachableStore(), keys: nil)
        for request in [HTTPRequest(method: "GET", path: "/v1/users/ann/tips"), HTTPRequest(method: "POST", path: "/v1/users/ann/events/opened"),
                        HTTPRequest(method: "GET", path: "/healthz")] {
            let response = server.handle(request)
            #expect(response.status == 503)
            #expect(String(decoding: response.body, as: UTF8.self).contains(#""code":"store-unavailable""#))
            #expect(response.headers.contains { $0.0 == "Retry-After" })
        }
        #expect(server.metrics.render().contains(#"tipc_store_errors_total{kind="unavailable"} 3"#))
    }

    /// A service store written before action taps, arms and assignments opens, keeps every
    /// user's records and stores the new ones.
    @Test func aServiceStoreOfSchemaVersion1MigratesAndKeepsEverything() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/serve.sqlite"
        let raw = try SQLiteConnection(path: path)
        try SQLiteMigrations(Array(SQLiteServiceStore.migrations.steps.prefix(1)), kind: .service).apply(to: raw)
        try raw.withSession { session in
            try session.execute("""
                INSERT INTO service_users VALUES ('ann', 7);
                INSERT INTO service_donations VALUES ('ann', 'd1', 'opened', 5, '');
                INSERT INTO service_tip_records VALUES ('ann', 'r1', 't', 'display', 6, 'dev', 1, 20, NULL, NULL, NULL);
                INSERT INTO service_donation_deletions VALUES ('ann', 'opened', 1);
                """)
        }
        let expected = StoreSnapshot(
            donations: ["d1": DonationRecord(id: "d1", event: "opened", date: 5)],
            tipRecords: ["r1": TipEventRecord(id: "r1", tip: "t", stamp: Stamp(milliseconds: 6, device: "dev"), kind: .display(count: 1, milliseconds: 20))],
            latestFirstDisplay: 7, donationDeletions: ["opened": 1])
        let store = try SQLiteServiceStore(path: path)
        #expect(try store.transaction(user: "ann") { try $0.load() } == expected)
        let assignment = AssignmentRecord(id: "a", experiment: "copy", salt: "copy", arm: "short", date: 8)
        let tap = TipEventRecord(id: "r2", tip: "t", stamp: Stamp(milliseconds: 9, device: "dev"), kind: .action("ok"))
        try store.transaction(user: "ann") { persistence in
            try persistence.assign([assignment])
            try persistence.add([tap], latestFirstDisplay: nil)
        }
        var after = expected
        after.assignments[assignment.key] = assignment
        after.tipRecords["r2"] = tap
        #expect(try store.snapshot(user: "ann") { _ in } == StoreSnapshot(tipRecords: after.tipRecords, latestFirstDisplay: 7,
                                                                         donationDeletions: after.donationDeletions, assignments: after.assignments))
    }

    @Test func aCollidingSyncedRecordIs409AndChangesNothing() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        let server = TipServer(pack: try Self.pack(), store: store, keys: nil)
        func sync(_ body: String) -> HTTPResponse {
            server.handle(HTTPRequest(method: "POST", path: "/v1/users/ann/sync", body: Array(body.utf8)))
        }
        #expect(sync(#"{"donations":[{"id":"d1","event":"opened","date":"2026-01-01T00:00:00Z"}]}"#).status == 200)
        let clash = sync(#"{"donations":[{"id":"d2","event":"opened","date":"2026-01-02T00:00:00Z"},{"id":"d1","event":"opened","date":"2026-01-03T00:00:00Z"}]}"#)
        #expect(clash.status == 409)
        let after = String(decoding: sync("{}").body, as: UTF8.self)
        #expect(after.contains(#""id":"d1","event":"opened","date":"2026-01-01T00:00:00Z""#))
        #expect(!after.contains("d2"))
    }
}

/// Durations in the service's bodies are read by the one duration grammar, as `--value` reads
/// them: every unit (`w` and `ms` too), never negative, and written back in the same spelling.
@Suite("tipc serve: durations in bodies")
struct ServeDurationTests {
    @Test func durationsTakeEveryUnitAndNoSign() throws {
        let (_, compiled) = Frontend.compile(sources: [SourceFile(path: "app.tips", text: "tipkit 1\nparam cooldown: Duration = 1h\ntip t {\n  title \"T\"\n}\n")])
        let folder = try TemporaryFolder()
        let server = TipServer(pack: ServicePack(verified: try RulePackVerifier.verify(try #require(compiled))),
                               store: try SQLiteServiceStore(path: folder.path + "/serve.sqlite"), keys: nil)
        func put(_ value: String) -> (status: Int, text: String) {
            let response = server.handle(HTTPRequest(method: "PUT", path: "/v1/users/ann/parameters/cooldown", body: Array(#"{"value":"\#(value)"}"#.utf8)))
            return (response.status, String(decoding: response.body, as: UTF8.self))
        }
        for (written, shown) in [("2w", "14d"), ("1500ms", "1500ms"), ("1_000ms", "1s"), ("1d12h", "1d12h")] {
            let reply = put(written)
            #expect(reply.status == 200, "\(written): \(reply.text)")
            #expect(reply.text.contains(#""value":"\#(shown)""#), "\(written): \(reply.text)")
        }
        for refused in ["-2h", "3y", "1.5h", ""] {
            let reply = put(refused)
            #expect(reply.status == 400, "\(refused): \(reply.text)")
            #expect(reply.text.contains("wrong-parameter-type"), "\(refused): \(reply.text)")
        }
    }
}

/// Format 2's donation deletions in the service store (wired into `TipPersistence` at merge).
@Suite("tipc serve: donation deletions in the SQLite service store")
struct ServiceDeletionTests {
    @Test func aDeletionRemovesTheUsersDonationsThroughItsInstantOnly() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        let donations = [DonationRecord(id: "a", event: "opened", date: 10), DonationRecord(id: "b", event: "opened", date: 20),
                         DonationRecord(id: "c", event: "other", date: 5)]
        for user in ["ann", "bob"] {
            try store.transaction(user: user) { persistence in try persistence.append(donations) }
        }
        try store.transaction(user: "ann") { persistence in
            let view = try #require(persistence as? SQLiteUserPersistence)
            try view.deleteDonations(of: "opened", through: 15)
            try view.deleteDonations(of: "opened", through: 12)   // an earlier instant: the later one stays
        }
        let ann = try store.transaction(user: "ann") { try $0.load() }
        let bob = try store.transaction(user: "bob") { try $0.load() }
        #expect(Set(ann.donations.keys) == ["b", "c"])
        #expect(Set(bob.donations.keys) == ["a", "b", "c"])
    }
}
