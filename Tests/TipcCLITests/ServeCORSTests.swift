import Foundation
import Testing
import TipcCompiler
import TipRuntime
@testable import TipService

/// `tipc serve --cors-origin`: browsers on the pages named may call the service; no other page
/// gets a CORS header.
@Suite("tipc serve: CORS")
struct ServeCORSTests {
    static let page = "https://app.example.com"

    /// A server in process over a fresh SQLite store; keep the folder while the server is used.
    static func server(origins: [String]?, keys: ServiceKeys? = nil) throws -> (TipServer, TemporaryFolder) {
        let folder = try TemporaryFolder()
        let store = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        return (TipServer(pack: try ServeHandlerTests.pack(), store: store, keys: keys,
                          cors: try origins.map { try CORSPolicy(origins: $0, keysRequired: keys != nil) }), folder)
    }

    static func header(_ name: String, _ response: HTTPResponse) -> String? {
        response.headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    @Test func aPreflightFromAnAllowedPageIsAnsweredForTheMethodItAsks() throws {
        let (server, folder) = try Self.server(origins: [Self.page, "http://localhost:3000"])
        defer { withExtendedLifetime(folder) {} }
        let preflight = server.handle(HTTPRequest(method: "OPTIONS", path: "/v1/users/ann/events/opened",
                                                  headers: ["origin": Self.page, "access-control-request-method": "POST",
                                                            "access-control-request-headers": "content-type, authorization"]))
        #expect(preflight.status == 204)
        #expect(Self.header("Access-Control-Allow-Origin", preflight) == Self.page)
        #expect(Self.header("Access-Control-Allow-Methods", preflight) == "POST")
        #expect(Self.header("Access-Control-Allow-Headers", preflight) == "Authorization, Content-Type, If-None-Match")
        #expect(Self.header("Vary", preflight) == "Origin")
        #expect(preflight.body.isEmpty)

        // A method the route does not take, or a path that is no route: answered as today.
        let wrongMethod = server.handle(HTTPRequest(method: "OPTIONS", path: "/v1/users/ann/events/opened",
                                                    headers: ["origin": Self.page, "access-control-request-method": "DELETE"]))
        #expect(wrongMethod.status == 405)
        let noRoute = server.handle(HTTPRequest(method: "OPTIONS", path: "/v2/nothing",
                                                headers: ["origin": Self.page, "access-control-request-method": "GET"]))
        #expect(noRoute.status == 404)
    }

    @Test func answersToAnAllowedPageSayItMayReadThem() throws {
        let (server, folder) = try Self.server(origins: [Self.page])
        defer { withExtendedLifetime(folder) {} }
        let tips = server.handle(HTTPRequest(method: "GET", path: "/v1/users/ann/tips", headers: ["origin": Self.page]))
        #expect(tips.status == 200)
        #expect(Self.header("Access-Control-Allow-Origin", tips) == Self.page)
        #expect(Self.header("Access-Control-Expose-Headers", tips)?.contains("ETag") == true)
        // Errors too, so that a page can read the service's error code.
        let unknown = server.handle(HTTPRequest(method: "GET", path: "/v1/users/ann/tips?tip=x", query: ["tip": "x"], headers: ["origin": Self.page]))
        #expect(unknown.status == 404)
        #expect(Self.header("Access-Control-Allow-Origin", unknown) == Self.page)
    }

    @Test func otherPagesGetNoCORSHeaderAtAll() throws {
        let (server, folder) = try Self.server(origins: [Self.page])
        defer { withExtendedLifetime(folder) {} }
        for origin in ["https://evil.example.com", "https://app.example.com.evil.com", "http://app.example.com", "null"] {
            let answer = server.handle(HTTPRequest(method: "GET", path: "/v1/users/ann/tips", headers: ["origin": origin]))
            #expect(answer.status == 200)
            #expect(!answer.headers.contains { $0.0.hasPrefix("Access-Control-") }, "\(origin)")
            let preflight = server.handle(HTTPRequest(method: "OPTIONS", path: "/v1/users/ann/tips",
                                                      headers: ["origin": origin, "access-control-request-method": "GET"]))
            #expect(preflight.status == 405, "\(origin)")
            #expect(!preflight.headers.contains { $0.0.hasPrefix("Access-Control-") }, "\(origin)")
        }
        // Without --cors-origin nothing changes: OPTIONS is a 405 and no answer has CORS headers.
        let (plain, plainFolder) = try Self.server(origins: nil)
        defer { withExtendedLifetime(plainFolder) {} }
        let preflight = plain.handle(HTTPRequest(method: "OPTIONS", path: "/v1/users/ann/tips", headers: ["origin": Self.page, "access-control-request-method": "GET"]))
        #expect(preflight.status == 405)
        #expect(!preflight.headers.contains { $0.0.hasPrefix("Access-Control-") })
    }

    @Test func anyPageOnlyWithoutKeys() throws {
        let (wildcard, folder) = try Self.server(origins: ["*"])
        defer { withExtendedLifetime(folder) {} }
        let answer = wildcard.handle(HTTPRequest(method: "GET", path: "/healthz", headers: ["origin": "https://anyone.example"]))
        #expect(Self.header("Access-Control-Allow-Origin", answer) == "*")
        #expect(throws: ListenError.self) { try CORSPolicy(origins: ["*"], keysRequired: true) }
        #expect(throws: Never.self) { try CORSPolicy(origins: [Self.page], keysRequired: true) }
    }

    @Test(arguments: ["app.example.com", "https://app.example.com/", "https://app.example.com/path", "https://user@app.example.com",
                      "https://app.example.com:port", "://app", "https://", "https://app.example.com:123456",
                      "HTTPS://App.example.com", "https://app.example.com:443", "http://localhost:80"])
    func anOriginIsSchemeHostAndPort(_ text: String) {
        #expect(throws: ListenError.self) { try CORSPolicy(origins: [text], keysRequired: false) }
    }

    @Test(arguments: ["https://app.example.com", "http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:8080", "capacitor://localhost"])
    func wellFormedOrigins(_ text: String) {
        #expect(throws: Never.self) { try CORSPolicy(origins: [text], keysRequired: false) }
    }

    /// Through a real server with keys: the browser's preflight carries no key and must not be
    /// refused for it; the request itself still needs one.
    @Test func aRealServerWithKeysAnswersPreflightsWithoutAKey() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        let keys = try folder.write("keys", "client \(SHA256.hex(Array("client-token".utf8))) web\n")
        let server = try ServerProcess(pack: manifest, store: store, extra: ["--keys", keys, "--cors-origin", Self.page, "--cors-origin", "http://localhost:3000"])
        let preflight = try server.request("OPTIONS", "/v1/users/ann/tips", headers: ["Origin": "http://localhost:3000", "Access-Control-Request-Method": "GET",
                                                                                    "Access-Control-Request-Headers": "authorization"])
        #expect(preflight.status == 204)
        #expect(preflight.headers["access-control-allow-origin"] == "http://localhost:3000")
        let keyless = try server.request("GET", "/v1/users/ann/tips", headers: ["Origin": Self.page])
        #expect(keyless.status == 401)
        #expect(keyless.headers["access-control-allow-origin"] == Self.page)
        let keyed = try server.request("GET", "/v1/users/ann/tips", headers: ["Origin": Self.page, "Authorization": "Bearer client-token"])
        #expect(keyed.status == 200)
        #expect(keyed.headers["access-control-allow-origin"] == Self.page)

        // The HTTP layer's own refusals too, so that a page reads why (and its client can retry a 503).
        let manyArguments = "/v1/users/ann/tips?" + (0...64).map { "a\($0)=1" }.joined(separator: "&")
        let tooMany = try server.request("GET", manyArguments, headers: ["Origin": Self.page, "Authorization": "Bearer client-token"])
        #expect(tooMany.status == 414)
        #expect(tooMany.headers["access-control-allow-origin"] == Self.page)
        let tooLarge = try HTTPClient.send(port: server.port, method: "POST", path: "/v1/users/ann/events/opened", body: nil,
                                           rawHead: "POST /v1/users/ann/events/opened HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                               + "Origin: \(Self.page)\r\nAuthorization: Bearer client-token\r\nContent-Length: 10000000\r\n\r\n")
        #expect(tooLarge.status == 413)
        #expect(tooLarge.headers["access-control-allow-origin"] == Self.page)
        let framing = try HTTPClient.send(port: server.port, method: "POST", path: "/v1/users/ann/events/opened", body: nil,
                                          rawHead: "POST /v1/users/ann/events/opened HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
                                              + "Origin: \(Self.page)\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\n{}")
        #expect(framing.status == 400)
        #expect(framing.headers["access-control-allow-origin"] == Self.page)
        // Refusals on the head are counted like every other answer.
        let metrics = try server.request("GET", "/metrics", headers: ["Authorization": "Bearer client-token"]).text
        #expect(metrics.contains(#"tipc_http_requests_total{route="GET /v1/users/{user}/tips",status="401"} 1"#), "\(metrics)")
        // Every answer varies by Origin, an allowed page's or not.
        #expect(try server.request("GET", "/healthz", headers: ["Origin": "https://other.example"]).headers["vary"] == "Origin")

        let refused = try ExecutableTests.run(["serve", "--pack", manifest, "--store", "sqlite:" + store, "--keys", keys, "--cors-origin", "*"])
        #expect(refused.status == 2)
        #expect(refused.stderr.contains("--cors-origin '*' is allowed only without --keys"))
    }
}
