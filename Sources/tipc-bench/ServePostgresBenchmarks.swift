import Foundation
import TipRuntime
import TipService
import TipServicePostgres

extension ServeBench {
    /// The service benchmark on PostgreSQL: a new database on the server `url` names, filled
    /// like the SQLite one (every user a parameter and 4 donations), measured the same way, and
    /// dropped after. The floor reads the user's donations with one prepared SELECT on a pooled
    /// connection of its own.
    func runOnPostgres(_ url: String) throws {
        let name = "tipc_bench_\(users)_\(RecordID.random().prefix(8))"
        try Self.withThrowawayDatabase(on: url, named: name) { database in try runOnPostgres(database: database) }
    }

    private func runOnPostgres(database: String) throws {
        let store = try PostgresServiceStore(url: database)
        try populate(try PostgresConnection(url: database))
        let floorConnections = RuntimeLock<[PostgresConnection]>([])
        let server = TipServer(pack: pack, store: store, keys: nil)
        try measure([
            try Phase("floor: empty handler", method: "GET", path: { _ in "/x" }, expect: 200) { _ in
                HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array("{}\n".utf8))
            },
            try Phase("floor: one prepared SELECT", method: "GET", path: { "/\($0)" }, expect: 200) { request in
                let user = String(request.path.dropFirst())
                guard let connection = floorConnections.withLock({ $0.popLast() }) ?? (try? PostgresConnection(url: database)) else {
                    return HTTPResponse(status: 503)
                }
                defer { floorConnections.withLock { $0.append(connection) } }
                let rows = try? connection.query("SELECT id, event, date, value FROM donations WHERE user_id = $1 ORDER BY date, id", [.utf8(user)])
                // 4, and any donations the POST figure added.
                guard let rows, rows.count >= 4, (0..<rows.count).allSatisfy({ !rows.bytes($0, 0).isEmpty }) else { return HTTPResponse(status: 500) }
                return HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: Array("{\"rows\":\(rows.count)}\n".utf8))
            },
            try Phase("GET /v1/users/{user}/tips", method: "GET", path: { "/v1/users/\($0)/tips" }, expect: 200) { server.handle($0) },
            try Phase("POST /v1/users/{user}/events/opened", method: "POST", path: { "/v1/users/\($0)/events/opened" },
                      body: #"{"value":{"itemID":1}}"#, expect: 201) { server.handle($0) },
        ], onPostgres: true)
    }

    /// Every user with `isSignedIn` and 4 donations, made by the server in one transaction
    /// (setup only), in the store's encoding: strings as bytea of UTF-8.
    private func populate(_ connection: PostgresConnection) throws {
        let now = Int64(Date().timeIntervalSince1970 * 1000)
        try connection.execute("BEGIN")
        try connection.query("INSERT INTO users(user_id) SELECT convert_to('u' || g, 'UTF8') FROM generate_series(0, $1 - 1) g",
                             [.bigint(Int64(users))])
        try connection.query("""
            INSERT INTO parameters(user_id, name, value, stamp_ms, stamp_device)
            SELECT convert_to('u' || g, 'UTF8'), convert_to('isSignedIn', 'UTF8'),
                   convert_to(CASE WHEN g % 2 = 0 THEN $2 ELSE $3 END, 'UTF8'), $4, convert_to('bench', 'UTF8')
            FROM generate_series(0, $1 - 1) g
            """, [.bigint(Int64(users)), .text(RuntimeValue.bool(true).storageText), .text(RuntimeValue.bool(false).storageText), .bigint(now)])
        try connection.query("""
            INSERT INTO donations(user_id, id, event, date, value)
            SELECT convert_to('u' || g, 'UTF8'), convert_to(md5(random()::text || g || ':' || d), 'UTF8'), convert_to('opened', 'UTF8'),
                   $2 - d * 3600000, convert_to('itemID=i:' || d, 'UTF8')
            FROM generate_series(0, $1 - 1) g, generate_series(0, 3) d
            """, [.bigint(Int64(users)), .bigint(now)])
        try connection.execute("COMMIT")
        try connection.execute("ANALYZE")
    }

    /// Runs `body` with the URL of a new database `name` on the server `url` names, and drops
    /// the database after.
    static func withThrowawayDatabase(on url: String, named name: String, _ body: (String) throws -> Void) throws {
        let admin = try PostgresConnection(url: url)
        try admin.execute("CREATE DATABASE \(name)")
        defer { _ = try? admin.execute("DROP DATABASE \(name) WITH (FORCE)") }
        try body(try Self.url(url, database: name))
    }

    /// `base` with another database name (the path's last part).
    private static func url(_ base: String, database: String) throws -> String {
        let query = base.firstIndex(of: "?") ?? base.endIndex
        guard let slash = base[..<query].lastIndex(of: "/") else { throw ServeBenchError("cannot name a database in '\(base)'") }
        return base[...slash] + database + base[query...]
    }
}
