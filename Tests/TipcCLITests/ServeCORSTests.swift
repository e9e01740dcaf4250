import Foundation
import Testing
import TipRuntime
import TipService

/// `tipc serve --cors-origin` through a real server process (the answers in process are in
/// TipServiceTests).
@Suite("tipc serve: CORS through a real server")
struct ServeCORSProcessTests {
    static let page = "https://app.example.com"

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
