import Foundation
import Testing
import TipRuntime
import TipService
import TipServicePostgres

/// `tipc serve` processes sharing one PostgreSQL database: every write answered
/// 2xx is stored once, whichever server answered it and whichever server dies. Needs the
/// cluster scripts/test.sh starts (TIPC_TEST_POSTGRES_URL); fails without it.
@Suite("tipc serve on PostgreSQL")
struct ServePostgresTests {
    /// A new, empty database on the test cluster; its URL.
    static func freshDatabase() throws -> String {
        guard let base = ProcessInfo.processInfo.environment["TIPC_TEST_POSTGRES_URL"], !base.isEmpty else {
            throw ServeTestError("TIPC_TEST_POSTGRES_URL is not set: run the tests with scripts/test.sh, which starts a throw-away PostgreSQL cluster for them")
        }
        let name = "tipc_serve_" + RecordID.random().prefix(12)
        try PostgresConnection(url: base).execute("CREATE DATABASE \(name)")
        let query = base.firstIndex(of: "?") ?? base.endIndex
        guard let slash = base[..<query].lastIndex(of: "/") else { throw ServeTestError("cannot name a database in '\(base)'") }
        return base[...slash] + name + base[query...]
    }

    /// Two servers started at once on one new database.
    static func twoServers(_ manifest: String, _ url: String) throws -> [ServerProcess] {
        let servers = RuntimeLock<[ServerProcess]>([])
        DispatchQueue.concurrentPerform(iterations: 2) { _ in
            if let server = try? ServerProcess(pack: manifest, store: url) { servers.withLock { $0.append(server) } }
        }
        let started = servers.withLock { $0 }
        guard started.count == 2 else { throw ServeTestError("\(started.count) of 2 servers started") }
        return started
    }

    /// Donates one `opened` for `user` through the server on `port`; the id when answered 201.
    static func donate(port: Int, user: String, item: Int) -> String? {
        guard let reply = try? HTTPClient.send(port: port, method: "POST", path: "/v1/users/\(user)/events/opened",
                                               body: Array(#"{"value":{"itemID":\#(item)}}"#.utf8)),
              reply.status == 201, case .string(let id)? = reply.json?["id"] else { return nil }
        return id
    }

    static func storedIDs(_ server: ServerProcess, user: String) throws -> [String] {
        let snapshot = try server.request("POST", "/v1/users/\(user)/sync", body: "{}")
        guard case .array(let donations)? = snapshot.json?["donations"] else { throw ServeTestError("no donations: \(snapshot.text)") }
        return donations.compactMap { donation in
            guard case .string(let id)? = donation["id"] else { return nil }
            return id
        }
    }

    @Test func twoServersWithConcurrentClientsOfOneUserLoseNothing() throws {
        let (folder, manifest, _) = try ServeFixture.folder()
        _ = folder
        let servers = try Self.twoServers(manifest, try Self.freshDatabase())
        let ports = servers.map(\.port)
        let acknowledged = RuntimeLock<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 8) { client in
            for index in 0..<10 {
                // Clients alternate between the servers.
                if let id = Self.donate(port: ports[(client + index) % 2], user: "shared", item: client * 100 + index) {
                    acknowledged.withLock { $0.append(id) }
                }
            }
        }
        let ids = acknowledged.withLock { $0 }
        #expect(ids.count == 80, "every request answered 201")
        for server in servers {
            let stored = try Self.storedIDs(server, user: "shared")
            #expect(stored.count == Set(stored).count)
            #expect(Set(stored) == Set(ids), "each server sees every acknowledged donation, once")
        }
    }

    /// GETs read a snapshot without the user's lock: on either server they see every write
    /// acknowledged before them, while other clients write to the same user.
    @Test func getsOnEitherServerSeeEveryAcknowledgedWrite() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", ServeSnapshotTests.counterManifest)
        let servers = try Self.twoServers((manifest as NSString).deletingLastPathComponent, try Self.freshDatabase())
        try ServeSnapshotTests.readsSeeAcknowledgedWrites(writer: servers[0], reader: servers[1], user: "shared")
    }

    @Test func acknowledgedWritesSurviveSIGKILLOfAServer() throws {
        let (folder, manifest, _) = try ServeFixture.folder()
        _ = folder
        let url = try Self.freshDatabase()
        let survivor = try ServerProcess(pack: manifest, store: url)
        var acknowledged = Set<String>()
        for round in 0..<2 {
            let victim = try ServerProcess(pack: manifest, store: url)
            let ports = [victim.port, survivor.port]
            let ids = RuntimeLock<Set<String>>([])
            let writers = DispatchGroup()
            for writer in 0..<4 {
                DispatchQueue.global().async(group: writers) {
                    // Writers on both servers; those on the victim stop when it dies.
                    for index in 0..<400 {
                        let port = ports[writer % 2]
                        guard let id = Self.donate(port: port, user: "crash", item: index) else {
                            if port == ports[0] { return } else { continue }
                        }
                        ids.withLock { _ = $0.insert(id) }
                        if port == ports[1], index >= 40 { return }
                    }
                }
            }
            while ids.withLock({ $0.count }) < 20 + round * 10 { usleep(2_000) }
            victim.stop(SIGKILL)
            writers.wait()
            acknowledged.formUnion(ids.withLock { $0 })
        }
        // The survivor answers for the user (the killed server's open transaction rolled back
        // and released the user's lock) and has everything acknowledged.
        #expect(Self.donate(port: survivor.port, user: "crash", item: 0) != nil)
        let stored = try Self.storedIDs(survivor, user: "crash")
        #expect(stored.count == Set(stored).count)
        #expect(acknowledged.count >= 30)
        #expect(acknowledged.subtracting(stored).isEmpty, "acknowledged but lost: \(acknowledged.subtracting(stored).sorted())")
    }
}
