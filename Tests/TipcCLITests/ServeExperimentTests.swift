import Foundation
import Testing
import TipRuntime
import TipService
import TipcJSON

/// Experiments on a real `tipc serve`, on both service stores: the user id is the unit, `GET
/// …/tips` gives each tip's experiment, arm and the arm's texts, stores the assignment once and
/// a hidden arm's one exposure; a display carries the arm; an arm's own action can be tapped.
/// Under salt `favoriteCopy-1` (45/45/10) `user-1` is in `short`, `user-2` in `control` and
/// `user-32` in `holdout` (docs/experiments.md, golden vectors).
@Suite("tipc serve: experiments")
struct ServeExperimentTests {
    typealias Store = ServeUserRoutesTests.Store

    static let manifest = """
        tipkit: 1
        defaultLocale: en
        events:
          backyardViewed: {}
          backyardFavorited: {}
        tips:
          favoriteBackyard:
            title: { en: "Save {backyard} as a favorite", de: "{backyard} als Favorit sichern" }
            message: Favorites appear at the top of the list.
            placeholders: { backyard: string }
            image: heart
            actions: [ { id: favorite, title: Favorite it } ]
            rules:
              - backyardViewed.count >= 1
          plain:
            title: Plain
        experiments:
          favoriteCopy:
            tip: favoriteBackyard
            arms:
              control: { weight: 45 }
              short:
                weight: 45
                title: { en: "Star {backyard}", de: "{backyard} merken" }
                image: star
                actions: [ { id: star, title: Star it } ]
              holdout: { weight: 10, hidden: true }
            goal: backyardFavorited within 7d
            salt: favoriteCopy-1
        """

    static func server(_ kind: Store, _ folder: TemporaryFolder) throws -> ServerProcess {
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let store = kind == .sqlite ? folder.path + "/serve.sqlite" : try ServePostgresTests.freshDatabase()
        return try ServerProcess(pack: (manifest as NSString).deletingLastPathComponent, store: store)
    }

    static func tip(_ server: ServerProcess, _ user: String, _ query: String = "") throws -> JSON {
        let reply = try server.request("GET", "/v1/users/\(user)/tips?tip=favoriteBackyard" + query)
        guard reply.status == 200, case .array(let tips)? = reply.json?["tips"], let tip = tips.first else {
            throw ServeTestError("GET tips: \(reply.status) \(reply.text)")
        }
        return tip
    }

    /// The user's exported records: (assignments, tip records).
    static func records(_ server: ServerProcess, _ user: String) throws -> (assignments: [JSON], tips: [JSON]) {
        let export = try server.request("GET", "/v1/users/\(user)/export")
        guard export.status == 200 else { throw ServeTestError("export: \(export.status) \(export.text)") }
        var assignments: [JSON] = [], tips: [JSON] = []
        if case .array(let list)? = export.json?["records"]?["assignments"] { assignments = list }
        if case .array(let list)? = export.json?["records"]?["tips"] { tips = list }
        return (assignments, tips)
    }

