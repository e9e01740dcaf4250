import Foundation
import Testing
import TipRuntime
import TipService
import TipcJSON

/// `POST /v1/users/{user}/tips/{tip}/actions/{action}` on a real `tipc serve`, on both service
/// stores: a tap is a record; a retry with its id is the same tap; unknown tips and actions
/// are 404s with a did-you-mean; concurrent taps are all kept.
@Suite("tipc serve: action taps")
struct ServeActionTests {
    typealias Store = ServeUserRoutesTests.Store

    static let manifest = """
        tipkit: 1
        tips:
          favorite:
            title: Favorite It
            actions: [ { id: favorite, title: Favorite }, { id: later, title: Later } ]
          plain:
            title: No actions
          newTrail:
            key: { name: trailID, type: int }
            title: A new trail
            actions: [ { id: open, title: Open } ]
        """

    static func server(_ kind: Store, _ folder: TemporaryFolder, extra: [String] = []) throws -> ServerProcess {
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let store = kind == .sqlite ? folder.path + "/serve.sqlite" : try ServePostgresTests.freshDatabase()
        return try ServerProcess(pack: (manifest as NSString).deletingLastPathComponent, store: store, extra: extra)
    }

    /// The user's action taps as the export lists them: "tip key action date" each, sorted.
    static func taps(_ server: ServerProcess, _ user: String) throws -> [String: String] {
        let export = try server.request("GET", "/v1/users/\(user)/export")
        guard export.status == 200, case .array(let records)? = export.json?["records"]?["tips"] else {
            throw ServeTestError("export: \(export.status) \(export.text)")
        }
        var taps: [String: String] = [:]
        for record in records where record["kind"] == .string("action") {
            guard case .string(let id)? = record["id"], case .string(let tip)? = record["tip"], case .string(let action)? = record["action"],
                  case .integer(let date)? = record["dateMilliseconds"] else { continue }
            var key = ""
            if case .integer(let number)? = record["key"] { key = "[\(number)]" }
            taps[id] = "\(tip)\(key) \(action) \(ISO8601.string(fromMilliseconds: Int(date)))"
        }
        return taps
    }

    @Test(arguments: Store.allCases)
    func aTapIsRecordedAndARetryIsTheSameTap(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let server = try Self.server(kind, folder)
        let first = try server.request("POST", "/v1/users/ann/tips/favorite/actions/favorite")
        #expect(first.status == 201, "\(first.text)")
        guard case .string(let firstID)? = first.json?["id"], case .string(let firstDate)? = first.json?["date"] else {
            throw ServeTestError("no id and date: \(first.text)")
        }
        #expect(first.json?["tip"] == .string("favorite") && first.json?["action"] == .string("favorite"))
        // A client's id and date: sent again (a retry), the same tap.
        let body = #"{"id":"tap-1","date":"2026-03-01T09:00:00Z"}"#
        let tapped = try server.request("POST", "/v1/users/ann/tips/newTrail%5B42%5D/actions/open", body: body)
        #expect(tapped.status == 201, "\(tapped.text)")
        #expect(tapped.text == #"{"id":"tap-1","tip":"newTrail[42]","action":"open","date":"2026-03-01T09:00:00Z"}"# + "\n")
        let retried = try server.request("POST", "/v1/users/ann/tips/newTrail%5B42%5D/actions/open", body: body)
        #expect(retried.status == 200 && retried.text == tapped.text, "\(retried.text)")
        // Its id alone is enough to recognise it.
        #expect(try server.request("POST", "/v1/users/ann/tips/newTrail%5B42%5D/actions/open", body: #"{"id":"tap-1"}"#).status == 200)
        #expect(try Self.taps(server, "ann") == [firstID: "favorite favorite \(firstDate)", "tap-1": "newTrail[42] open 2026-03-01T09:00:00Z"])
        // A tap changes no status.
        #expect(try ServeUserRoutesTests.tips(server, "ann")["favorite"]?["status"] == .string("available"))
    }

