import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipcTestSupport
import TipcJSON

/// `tipc serve` as a real process on an ephemeral port: routes, errors, keys, limits,
/// concurrency, crashes and shutdown.
@Suite("tipc serve", .serialized)
struct ServeTests {
    @Test func everyRouteAndItsErrors() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let server = try ServerProcess(pack: manifest, store: store)
        _ = folder

        var reply = try server.request("GET", "/v1/users/ann/tips")
        #expect(reply.status == 200)
        #expect(reply.text.contains(#"{"id":"favorite","status":"pending","shouldDisplay":false,"title":"Favorite It""#))
        #expect(try server.request("PUT", "/v1/users/ann/parameters/isSignedIn", body: #"{"value":true}"#).status == 200)
        for _ in 0..<2 {
            reply = try server.request("POST", "/v1/users/ann/events/opened", body: #"{"value":{"itemID":3}}"#)
            #expect(reply.status == 201)
            #expect(reply.json?["id"] != nil && reply.json?["date"] != nil)
        }
        reply = try server.request("GET", "/v1/users/ann/tips?tip=favorite&locale=fr")
        let expected = try JSON.parse(Array(#"{"id":"favorite","status":"available","shouldDisplay":true,"title":"Favorite It","message":"Add it to your favorites.","image":{"symbol":"heart"},"actions":[{"id":"learn-more","title":"Learn More"}]}"#.utf8))
        #expect(reply.json?["tips"] == .array([expected]))
        // Another user is untouched.
        #expect(try server.request("GET", "/v1/users/bob/tips?tip=favorite").text.contains(#""status":"pending""#))
        reply = try server.request("POST", "/v1/users/ann/tips/favorite/displays", body: #"{"milliseconds":1500}"#)
        #expect(reply.status == 200)
        reply = try server.request("POST", "/v1/users/ann/tips/favorite/invalidate", body: #"{"reason":"tipClosed"}"#)
        #expect(reply.text.contains(#""status":"invalidated(tipClosed)""#))
        reply = try server.request("POST", "/v1/users/ann/tips/favorite/reset")
        #expect(reply.text.contains(#""status":"available""#))

        // Sync: a device's donation merges in, and the merged snapshot comes back.
        reply = try server.request("POST", "/v1/users/ann/sync", body: #"{"donations":[{"id":"device-1","event":"opened","date":"2026-01-01T00:00:00Z","value":{"itemID":9}}]}"#)
        #expect(reply.status == 200)
        guard case .array(let donations)? = reply.json?["donations"] else { Issue.record("no donations: \(reply.text)"); return }
        #expect(donations.count == 3)
        #expect(reply.text.contains(#""id":"device-1""#))
        #expect(reply.json?["records"]?["tips"] != nil)

        // The pack, its ETag and a conditional GET.
        reply = try server.request("GET", "/v1/pack")
        #expect(reply.status == 200)
        let etag = try #require(reply.headers["etag"])
        #expect(try server.request("GET", "/v1/pack", headers: ["If-None-Match": etag]).status == 304)
        #expect(try server.request("PUT", "/v1/pack", body: "not a pack").status == 422)
        #expect(try server.request("PUT", "/v1/pack", body: String(decoding: reply.body, as: UTF8.self)).status != 500)

        #expect(try server.request("GET", "/healthz").text.contains(#""status":"ok""#))
        let metrics = try server.request("GET", "/metrics").text
        #expect(metrics.contains(#"tipc_http_requests_total{route="POST /v1/users/{user}/events/{event}",status="201"} 2"#))
        #expect(metrics.contains("tipc_http_request_duration_seconds_bucket"))
        #expect(metrics.contains("tipc_store_errors_total"))

        // Errors: 400, 404 with did-you-mean, 405, 413.
        let errors: [(String, String, String?, Int, String)] = [
            ("PUT", "/v1/users/ann/parameters/isSignedIn", #"{"value":3}"#, 400, "wrong-parameter-type"),
            ("POST", "/v1/users/ann/events/opened", #"{"value":{"itemID":"x"}}"#, 400, "wrong-field-type"),
            ("POST", "/v1/users/ann/events/opened", #"{"value":{"itemID":1"#, 400, "bad-json"),
            ("POST", "/v1/users/ann/events/opened", #"{"valeu":{}}"#, 400, "unknown-member"),
            ("GET", "/v1/users/" + String(repeating: "u", count: 129) + "/tips", nil, 400, "bad-user"),
            ("GET", "/v1/users/ann/tips?tip=favorit", nil, 404, "did you mean 'favorite'"),
            ("POST", "/v1/users/ann/events/opend", "{}", 404, "did you mean 'opened'"),
            ("PUT", "/v1/users/ann/parameters/isSignedon", #"{"value":true}"#, 404, "did you mean 'isSignedIn'"),
            ("GET", "/v2/nothing", nil, 404, "not-found"),
            ("DELETE", "/v1/users/ann/tips", nil, 405, "method-not-allowed"),
            ("POST", "/v1/users/ann/sync", String(repeating: " ", count: 70_000), 413, "body-too-large"),
        ]
        for (method, path, body, status, fragment) in errors {
            let reply = try server.request(method, path, body: body)
            #expect(reply.status == status, "\(method) \(path): \(reply.text)")
            #expect(reply.text.contains(fragment), "\(method) \(path): \(reply.text)")
            #expect(reply.json?["error"]?["code"] != nil, "\(method) \(path): \(reply.text)")
        }
        #expect(try server.request("DELETE", "/v1/users/ann/tips").headers["allow"] == "GET")
        // A user id with an escaped slash is one opaque id.
        #expect(try server.request("PUT", "/v1/users/a%2Fb/parameters/isSignedIn", body: #"{"value":true}"#).status == 200)
    }

    @Test func oversizedBodyIsRefusedBeforeItIsRead() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let server = try ServerProcess(pack: manifest, store: store)
        _ = folder
        // Only the head is sent: the answer comes without the 1 MB body.
        let head = "POST /v1/users/ann/sync HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: 1000000\r\n\r\n"
        let reply = try HTTPClient.send(port: server.port, method: "", path: "", body: nil, rawHead: head)
        #expect(reply.status == 413)
        // Streamed (chunked) past the limit: refused too.
        var chunked = "POST /v1/users/ann/sync HTTP/1.1\r\nHost: x\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n"
        for _ in 0..<20 { chunked += "1000\r\n" + String(repeating: " ", count: 4096) + "\r\n" }
        chunked += "0\r\n\r\n"
        #expect(try HTTPClient.send(port: server.port, method: "", path: "", body: nil, rawHead: chunked).status == 413)
    }

    @Test func keysGuardRoutes() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let keys = try folder.write("keys", """
            # tokens: client-token, admin-token
            client \(SHA256.hex(Array("client-token".utf8))) web
            admin \(SHA256.hex(Array("admin-token".utf8))) ops
            """)
        let server = try ServerProcess(pack: manifest, store: store, extra: ["--keys", keys])
        #expect(try server.request("GET", "/v1/users/ann/tips").status == 401)
        #expect(try server.request("GET", "/v1/users/ann/tips", headers: ["Authorization": "Bearer wrong"]).status == 401)
        #expect(try server.request("GET", "/v1/users/ann/tips", headers: ["Authorization": "Bearer client-token"]).status == 200)
        let pack = try server.request("GET", "/v1/pack", headers: ["Authorization": "Bearer client-token"])
        let client = try HTTPClient.send(port: server.port, method: "PUT", path: "/v1/pack", body: pack.body, headers: ["Authorization": "Bearer client-token"])
        #expect(client.status == 403)
        let admin = try HTTPClient.send(port: server.port, method: "PUT", path: "/v1/pack", body: pack.body, headers: ["Authorization": "Bearer admin-token"])
        #expect(admin.status == 200)
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    @Test func commandLineRefusals() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let open = try ExecutableTests.run(["serve", "--pack", manifest, "--store", "sqlite:" + store, "--listen", "0.0.0.0:0"])
        #expect(open.status == 2)
        #expect(open.stderr.contains("loopback only"))
        // A PostgreSQL server that is not there: a clear error at start, not a server without a store.
        let postgres = try ExecutableTests.run(["serve", "--pack", manifest, "--store", "postgres:///tips?host=/nonexistent-tipc-socket-folder",
                                                "--listen", "127.0.0.1:0"])
        #expect(postgres.status == 2)
        #expect(postgres.stderr.contains("cannot open the PostgreSQL service store"))
        #expect(postgres.stderr.contains("/nonexistent-tipc-socket-folder"))
        let missing = try ExecutableTests.run(["serve", "--pack", folder.path + "/missing.tippack", "--store", "sqlite:" + store])
        #expect(missing.status == 2)
        #expect(!FileManager.default.fileExists(atPath: store), "a wrong pack left a store behind")
        let badKeys = try folder.write("keys", "client not-a-digest\n")
        let keys = try ExecutableTests.run(["serve", "--pack", manifest, "--store", "sqlite:" + store, "--keys", badKeys])
        #expect(keys.status == 2)
        #expect(keys.stderr.contains("keys:1: expected the SHA-256 of the token as 64 hex digits"))
    }

    /// Eight clients of one user, over two server processes sharing the SQLite file.
    @Test func concurrentClientsOfOneUserLoseNothing() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let server = try ServerProcess(pack: manifest, store: store)
        let second = try ServerProcess(pack: manifest, store: store)
        _ = folder
        let acknowledged = RuntimeLock<[String]>([])
        let ports = [server.port, second.port]
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            for index in 0..<8 {
                guard let reply = try? HTTPClient.send(port: ports[client % 2], method: "POST", path: "/v1/users/shared/events/opened",
                                                       body: Array(#"{"value":{"itemID":\#(client * 100 + index)}}"#.utf8)),
                      reply.status == 201, case .string(let id)? = reply.json?["id"] else { continue }
                acknowledged.withLock { $0.append(id) }
            }
        }
        let ids = acknowledged.withLock { $0 }
        #expect(ids.count == 64)
        let snapshot = try server.request("POST", "/v1/users/shared/sync", body: "{}")
        guard case .array(let donations)? = snapshot.json?["donations"] else { Issue.record("no donations: \(snapshot.text)"); return }
        let stored = Self.ids(donations)
        #expect(stored.count == Set(stored).count)
        #expect(Set(stored) == Set(ids))
    }

    @Test func acknowledgedWritesSurviveSIGKILL() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        var acknowledged = Set<String>()
        for round in 0..<2 {
            let server = try ServerProcess(pack: manifest, store: store)
            let port = server.port
            let ids = RuntimeLock<Set<String>>([])
            let writer = Thread {
                for index in 0..<10_000 {
                    guard let reply = try? HTTPClient.send(port: port, method: "POST", path: "/v1/users/crash/events/opened",
                                                           body: Array(#"{"value":{"itemID":\#(index)}}"#.utf8)) else { return }
                    if reply.status == 201, case .string(let id)? = reply.json?["id"] { ids.withLock { _ = $0.insert(id) } }
                }
            }
            writer.start()
            while ids.withLock({ $0.count }) < 10 + round * 7 { usleep(2_000) }
            server.stop(SIGKILL)
            acknowledged.formUnion(ids.withLock { $0 })
        }
        let server = try ServerProcess(pack: manifest, store: store)
        let snapshot = try server.request("POST", "/v1/users/crash/sync", body: "{}")
        guard case .array(let donations)? = snapshot.json?["donations"] else { Issue.record("no donations: \(snapshot.text)"); return }
        let stored = Set(Self.ids(donations))
        #expect(acknowledged.count >= 17)
        #expect(acknowledged.subtracting(stored).isEmpty, "acknowledged but lost: \(acknowledged.subtracting(stored).sorted())")
    }

    @Test func twoServersStartingOnOneNewFile() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let servers = RuntimeLock<[ServerProcess]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let server = try? ServerProcess(pack: manifest, store: store) { servers.withLock { $0.append(server) } }
        }
        let started = servers.withLock { $0 }
        #expect(started.count == 2)
        for (index, server) in started.enumerated() {
            #expect(try server.request("POST", "/v1/users/u\(index)/events/opened", body: #"{"value":{"itemID":1}}"#).status == 201)
        }
        let connection = try SQLiteConnection(path: store)
        let version = try connection.withSession { try $0.scalar("PRAGMA user_version") }
        #expect(version == .integer(2), "the service store's latest schema version, applied once")
        let tables = try connection.withSession { try $0.scalar("SELECT count(*) FROM sqlite_master WHERE name = 'service_users'") }
        #expect(tables == .integer(1))
    }

    @Test func sigtermStopsGracefully() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store)
        #expect(try server.request("POST", "/v1/users/ann/events/opened", body: #"{"value":{"itemID":1}}"#).status == 201)
        server.stop(SIGTERM)
        #expect(server.process.terminationReason == .exit)
        #expect(server.process.terminationStatus == 0)
        #expect(throws: (any Error).self) { try server.request("GET", "/healthz") }
    }

    @Test func anInFlightRequestFinishesAfterSIGTERM() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store)
        let body = Array(#"{"value":{"itemID":5}}"#.utf8)
        let descriptor = try HTTPClient.connect(port: server.port)
        defer { close(descriptor) }
        let head = "POST /v1/users/ann/events/opened HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: \(body.count)\r\n\r\n"
        try HTTPClient.write(descriptor, Array(head.utf8) + body.prefix(5))
        usleep(100_000)
        kill(server.process.processIdentifier, SIGTERM)
        usleep(100_000)
        try HTTPClient.write(descriptor, Array(body.dropFirst(5)))
        let reply = try HTTPClient.read(descriptor)
        #expect(reply.status == 201, "\(reply.text)")
        server.process.waitUntilExit()
        #expect(server.process.terminationStatus == 0)
        let again = try ServerProcess(pack: manifest, store: store)
        let snapshot = try again.request("POST", "/v1/users/ann/sync", body: "{}")
        #expect(snapshot.text.contains(#""itemID":5"#))
    }

    @Test func aNewPackServesEveryUserWithoutARestart() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let server = try ServerProcess(pack: manifest, store: store)
        #expect(try server.request("PUT", "/v1/users/ann/parameters/isSignedIn", body: #"{"value":true}"#).status == 200)
        let next = try folder.write("next/app.yaml", ServeFixture.manifest.replacingOccurrences(of: "title: Welcome", with: "title: Welcome back"))
        let packPath = folder.path + "/next.tippack"
        #expect(try ExecutableTests.run(["compile", (next as NSString).deletingLastPathComponent, "-o", packPath]).status == 0)
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: packPath)))
        let before = try server.request("GET", "/v1/pack").headers["etag"]
        // A damaged pack changes nothing.
        var damaged = bytes
        damaged[damaged.count / 2] ^= 0xFF
        #expect(try HTTPClient.send(port: server.port, method: "PUT", path: "/v1/pack", body: damaged).status == 422)
        #expect(try server.request("GET", "/v1/pack").headers["etag"] == before)
        #expect(try HTTPClient.send(port: server.port, method: "PUT", path: "/v1/pack", body: bytes).status == 200)
        #expect(try server.request("GET", "/v1/pack").headers["etag"] != before)
        #expect(try server.request("GET", "/v1/users/zoe/tips?tip=welcome").text.contains(#""title":"Welcome back""#))
        // The user's records were kept: ann is still signed in.
        let ann = try server.request("POST", "/v1/users/ann/sync", body: "{}")
        #expect(ann.json?["parameters"]?["isSignedIn"] == .bool(true))
    }

