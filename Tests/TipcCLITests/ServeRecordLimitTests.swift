import Dispatch
import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipServicePostgres

/// The limit on one user's records (`--max-records`, 409 `too-many-records`), on both stores:
/// a write that would go over it is rolled back, and a user already over it (a store filled
/// behind the service's back) is refused before the records are read, at a cost that does not
/// grow with what the user holds, and without holding up other users. The PostgreSQL tests
/// need the cluster scripts/test.sh starts (TIPC_TEST_POSTGRES_URL).
@Suite("tipc serve: records per user", .serialized)
struct ServeRecordLimitTests {
    static let heavyUser = "heavy"
    static let millions = 1_000_000

    @Test func aWriteOverTheLimitIsRefusedWithNothingWrittenOnSQLite() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        try Self.limitScenario(try ServerProcess(pack: manifest, store: store, extra: ["--max-records", "3"]))
    }

    @Test func aWriteOverTheLimitIsRefusedWithNothingWrittenOnPostgreSQL() throws {
        let (folder, manifest, _) = try ServeFixture.folder()
        _ = folder
        try Self.limitScenario(try ServerProcess(pack: manifest, store: try ServePostgresTests.freshDatabase(), extra: ["--max-records", "3"]))
    }

    @Test func aUserWithAMillionDonationsIsRefusedAtOnceOnSQLite() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        _ = try SQLiteServiceStore(path: store)
        let connection = try SQLiteConnection(path: store)
        try connection.withSession { session in
            try session.transaction { tx in
                try tx.run("""
                    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
                    INSERT INTO service_donations(user_id, id, event, date, value)
                    SELECT ?1, printf('d%07d', i), 'opened', 1767225600000 + i, '' FROM n
                    """, [.text(Self.heavyUser), .integer(Self.millions)])
            }
        }
        try Self.heavyUserScenario(try ServerProcess(pack: manifest, store: store))
    }

    @Test func aUserWithAMillionDonationsIsRefusedAtOnceOnPostgreSQL() throws {
        let (folder, manifest, _) = try ServeFixture.folder()
        _ = folder
        let url = try ServePostgresTests.freshDatabase()
        _ = try PostgresServiceStore(url: url)
        // The secondary index built once after the million rows rather than row by row.
        let connection = try PostgresConnection(url: url)
        _ = try connection.execute("BEGIN; DROP INDEX donations_by_event_date")
        _ = try connection.query("""
            INSERT INTO donations(user_id, id, event, date, value)
            SELECT $1, convert_to('d' || lpad(i::text, 7, '0'), 'UTF8'), '\\x6f70656e6564'::bytea, 1767225600000 + i, ''::bytea
            FROM generate_series(1, \(Self.millions)) AS i
            """, [.utf8(Self.heavyUser)])
        _ = try connection.execute("CREATE INDEX donations_by_event_date ON donations(user_id, event, date); COMMIT")
        // Statistics, as autovacuum would gather soon after such an insert.
        _ = try connection.execute("ANALYZE donations")
        try Self.heavyUserScenario(try ServerProcess(pack: manifest, store: url))
    }

    static func donation(_ server: ServerProcess, user: String, item: Int) throws -> HTTPReply {
        try donation(port: server.port, user: user, item: item)
    }

    static func donation(port: Int, user: String, item: Int) throws -> HTTPReply {
        try HTTPClient.send(port: port, method: "POST", path: "/v1/users/\(user)/events/opened", body: Array(#"{"value":{"itemID":\#(item)}}"#.utf8))
    }

    static func donationCount(_ server: ServerProcess, user: String) throws -> Int? {
        guard case .array(let donations)? = try server.request("POST", "/v1/users/\(user)/sync", body: "{}").json?["donations"] else { return nil }
        return donations.count
    }

    /// With a limit of 3 records: three donations are taken, the fourth and a sync bringing
    /// two more are refused with nothing written, reads still answer, and another user is free.
    static func limitScenario(_ server: ServerProcess) throws {
        for item in 0..<3 { #expect(try donation(server, user: "ann", item: item).status == 201) }
        let refused = try donation(server, user: "ann", item: 3)
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.json?["error"]?["code"] == .string("too-many-records"), "\(refused.text)")
        let sync = try server.request("POST", "/v1/users/ann/sync", body: """
            {"donations":[{"id":"device-1","event":"opened","date":"2026-01-01T00:00:00Z","value":{"itemID":9}},
                          {"id":"device-2","event":"opened","date":"2026-01-01T00:00:01Z","value":{"itemID":9}}]}
            """)
        #expect(sync.status == 409, "\(sync.text)")
        #expect(try donationCount(server, user: "ann") == 3)
        #expect(try server.request("GET", "/v1/users/ann/tips").status == 200)
        #expect(try donation(server, user: "bob", item: 1).status == 201)
    }

    /// Every kind of request of the user holding a million donations is refused without
    /// reading them, while another user's requests, sent at the same time, all succeed.
    static func heavyUserScenario(_ server: ServerProcess) throws {
        let heavyStatuses = RuntimeLock<[Int]>([])
        let otherStatuses = RuntimeLock<[Int]>([])
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: 2) { side in
            for item in 0..<10 {
                if side == 0 {
                    let replies = [try? HTTPClient.send(port: port, method: "GET", path: "/v1/users/\(heavyUser)/tips", body: nil),
                                   try? donation(port: port, user: heavyUser, item: item),
                                   try? HTTPClient.send(port: port, method: "POST", path: "/v1/users/\(heavyUser)/sync", body: Array("{}".utf8))]
                    heavyStatuses.withLock { $0 += replies.map { $0?.status ?? 0 } }
                } else {
                    let reply = try? donation(port: port, user: "light", item: item)
                    otherStatuses.withLock { $0.append(reply?.status ?? 0) }
                }
            }
        }
        #expect(heavyStatuses.withLock { $0 } == Array(repeating: 409, count: 30))
        #expect(otherStatuses.withLock { $0 } == Array(repeating: 201, count: 10))
        let reply = try server.request("GET", "/v1/users/\(heavyUser)/tips")
        #expect(reply.json?["error"]?["code"] == .string("too-many-records"), "\(reply.text)")
    }
}
