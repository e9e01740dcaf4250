import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipServicePostgres
import TipcJSON

/// The user routes beyond a single write: a batch of donations, deleting and exporting a user,
/// a group's current tip, why a tip is not displayed, displays of tips that are not available
/// and donations dated ahead of the server's clock; each on both service stores.
@Suite("tipc serve: user routes")
struct ServeUserRoutesTests {
    enum Store: String, CaseIterable, CustomTestStringConvertible {
        case sqlite, postgres
        var testDescription: String { rawValue }
    }

    /// A group, the display frequency, a display limit and a tip outside the group.
    static let manifest = """
        tipkit: 1
        displayFrequency: daily
        parameters:
          isSignedIn: { type: bool, default: false }
        events:
          opened:
            value: { itemID: int }
        tips:
          welcome:
            title: Welcome
            maxDisplayCount: 1
          favorite:
            title: Favorite It
            rules:
              - $isSignedIn
              - opened.count >= 2
          share:
            title: Share It
        groups:
          start: { priority: ordered, tips: [welcome, favorite] }
        """

    /// A server on a new store of `kind` (in `folder` for SQLite); the store's path or URL.
    static func server(_ kind: Store, _ folder: TemporaryFolder, extra: [String] = []) throws -> (ServerProcess, store: String) {
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let store = kind == .sqlite ? folder.path + "/serve.sqlite" : try ServePostgresTests.freshDatabase()
        return (try ServerProcess(pack: (manifest as NSString).deletingLastPathComponent, store: store, extra: extra), store)
    }

    static func tips(_ server: ServerProcess, _ user: String) throws -> [String: JSON] {
        let reply = try server.request("GET", "/v1/users/\(user)/tips")
        guard reply.status == 200, case .array(let tips)? = reply.json?["tips"] else { throw ServeTestError("GET tips: \(reply.text)") }
        var byID: [String: JSON] = [:]
        for tip in tips { if case .string(let id)? = tip["id"] { byID[id] = tip } }
        return byID
    }

    static func export(_ server: ServerProcess, _ user: String) throws -> JSON {
        let reply = try server.request("GET", "/v1/users/\(user)/export")
        guard reply.status == 200, let json = reply.json else { throw ServeTestError("export: \(reply.status) \(reply.text)") }
        return json
    }

    static func donationCount(_ server: ServerProcess, _ user: String) throws -> Int {
        guard case .array(let donations)? = try export(server, user)["donations"] else { throw ServeTestError("no donations") }
        return donations.count
    }