    @Test(arguments: Store.allCases)
    func unknownTipsActionsAndBadBodiesAreRefusedAndStoreNothing(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let server = try Self.server(kind, folder)
        func post(_ path: String, _ body: String? = nil) throws -> HTTPReply { try server.request("POST", "/v1/users/ann/tips/" + path, body: body) }
        ServeUserRoutesTests.expectError(try post("favorit/actions/favorite"), 404, "unknown-tip", "did you mean 'favorite'?")
        ServeUserRoutesTests.expectError(try post("favorite/actions/favourite"), 404, "unknown-action",
                                         "tip 'favorite' has no action 'favourite'; did you mean 'favorite'?")
        ServeUserRoutesTests.expectError(try post("favorite/actions/share"), 404, "unknown-action", "(its actions: favorite, later)")
        ServeUserRoutesTests.expectError(try post("plain/actions/ok"), 404, "unknown-action", "(it declares no actions)")
        ServeUserRoutesTests.expectError(try post("newTrail/actions/open"), 400, "missing-key")
        ServeUserRoutesTests.expectError(try post("favorite/actions/favorite", #"{"id":""}"#), 400, "wrong-type", "'id' must be")
        ServeUserRoutesTests.expectError(try post("favorite/actions/favorite", #"{"id":"\#(String(repeating: "x", count: 129))"}"#), 400, "wrong-type")
        ServeUserRoutesTests.expectError(try post("favorite/actions/favorite", #"{"idd":"x"}"#), 400, "unknown-member", "did you mean 'id'?")
        ServeUserRoutesTests.expectError(try post("favorite/actions/favorite", #"{"date":"yesterday"}"#), 400, "wrong-type")
        let inAnHour = ServeUserRoutesTests.iso(Date().addingTimeInterval(3_600))
        ServeUserRoutesTests.expectError(try post("favorite/actions/favorite", #"{"date":"\#(inAnHour)"}"#), 422, "date-in-future",
                                         "at most 5m ahead is accepted")
        ServeUserRoutesTests.expectError(try server.request("GET", "/v1/users/ann/tips/favorite/actions/favorite"), 405, "method-not-allowed")
        #expect(try Self.taps(server, "ann").isEmpty)
        // The same id under another action of the tip: a conflict, and the first tap stays.
        #expect(try post("favorite/actions/favorite", #"{"id":"t"}"#).status == 201)
        ServeUserRoutesTests.expectError(try post("favorite/actions/later", #"{"id":"t"}"#), 409, "collision")
        #expect(try Self.taps(server, "ann").mapValues { $0.split(separator: " ")[1] } == ["t": "favorite"])
    }

    @Test func keysGuardTheRoute() throws {
        let folder = try TemporaryFolder()
        let keys = try folder.write("keys", "client \(SHA256.hex(Array("client-token".utf8))) web\n")
        let server = try Self.server(.sqlite, folder, extra: ["--keys", keys])
        #expect(try server.request("POST", "/v1/users/ann/tips/favorite/actions/favorite").status == 401)
        #expect(try server.request("POST", "/v1/users/ann/tips/favorite/actions/favorite", headers: ["Authorization": "Bearer client-token"]).status == 201)
    }

    /// Many clients tap at once, on one user and on several, through a real server; every tap
    /// answered 201 is stored once afterwards, and no tap is answered otherwise.
    @Test(arguments: Store.allCases)
    func concurrentTapsAreAllKept(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let server = try Self.server(kind, folder)
        let acknowledged = RuntimeLock<[String: [String]]>([:])
        let refused = RuntimeLock<[String]>([])
        let clients = 8, tapsPerClient = 15, port = server.port
        DispatchQueue.concurrentPerform(iterations: clients) { client in
            for index in 0..<tapsPerClient {
                // Half the clients share one user (their taps contend for its lock), half have their own.
                let user = client % 2 == 0 ? "shared" : "user\(client)"
                let action = index % 2 == 0 ? "favorite" : "later"
                do {
                    let reply = try HTTPClient.send(port: port, method: "POST", path: "/v1/users/\(user)/tips/favorite/actions/\(action)", body: nil)
                    guard reply.status == 201, case .string(let id)? = reply.json?["id"] else {
                        refused.withLock { $0.append("\(reply.status) \(reply.text)") }
                        continue
                    }
                    acknowledged.withLock { $0[user, default: []].append(id) }
                } catch {
                    refused.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(refused.withLock { $0 }.isEmpty)
        let byUser = acknowledged.withLock { $0 }
        #expect(byUser.values.map(\.count).reduce(0, +) == clients * tapsPerClient)
        for (user, ids) in byUser {
            #expect(Set(try Self.taps(server, user).keys) == Set(ids), "every acknowledged tap of \(user) is stored, once")
        }
    }
}
