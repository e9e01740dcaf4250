import Foundation
import Testing
@testable import TipService
import TipRuntime

/// `GET /v1/openapi.json` answers the API's description (docs/openapi.yaml, written into the
/// service by scripts/openapi.sh; scripts/test.sh checks the two are equal and every answer
/// the suite receives against it).
@Suite("tipc serve: OpenAPI")
struct ServeOpenAPITests {
    @Test func theServiceAnswersItsDescriptionWithEveryRoute() throws {
        let (folder, manifest, store) = try ServeFixture.folder()
        defer { withExtendedLifetime(folder) {} }
        let server = try ServerProcess(pack: manifest, store: store)
        let answer = try server.request("GET", "/v1/openapi.json")
        #expect(answer.status == 200)
        #expect(answer.headers["content-type"] == "application/json")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        // The description and the JavaScript client carry tipc's one version.
        #expect((document["info"] as? [String: Any])?["version"] as? String == TipcVersion.current)
        let package = try JSONSerialization.jsonObject(with: Data(contentsOf: InstallDocTests.root.appendingPathComponent("clients/js/package.json"))) as? [String: Any]
        #expect(package?["version"] as? String == TipcVersion.current)
        let paths = Set((document["paths"] as? [String: Any])?.keys.map { $0 } ?? [])
        // Every route the service matches has its path in the description.
        let requests: [(String, String)] = [
            ("GET", "/healthz"), ("GET", "/metrics"), ("GET", "/v1/pack"), ("PUT", "/v1/pack"), ("GET", "/v1/openapi.json"),
            ("GET", "/v1/users/u/tips"), ("POST", "/v1/users/u/events/e"), ("PUT", "/v1/users/u/parameters/p"),
            ("POST", "/v1/users/u/tips/t/displays"), ("POST", "/v1/users/u/tips/t/invalidate"), ("POST", "/v1/users/u/tips/t/reset"),
            ("POST", "/v1/users/u/sync"), ("POST", "/v1/users/u/events"), ("DELETE", "/v1/users/u"), ("GET", "/v1/users/u/export"),
            ("GET", "/v1/users/u/groups/g"), ("POST", "/v1/users/u/tips/t/actions/a"), ("GET", "/v1/report"),
        ]
        for (method, path) in requests {
            let route = try ServiceRoute(method: method, path: path)
            let documented = String(route.pattern.split(separator: " ", maxSplits: 1)[1])
            #expect(paths.contains(documented), "\(route.pattern) is not in docs/openapi.yaml")
        }
        #expect(paths.count == Set(requests.map { try! ServiceRoute(method: $0.0, path: $0.1).pattern.split(separator: " ")[1] }).count)
    }
}