    static func expectError(_ reply: HTTPReply, _ status: Int, _ code: String, _ fragment: String = "",
                            sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(reply.status == status, "\(reply.text)", sourceLocation: sourceLocation)
        #expect(reply.json?["error"]?["code"] == .string(code), "\(reply.text)", sourceLocation: sourceLocation)
        if !fragment.isEmpty { #expect(reply.text.contains(fragment), "\(reply.text)", sourceLocation: sourceLocation) }
    }

    static func iso(_ date: Date) -> String { ISO8601.string(fromMilliseconds: Int(date.timeIntervalSince1970 * 1000)) }

    // MARK: - Batches

    @Test(arguments: Store.allCases)
    func aBatchIsRecordedWholeOrNotAtAll(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let (server, _) = try Self.server(kind, folder)
        let batch = #"{"donations":[{"event":"opened","value":{"itemID":1},"date":"2026-01-01T00:00:00Z"},{"event":"opened","value":{"itemID":2}}]}"#
        let reply = try server.request("POST", "/v1/users/ann/events", body: batch)
        #expect(reply.status == 201, "\(reply.text)")
        guard case .array(let answered)? = reply.json?["donations"] else { Issue.record("no donations: \(reply.text)"); return }
        #expect(answered.count == 2)
        #expect(answered.first?["date"] == .string("2026-01-01T00:00:00Z"))
        #expect(try Self.donationCount(server, "ann") == 2)

        // Each refusal names the element; none of the batch is recorded, even the valid ones
        // before it (the missing field is found by the runtime, after element 0 was donated).
        let refusals: [(String, Int, String, String)] = [
            (#"{"donations":[{"event":"opened","value":{"itemID":3}},{"event":"opened","value":{"itemID":"x"}}]}"#, 400, "wrong-field-type", "donation 1: "),
            (#"{"donations":[{"event":"opened","value":{"itemID":3}},{"event":"opened"}]}"#, 400, "missing-field", "donation 1: "),
            (#"{"donations":[{"event":"opened","value":{"itemID":3}},{"event":"opend","value":{"itemID":3}}]}"#, 404, "unknown-event", "donation 1: no event named 'opend'; did you mean 'opened'?"),
            (#"{"donations":[{"event":"opened","value":{"itemID":3}},{"event":"opened","value":{"itemID":3},"date":"3000-01-01T00:00:00Z"}]}"#, 422, "date-in-future", "donation 1: "),
            (#"{"donations":[{"value":{"itemID":3}}]}"#, 400, "missing-event", "donation 0: "),
            (#"{"donations":[{"event":"opened","value":{"itemID":3}},7]}"#, 400, "wrong-type", "donation 1: "),
            (#"{"donations":[{"event":"opened","value":{"itemID":3},"dat":"x"}]}"#, 400, "unknown-member", "donation 0: "),
            (#"{"donation":[]}"#, 400, "unknown-member", "did you mean 'donations'?"),
            (#"{}"#, 400, "missing-donations", ""),
        ]
        for (body, status, code, fragment) in refusals {
            Self.expectError(try server.request("POST", "/v1/users/ann/events", body: body), status, code, fragment)
        }
        #expect(try Self.donationCount(server, "ann") == 2, "nothing of a refused batch was recorded")
        // Over the limit on records: the whole batch is refused.
        let big = "{\"donations\":[" + Array(repeating: #"{"event":"opened","value":{"itemID":1}}"#, count: 20).joined(separator: ",") + "]}"
        let limitedFolder = try TemporaryFolder()
        let limited = try Self.server(kind, limitedFolder, extra: ["--max-records", "10"]).0
        Self.expectError(try limited.request("POST", "/v1/users/ann/events", body: big), 409, "too-many-records")
        #expect(try Self.donationCount(limited, "ann") == 0)
    }

    /// A real `tipc serve` killed with SIGKILL while it records a large batch (once the batch's
    /// transaction is seen open in the store), then restarted on the same store: every
    /// donation of the batch is there, or none.
    @Test(arguments: Store.allCases)
    func aBatchCutShortBySIGKILLLeavesAllOrNothing(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let limit = ["--max-records", "30000"]
        let (victim, store) = try Self.server(kind, folder, extra: limit)
        let count = 10_000
        let items = (0..<count).map { #"{"event":"opened","value":{"itemID":\#($0)}}"# }
        let body = Array(("{\"donations\":[" + items.joined(separator: ",") + "]}").utf8)
        #expect(body.count < TipServer.maximumBatchBytes)
        let descriptor = try HTTPClient.connect(port: victim.port)
        defer { close(descriptor) }
        let head = "POST /v1/users/batch/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        try HTTPClient.write(descriptor, Array(head.utf8) + body)
        let open = try Self.waitForOpenWriteTransaction(kind, store)
        victim.stop(SIGKILL)
        let reply = try? HTTPClient.read(descriptor)
        #expect(open, "the batch's transaction was seen open before the kill")
        #expect(reply?.status != 201, "the server answered before it was killed: \(reply?.text ?? "")")

        let restarted = try ServerProcess(pack: folder.path + "/app", store: store, extra: limit)
        let stored = try Self.donationCount(restarted, "batch")
        #expect(stored == 0 || stored == count, "\(stored) of the batch's \(count) donations survived")
        // The batch itself is fine: sent again, it is recorded whole.
        let again = try restarted.request("POST", "/v1/users/batch/events", body: String(decoding: body, as: UTF8.self))
        #expect(again.status == 201, "\(again.text.prefix(300))")
        #expect(try Self.donationCount(restarted, "batch") == stored + count)
    }

    /// Waits (at most 60 s) until a write transaction is open on the store: SQLite's write lock
    /// is held (a `BEGIN IMMEDIATE` of ours is refused at once), or a PostgreSQL session sits in
    /// a transaction that inserts donations.
    static func waitForOpenWriteTransaction(_ kind: Store, _ store: String) throws -> Bool {
        let deadline = Date().addingTimeInterval(60)
        switch kind {
        case .sqlite:
            let probe = try SQLiteConnection(path: store, create: false, busyTimeoutMilliseconds: 0)
            while Date() < deadline {
                let busy: Bool = probe.withSession { session in
                    do {
                        try session.execute("BEGIN IMMEDIATE")
                        try? session.execute("ROLLBACK")
                        return false
                    } catch {
                        return true
                    }
                }
                if busy { return true }
                usleep(500)
            }
        case .postgres:
            let probe = try PostgresConnection(url: store)
            while Date() < deadline {
                let sessions = try probe.query("""
                    SELECT count(*) FROM pg_stat_activity WHERE pid <> pg_backend_pid() AND datname = current_database()
                      AND state IN ('active', 'idle in transaction') AND query LIKE '%INSERT INTO donations%'
                    """)
                if sessions.int64(0, 0) ?? 0 > 0 { return true }
                usleep(500)
            }
        }
        return false
    }

    // MARK: - Deleting and exporting a user

    @Test(arguments: Store.allCases)
    func deletingAUserLeavesNoRowOfTheirsInAnyTable(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let (server, store) = try Self.server(kind, folder)
        // Every kind of record, for two users: donations, a parameter, tip records (a display
        // and an invalidation), the frequency gap's start, a donation deletion and an experiment
        // assignment.
        for user in ["ann", "bob"] {
            #expect(try server.request("PUT", "/v1/users/\(user)/parameters/isSignedIn", body: #"{"value":true}"#).status == 200)
            #expect(try server.request("POST", "/v1/users/\(user)/events", body: #"{"donations":[{"event":"opened","value":{"itemID":1}},{"event":"opened","value":{"itemID":2}}]}"#).status == 201)
            #expect(try server.request("POST", "/v1/users/\(user)/tips/welcome/displays").status == 200)
            #expect(try server.request("POST", "/v1/users/\(user)/tips/share/invalidate", body: #"{"reason":"tipClosed"}"#).status == 200)
            #expect(try server.request("POST", "/v1/users/\(user)/sync", body: #"{"donationDeletions":{"opened":"2020-01-01T00:00:00Z"},"records":{"assignments":[{"id":"a1","experiment":"copy","salt":"copy","arm":"short","dateMilliseconds":0}]}}"#).status == 200)
        }
        let before = try Self.rowsByTable(kind, store, user: "ann")
        #expect(before.values.reduce(0, +) >= 8, "\(before)")
        #expect(before.values.allSatisfy { $0 > 0 }, "every table holds rows of the user before: \(before)")

        let exported = try Self.export(server, "ann")
        guard case .array(let donations)? = exported["donations"] else { Issue.record("export: \(exported)"); return }
        #expect(donations.count == 2)
        #expect(exported["parameters"]?["isSignedIn"] == .bool(true))
        #expect(exported["tips"]?["welcome"]?["displayCount"] == .integer(1))
        #expect(exported["tips"]?["share"]?["status"] == .string("invalidated(tipClosed)"))
        #expect(exported["donationDeletions"]?["opened"] == .string("2020-01-01T00:00:00Z"))
        #expect(exported["records"]?["latestFirstDisplayMilliseconds"] != nil)
        #expect(exported["records"]?["assignments"] == .array([.object([("id", .string("a1")), ("experiment", .string("copy")),
                                                                         ("salt", .string("copy")), ("arm", .string("short")),
                                                                         ("dateMilliseconds", .integer(0))])]))

        let deleted = try server.request("DELETE", "/v1/users/ann")
        #expect(deleted.status == 204)
        #expect(deleted.body.isEmpty)
        let after = try Self.rowsByTable(kind, store, user: "ann")
        #expect(after.values.allSatisfy { $0 == 0 }, "rows of the deleted user remain: \(after)")
        #expect(try Self.rowsByTable(kind, store, user: "bob") == before, "the other user's rows remain")
        // The user starts afresh; deleting one with nothing stored is fine too.
        #expect(try Self.tips(server, "ann")["welcome"]?["status"] == .string("available"))
        #expect(try server.request("DELETE", "/v1/users/ann").status == 204)
        #expect(try server.request("DELETE", "/v1/users/nobody").status == 204)
        let empty = try Self.export(server, "nobody")
        #expect(empty["donations"] == .array([]))
        #expect(try server.request("GET", "/v1/users/ann").headers["allow"] == "DELETE")
    }

    /// The number of rows of `user` in every table of the store that has a `user_id` column,
    /// found from the database's own catalogue; a table without one must be the schema's
    /// version record, so a new table of users' data cannot be missed.
    static func rowsByTable(_ kind: Store, _ store: String, user: String) throws -> [String: Int] {
        var rows: [String: Int] = [:]
        var withoutUser: [String] = []
        switch kind {
        case .sqlite:
            let connection = try SQLiteConnection(path: store, readOnly: true, create: false)
            try connection.withSession { session in
                let tables = try session.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { result in
                    var names: [String] = []
                    while try result.next() { names.append(result.text(0)) }
                    return names
                }
                for table in tables {
                    let hasUser = try session.query("SELECT count(*) FROM pragma_table_info(?1) WHERE name = 'user_id'", [.text(table)]) { result in
                        try result.next() && result.int(0) > 0
                    }
                    guard hasUser else { withoutUser.append(table); continue }
                    if case .integer(let count)? = try session.scalar("SELECT count(*) FROM \"\(table)\" WHERE user_id = ?1", [.text(user)]) {
                        rows[table] = Int(count)
                    }
                }
            }
        case .postgres:
            let connection = try PostgresConnection(url: store)
            let tables = try connection.query("""
                SELECT t.table_name, EXISTS (SELECT 1 FROM information_schema.columns c WHERE c.table_schema = t.table_schema
                                               AND c.table_name = t.table_name AND c.column_name = 'user_id')::int::bigint
                FROM information_schema.tables t WHERE t.table_schema = 'public' ORDER BY 1
                """)
            for row in 0..<tables.count {
                guard let table = tables.string(row, 0) else { continue }
                guard tables.int64(row, 1) == 1 else { withoutUser.append(table); continue }
                let count = try connection.query("SELECT count(*) FROM \"\(table)\" WHERE user_id = $1", [.bytea(Array(user.utf8))])
                rows[table] = Int(count.int64(0, 0) ?? -1)
            }
        }
        #expect(withoutUser == (kind == .sqlite ? [] : ["schema_migrations"]), "tables without a user_id column: \(withoutUser)")
        #expect(rows.count == 6, "\(rows)")
        return rows
    }

    // MARK: - Groups, reasons and displays

    @Test(arguments: Store.allCases)
    func groupsReasonsAndDisplaysOfTipsThatAreNotAvailable(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let (server, _) = try Self.server(kind, folder)
        var tips = try Self.tips(server, "ann")
        #expect(tips["welcome"]?["shouldDisplay"] == .bool(true))
        #expect(tips["welcome"]?["reason"] == nil)
        #expect(tips["favorite"]?["reason"] == .string("pending: rule 1 does not hold"))
        var group = try server.request("GET", "/v1/users/ann/groups/start")
        #expect(group.status == 200)
        #expect(group.json?["group"] == .string("start"))
        #expect(group.json?["tip"]?["id"] == .string("welcome"))
        #expect(group.json?["tip"]?["title"] == .string("Welcome"))
        Self.expectError(try server.request("GET", "/v1/users/ann/groups/strt"), 404, "unknown-group", "did you mean 'start'?")

        // A display of a pending tip is refused and records nothing.
        let refused = try server.request("POST", "/v1/users/ann/tips/favorite/displays", body: #"{"milliseconds":1500}"#)
        Self.expectError(refused, 409, "tip-not-available", "pending: rule 1 does not hold")
        #expect(try Self.export(server, "ann")["records"]?["tips"] == .array([]))

        #expect(try server.request("PUT", "/v1/users/ann/parameters/isSignedIn", body: #"{"value":true}"#).status == 200)
        #expect(try server.request("POST", "/v1/users/ann/events", body: #"{"donations":[{"event":"opened","value":{"itemID":1}},{"event":"opened","value":{"itemID":2}}]}"#).status == 201)
        tips = try Self.tips(server, "ann")
        #expect(tips["favorite"]?["status"] == .string("available"))
        #expect(tips["favorite"]?["reason"] == .string("group 'start' offers 'welcome' first"))

        // The display limit: the first display invalidates welcome; a second is refused.
        let shown = try server.request("POST", "/v1/users/ann/tips/welcome/displays")
        #expect(shown.json?["status"] == .string("invalidated(displayCountExceeded)"))
        #expect(shown.json?["reason"] == .string("invalidated (displayCountExceeded)"))
        Self.expectError(try server.request("POST", "/v1/users/ann/tips/welcome/displays", body: #"{"milliseconds":10}"#),
                         409, "tip-not-available", "invalidated (displayCountExceeded)")
        #expect(try Self.export(server, "ann")["tips"]?["welcome"]?["displayCount"] == .integer(1))

        // The display frequency holds every tip not yet displayed until a day after the first display.
        tips = try Self.tips(server, "ann")
        guard case .string(let held)? = tips["share"]?["reason"] else { Issue.record("no reason: \(tips)"); return }
        #expect(held.hasPrefix("display frequency: no new tip before "))
        let gateText = String(held.dropFirst("display frequency: no new tip before ".count))
        let opens = try #require(ISO8601.milliseconds(from: gateText))
        let firstDisplay = try #require(Self.export(server, "ann")["records"]?["latestFirstDisplayMilliseconds"])
        #expect(firstDisplay == .integer(Int64(opens) - 86_400_000))
        #expect(tips["favorite"]?["reason"] == .string(held))
        group = try server.request("GET", "/v1/users/ann/groups/start")
        #expect(group.json?["tip"] == .null, "\(group.text)")

        let closed = try server.request("POST", "/v1/users/ann/tips/share/invalidate", body: #"{"reason":"tipClosed"}"#)
        #expect(closed.json?["reason"] == .string("invalidated (tipClosed)"))
        #expect(try Self.tips(server, "ann")["share"]?["reason"] == .string("invalidated (tipClosed)"))
    }

    // MARK: - Dates ahead of the server's clock

    @Test(arguments: Store.allCases)
    func donationsDatedAheadOfTheServersClockAreRefused(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let (server, _) = try Self.server(kind, folder)
        let inAMinute = Self.iso(Date().addingTimeInterval(60)), inAnHour = Self.iso(Date().addingTimeInterval(3_600))
        #expect(try server.request("POST", "/v1/users/ann/events/opened", body: #"{"value":{"itemID":1},"date":"\#(inAMinute)"}"#).status == 201)
        Self.expectError(try server.request("POST", "/v1/users/ann/events/opened", body: #"{"value":{"itemID":1},"date":"\#(inAnHour)"}"#),
                         422, "date-in-future", "at most 5m ahead is accepted")
        Self.expectError(try server.request("POST", "/v1/users/ann/events", body: #"{"donations":[{"event":"opened","value":{"itemID":1}},{"event":"opened","value":{"itemID":1},"date":"\#(inAnHour)"}]}"#),
                         422, "date-in-future", "donation 1: ")
        #expect(try Self.donationCount(server, "ann") == 1)

        let strictFolder = try TemporaryFolder()
        let strict = try Self.server(kind, strictFolder, extra: ["--max-clock-skew", "30s"]).0
        Self.expectError(try strict.request("POST", "/v1/users/ann/events/opened", body: #"{"value":{"itemID":1},"date":"\#(inAMinute)"}"#),
                         422, "date-in-future", "at most 30s ahead is accepted")
        #expect(try strict.request("POST", "/v1/users/ann/events/opened", body: #"{"value":{"itemID":1},"date":"2020-01-01T00:00:00Z"}"#).status == 201)
    }

    @Test func theClockSkewOptionTakesDurations() throws {
        #expect(TipServer.clockSkewMilliseconds(parsing: "30s") == 30_000)
        #expect(TipServer.clockSkewMilliseconds(parsing: "5m") == 300_000)
        #expect(TipServer.clockSkewMilliseconds(parsing: "1h30m") == 5_400_000)
        #expect(TipServer.clockSkewMilliseconds(parsing: "0s") == 0)
        for wrong in ["5", "-1m", "", "1y", "400d"] { #expect(TipServer.clockSkewMilliseconds(parsing: wrong) == nil, "\(wrong)") }
        let help = try ExecutableTests.run(["serve", "--help"])
        #expect(help.stdout.contains("--max-clock-skew"))
        let wrong = try ExecutableTests.run(["serve", "--pack", "nowhere", "--max-clock-skew", "5"])
        #expect(wrong.status == 2)
        #expect(wrong.stderr.contains("--max-clock-skew must be a duration"), "\(wrong.stderr)")
    }
}
