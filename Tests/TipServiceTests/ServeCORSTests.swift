import Foundation
import Testing
import TipcCompiler
import TipRuntime
import TipcTestSupport
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
}