    @Test func randomRequestsNeverCrashTheServer() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: store)
        var generator = SeededGenerator(seed: 17)
        let methods = ["GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"]
        let segments = ["v1", "users", "ann", "tips", "favorite", "welcome", "displays", "invalidate", "reset", "events", "opened",
                        "parameters", "isSignedIn", "sync", "pack", "healthz", "metrics", "%2F", "%zz", "%00", "..", "", "é", "x"]
        let bodies = ["", "{}", "[]", "null", #"{"value":true}"#, #"{"value":{"itemID":1}}"#, #"{"reason":"tipClosed"}"#,
                      #"{"milliseconds":-1}"#, #"{"donations":[{"id":"x"}]}"#, "{\"value\":\"\u{0}\"}", "\u{FF}\u{FE}", #"{"a":"#,
                      String(repeating: "[", count: 100), #"{"value":1e999}"#, #"{"records":{"tips":[{"id":"r","tip":"t","kind":"display","stampMilliseconds":1,"device":"d","count":-1,"milliseconds":0}]}}"#]
        let headerSets: [[String: String]] = [
            [:], ["Authorization": "Bearer x", "If-None-Match": "*"], ["Authorization": "Basic dXNlcg=="],
            ["If-None-Match": "\"nope\", W/\"x\""], ["Content-Type": "text/plain; charset=latin1"],
            ["X-Anything": String(repeating: "é", count: 500)], ["Authorization": "Bearer"], ["Accept": "*/*", "Expect": "100-continue"],
        ]
        for _ in 0..<300 {
            let method = methods.randomElement(using: &generator)!
            let count = Int.random(in: 1...6, using: &generator)
            var path = "/" + (0..<count).map { _ in segments.randomElement(using: &generator)! }.joined(separator: "/")
            if Bool.random(using: &generator) { path += "?tip=" + segments.randomElement(using: &generator)! }
            let body = bodies.randomElement(using: &generator)!
            let headers = headerSets.randomElement(using: &generator)!
            let reply = try server.request(method, path, body: body, headers: headers)
            #expect(reply.status < 500, "\(method) \(path) \(body): \(reply.status) \(reply.text)")
            if method != "HEAD", reply.status != 304, !path.hasPrefix("/metrics"), !(path.hasPrefix("/v1/pack") && reply.status == 200) {
                #expect(reply.json != nil, "\(method) \(path): not JSON: \(reply.text)")
                if reply.status >= 400 { #expect(reply.json?["error"]?["code"] != nil) }
            }
        }
        #expect(try server.request("GET", "/healthz").status == 200)
    }

    static func ids(_ donations: [JSON]) -> [String] {
        donations.compactMap { donation in
            guard case .string(let id)? = donation["id"] else { return nil }
            return id
        }
    }
}