    @Test(arguments: Store.allCases)
    func eachUserGetsTheirArmsTextsAndTheAssignmentIsStoredOnce(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let server = try Self.server(kind, folder)
        for user in ["user-1", "user-2", "user-32"] {
            #expect(try server.request("POST", "/v1/users/\(user)/events/backyardViewed").status == 201)
        }
        let short = try Self.tip(server, "user-1", "&locale=de&value.backyard=Elm")
        #expect(short["experiment"] == .string("favoriteCopy") && short["arm"] == .string("short"), "\(short)")
        #expect(short["title"] == .string("Elm merken") && short["shouldDisplay"] == .bool(true))
        #expect(short["image"] == .object([("symbol", .string("star"))]))
        #expect(short["message"] == .string("Favorites appear at the top of the list."), "what the arm does not override is the tip's")
        #expect(short["actions"] == .array([.object([("id", .string("star")), ("title", .string("Star it"))])]))
        let control = try Self.tip(server, "user-2", "&value.backyard=Elm")
        #expect(control["arm"] == .string("control") && control["title"] == .string("Save Elm as a favorite"), "\(control)")
        // A tip in no experiment says nothing about one.
        let list = try server.request("GET", "/v1/users/user-2/tips")
        guard case .array(let tips)? = list.json?["tips"] else { throw ServeTestError("GET tips: \(list.text)") }
        #expect(tips.first { $0["id"] == .string("plain") }?["experiment"] == nil)
        // Asked again, the stored assignment holds: one record.
        _ = try Self.tip(server, "user-1")
        let stored = try Self.records(server, "user-1").assignments
        #expect(stored.count == 1 && stored.first?["arm"] == .string("short") && stored.first?["salt"] == .string("favoriteCopy-1"), "\(stored)")
        // A display carries the arm; the arm's own button can be tapped, another arm's cannot.
        #expect(try server.request("POST", "/v1/users/user-1/tips/favoriteBackyard/displays").status == 200)
        let displays = try Self.records(server, "user-1").tips.filter { $0["kind"] == .string("display") }
        #expect(displays.map { $0["arm"] } == [.string("short")], "\(displays)")
        #expect(try server.request("POST", "/v1/users/user-1/tips/favoriteBackyard/actions/star").status == 201)
        let refused = try server.request("POST", "/v1/users/user-2/tips/favoriteBackyard/actions/star")
        #expect(refused.status == 404 && refused.text.contains("star"), "\(refused.status) \(refused.text)")
    }

    @Test(arguments: Store.allCases)
    func aHiddenArmIsNeverDisplayedAndItsExposureIsStoredOnce(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let server = try Self.server(kind, folder)
        let pending = try Self.tip(server, "user-32")
        #expect(pending["arm"] == .string("holdout") && pending["shouldDisplay"] == .bool(false))
        #expect(try Self.records(server, "user-32").tips.isEmpty, "pending: it would not have displayed")
        #expect(try server.request("POST", "/v1/users/user-32/events/backyardViewed").status == 201)
        for _ in 0..<3 {
            let tip = try Self.tip(server, "user-32")
            #expect(tip["status"] == .string("available") && tip["shouldDisplay"] == .bool(false), "\(tip)")
            #expect(tip["reason"] == .string("hidden arm 'holdout' of experiment 'favoriteCopy': never displayed"), "\(tip)")
        }
        let (assignments, tips) = try Self.records(server, "user-32")
        #expect(assignments.count == 1)
        let exposures = tips.filter { $0["kind"] == .string("exposure") }
        #expect(exposures.count == 1 && exposures.first?["experiment"] == .string("favoriteCopy") && exposures.first?["arm"] == .string("holdout"),
                "\(tips)")
    }

    /// Concurrent first reads of a hidden-arm user each find no exposure in their snapshot;
    /// the user's transaction serializes the writes, so one assignment and one exposure remain.
    @Test(arguments: Store.allCases)
    func concurrentFirstReadsStoreOneAssignmentAndOneExposure(_ kind: Store) throws {
        let folder = try TemporaryFolder()
        let server = try Self.server(kind, folder)
        #expect(try server.request("POST", "/v1/users/user-32/events/backyardViewed").status == 201)
        let failures = RuntimeLock<[String]>([])
        let port = server.port
        DispatchQueue.concurrentPerform(iterations: 8) { _ in
            for _ in 0..<3 {
                do {
                    let reply = try HTTPClient.send(port: port, method: "GET", path: "/v1/users/user-32/tips", body: nil)
                    if reply.status != 200 { failures.withLock { $0.append("\(reply.status) \(reply.text)") } }
                } catch {
                    failures.withLock { $0.append("\(error)") }
                }
            }
        }
        #expect(failures.withLock { $0 }.isEmpty)
        let (assignments, tips) = try Self.records(server, "user-32")
        #expect(assignments.count == 1)
        #expect(tips.filter { $0["kind"] == .string("exposure") }.count == 1, "\(tips)")
    }
}
