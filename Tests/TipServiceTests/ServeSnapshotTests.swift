import Foundation
import Testing
import TipcCompiler
import TipRuntime
import TipRuntimeSQLite
import TipcTestSupport
@testable import TipService
import TipcDriver
import TipcJSON

/// `GET …/tips` reads a snapshot of the user's records without the user's transaction
/// (`ServiceStore.snapshot`): it must read what a transaction reads (the store conformance
/// suite checks it after every operation, on both service stores) and never wait for a writer.
@Suite("tipc serve: reads from a snapshot")
struct ServeSnapshotTests {
    /// One user's records of every kind, with values that must round-trip exactly.
    static func richSnapshot() -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for (index, text) in ["", "a\u{0}b", "é", "\u{301}leading mark", "=;\\", "tab\tnew\nline"].enumerated() {
            let donation = DonationRecord(id: "d\(index)\u{0}", event: "opened", date: Int64(index % 3) - 5, value: ["f=;": .string(text), "n": .int(Int64(index))])
            snapshot.donations[donation.id] = donation
            snapshot.parameters["p\(index)"] = ParameterRecord(value: .string(text), stamp: Stamp(milliseconds: Int64(index), device: "dev\u{0}"))
        }
        for record in [
            TipEventRecord(id: "display", tip: "t", stamp: Stamp(milliseconds: -3, device: "d"), kind: .display(count: 4, milliseconds: 5_000)),
            TipEventRecord(id: "invalid", tip: "t", stamp: Stamp(milliseconds: 2, device: "d"), kind: .invalidation(.tipClosed), date: 9),
            TipEventRecord(id: "keyed-int", tip: "k", key: .int(42), stamp: Stamp(milliseconds: 3, device: "d"), kind: .reset),
            TipEventRecord(id: "keyed-text", tip: "k", key: .string("trail é"), stamp: Stamp(milliseconds: 4, device: "d"), kind: .display(count: 1, milliseconds: 0)),
        ] {
            snapshot.tipRecords[record.id] = record
        }
        snapshot.latestFirstDisplay = 1_234
        return snapshot
    }

    /// Writes `snapshot` (and a deletion of `other`'s donations through 0) as the user's records.
    static func write(_ snapshot: StoreSnapshot, user: String, to store: any ServiceStore) throws {
        try store.transaction(user: user) { persistence in
            try persistence.append(Array(snapshot.donations.values))
            try persistence.write(parameters: snapshot.parameters)
            try persistence.add(Array(snapshot.tipRecords.values), latestFirstDisplay: snapshot.latestFirstDisplay)
            try persistence.deleteDonations(of: "other", through: 0)
        }
    }

    /// The user's snapshot, donations included, and the order they came in.
    static func snapshot(of user: String, in store: any ServiceStore) throws -> (StoreSnapshot, [String]) {
        var order: [DonationRecord] = []
        var snapshot = try store.snapshot(user: user) { order.append($0) }
        snapshot.donations = Dictionary(uniqueKeysWithValues: order.map { ($0.id, $0) })
        return (snapshot, order.map(\.id))
    }

    /// A store that only has transactions (as one written outside this project may).
    struct TransactionsOnly: ServiceStore {
        let base: SQLiteServiceStore
        func transaction<T>(user: String, _ body: (any TipPersistence) throws -> T) throws -> T { try base.transaction(user: user, body) }
        func checkHealth() throws(TipStoreError) { try base.checkHealth() }
    }

    /// Without a read path of its own, a store's snapshot is read in the user's transaction,
    /// and is the same.
    @Test func aStoreWithOnlyTransactionsReadsItsSnapshotInOne() throws {
        let folder = try TemporaryFolder()
        let base = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        try Self.write(Self.richSnapshot(), user: "ann", to: base)
        let store = TransactionsOnly(base: base)
        let (snapshot, order) = try Self.snapshot(of: "ann", in: store)
        let (expected, expectedOrder) = try Self.snapshot(of: "ann", in: base)
        #expect(snapshot == expected)
        #expect(order == expectedOrder)
    }

    static func pack() throws -> ServicePack {
        let (_, compiled) = Frontend.compile(sources: [SourceFile(path: "app.tips", text: """
            tipkit 1
            param isSignedIn: Bool = false
            tip t {
              title "T"
              rule $isSignedIn
            }
            """)])
        return ServicePack(verified: try RulePackVerifier.verify(try #require(compiled)))
    }

    /// Another process holds the write lock with a write not committed yet (a server in the
    /// middle of a transaction): a GET answers at once from the last committed state, and the
    /// write shows once it commits. (Before snapshots, the GET waited for the lock.)
    @Test func aGETNeverWaitsForAWritersTransaction() throws {
        let folder = try TemporaryFolder()
        let path = folder.path + "/serve.sqlite"
        // A short busy timeout: a GET that waited for the lock would fail (503), not hang.
        let store = try SQLiteServiceStore(path: path, busyTimeoutMilliseconds: 100)
        let server = TipServer(pack: try Self.pack(), store: store, keys: nil)
        func status() throws -> String {
            let response = server.handle(HTTPRequest(method: "GET", path: "/v1/users/ann/tips"))
            try #require(response.status == 200, "\(String(decoding: response.body, as: UTF8.self))")
            guard case .array(let tips)? = try JSON.parse(response.body)["tips"], case .string(let status)? = tips.first?["status"] else {
                Issue.record("no status in \(String(decoding: response.body, as: UTF8.self))")
                return ""
            }
            return status
        }
        #expect(try status() == "pending")
        let writer = try SQLiteConnection(path: path)
        try writer.withSession { session in
            try session.execute("BEGIN IMMEDIATE")
            try session.run("INSERT INTO service_parameters(user_id, name, value, stamp_ms, stamp_device) VALUES ('ann', 'isSignedIn', 'b:true', 1, 'd')")
        }
        #expect(try status() == "pending", "the uncommitted write is not seen")
        #expect(try status() == "pending")
        try writer.withSession { try $0.execute("COMMIT") }
        #expect(try status() == "available", "the committed write is seen at once")
    }
}
