import Foundation
import Testing
import TipcCompiler
import TipRuntime
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
