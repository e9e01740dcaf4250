import Foundation
import Testing
import TipService

/// A store outlives its pack when a keyed tip's key type changes: records of the other key
/// type are kept and unused (as a parameter's value of another type is), so `export` and sync
/// work under both packs. On the device store and both service stores.
@Suite("A keyed tip's key type changes: the store outlives its pack")
struct KeyTypeChangeTests {
    static func manifest(_ type: String) -> String {
        """
        tipkit: 1
        tips:
          trail:
            key: { name: trailID, type: \(type) }
            title: A trail
        """
    }

    /// Two packs in a folder: `trail` keyed by an Int, then by a String.
    static func packs() throws -> (TemporaryFolder, int: String, string: String) {
        let folder = try TemporaryFolder()
        let int = try folder.write("int/app.yaml", manifest("int"))
        let string = try folder.write("string/app.yaml", manifest("string"))
        return (folder, (int as NSString).deletingLastPathComponent, (string as NSString).deletingLastPathComponent)
    }

    @Test func aDeviceStoreExportsUnderBothPacks() throws {
        let (folder, int, string) = try Self.packs()
        let db = folder.path + "/phone.sqlite"
        func store(_ pack: String, _ arguments: String...) -> Invocation {
            Invocation(["store", "--db", db, "--manifest", pack] + arguments)
        }
        #expect(store(int, "invalidate", "trail[42]").status == 0)
        #expect(store(string, "invalidate", "trail[north]").status == 0)
        for (pack, mine, other) in [(int, "trail[42]", "trail[north]"), (string, "trail[north]", "trail[42]")] {
            let export = store(pack, "export")
            #expect(export.status == 0, "\(export.stderr)")
            let json = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
            let tips = try #require(json["tips"] as? [String: Any])
            #expect(Set(tips.keys) == [mine], "only this pack's instances are listed")
            let records = try #require((json["records"] as? [String: Any])?["tips"] as? [[String: Any]])
            #expect(records.count == 2, "the other key type's record is kept: \(other)")
            let status = store(pack, "status")
            #expect(status.status == 0 && status.stdout.contains(mine) && !status.stdout.contains(other), "\(status.stdout)\(status.stderr)")
        }
    }

    @Test func theSQLiteServiceSyncsUnderBothPacks() throws {
        let (folder, int, string) = try Self.packs()
        try Self.checkService(int: int, string: string, store: folder.path + "/serve.sqlite")
    }

    @Test func thePostgresServiceSyncsUnderBothPacks() throws {
        let (folder, int, string) = try Self.packs()
        _ = folder
        try Self.checkService(int: int, string: string, store: try ServePostgresTests.freshDatabase())
    }

    /// One server per pack in turn on one store: each writes an instance of its key type, and
    /// sync and GET then answer 200 under either pack, keeping both records.
    static func checkService(int: String, string: String, store: String) throws {
        for (pack, instance) in [(int, "42"), (string, "north")] {
            let server = try ServerProcess(pack: pack, store: store)
            let write = try server.request("POST", "/v1/users/u/tips/trail%5B\(instance)%5D/invalidate", body: #"{"reason":"tipClosed"}"#)
            #expect(write.status == 200, "\(write.text)")
            server.stop()
        }
        for (pack, mine) in [(int, "trail[42]"), (string, "trail[north]")] {
            let server = try ServerProcess(pack: pack, store: store)
            let sync = try server.request("POST", "/v1/users/u/sync", body: "{}")
            #expect(sync.status == 200, "\(sync.text)")
            guard case .object(let tips)? = sync.json?["tips"], case .array(let records)? = sync.json?["records"]?["tips"] else {
                Issue.record("no tips: \(sync.text)")
                continue
            }
            #expect(tips.map(\.0) == [mine])
            #expect(records.count == 2, "both key types' records are kept")
            #expect(try server.request("GET", "/v1/users/u/tips").status == 200)
        }
    }
}
