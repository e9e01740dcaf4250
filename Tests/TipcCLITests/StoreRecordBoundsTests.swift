import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipServicePostgres
import TipcJSON

/// Stamps never saturate into a lost write: a record stamped beyond the last instant of year
/// 9999 is refused where it would enter a store (merge, sync), and a write that could not be
/// stamped later than every stored write is refused before it is acknowledged. On the device
/// store (`tipc store`) and on both service stores through a real `tipc serve`.
@Suite("Stamps stay within bounds: no acknowledged write is lost")
struct StoreRecordBoundsTests {
    static let manifest = """
        tipkit: 1
        parameters:
          level: { type: int, default: 0 }
        tips:
          welcome:
            title: Welcome
        """

    /// A parameter record stamped at `Int64.max` by a device whose id sorts after every
    /// service's and device's: before stamps were bounded, no later write could beat it.
    static let saturated = ParameterRecord(value: .int(666), stamp: Stamp(milliseconds: .max, device: "zzzz"))

    static let saturatedSync = """
        {"records":{"parameters":{"level":{"value":"i:666","stampMilliseconds":9223372036854775807,"device":"zzzz"}}}}
        """

    // MARK: - Device store

    @Test func aDeviceStoreRefusesAStampBeyondTheBoundAndNeverLosesAWrite() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let db = folder.path + "/phone.sqlite", other = folder.path + "/other.sqlite"
        func store(_ db: String, _ arguments: String...) -> Invocation {
            Invocation(["store", "--db", db, "--manifest", manifest] + arguments)
        }
        #expect(store(db, "set", "level", "1").status == 0)

        // A store written by an older tipc, holding a stamp at Int64.max, given to merge: refused
        // before anything is merged.
        try SQLitePersistence(path: other, deviceID: "zzzz").write(parameters: ["level": Self.saturated])
        let before = try Data(contentsOf: URL(fileURLWithPath: db))
        let merge = store(db, "merge", other)
        #expect(merge.status == 1)
        #expect(merge.stderr.contains("parameter 'level' has the stamp 9223372036854775807 ms, outside 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z"), "\(merge.stderr)")
        #expect(merge.stderr.split(separator: "\n").count == 1)
        #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == before, "nothing was merged")

        // That store itself: a write there cannot be the latest, so it is refused, never
        // acknowledged and lost.
        let set = store(other, "set", "level", "7")
        #expect(set.status == 1)
        #expect(set.stderr.contains("the store holds a write stamped 9223372036854775807 ms"), "\(set.stderr)")
        #expect(set.stdout.isEmpty, "nothing acknowledged")
        #expect(try SQLitePersistence(path: other).load().parameters["level"]?.value == .int(666))
        #expect(store(db, "set", "level", "7").status == 0)
        #expect(try SQLitePersistence(path: db).load().parameters["level"]?.value == .int(7))
    }

    /// The runtime's own bounds: the last allowed stamp is handed out once, and the write after
    /// it is refused with the value unchanged; a clock outside the bounds stamps nothing.
    @Test func theLastStampIsHandedOutOnceThenWritesAreRefused() throws {
        let folder = try TemporaryFolder()
        let pack = try Self.pack(in: folder)
        let store = try SQLitePersistence(path: folder.path + "/s.sqlite", deviceID: "phone")
        try store.write(parameters: ["level": ParameterRecord(value: .int(1), stamp: Stamp(milliseconds: RecordBounds.latestMilliseconds - 1, device: "zzzz"))])
        let center = try TipCenter(pack: pack, persistence: store, clock: ManualClock(now: 1_772_000_000_000))
        try center.setParameter("level", to: .int(2))
        #expect(try store.load().parameters["level"] == ParameterRecord(value: .int(2), stamp: Stamp(milliseconds: RecordBounds.latestMilliseconds, device: "phone")))
        #expect(throws: TipError.self) { try center.setParameter("level", to: .int(3)) }
        #expect(try center.parameterValue("level") == .int(2))
        #expect(try store.load().parameters["level"]?.value == .int(2))

        let future = try TipCenter(pack: pack, persistence: MemoryPersistence(), clock: ManualClock(now: RecordBounds.latestMilliseconds + 1))
        #expect(throws: TipError.self) { try future.setParameter("level", to: .int(3)) }
        #expect(throws: TipError.self) { try future.invalidate("welcome", reason: .tipClosed) }
        #expect(try future.status(of: "welcome") == .available, "the refused invalidation changed nothing")
    }

    static func pack(in folder: TemporaryFolder) throws -> VerifiedRulePack {
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        let packPath = folder.path + "/app.tippack"
        let compiled = Invocation(["compile", manifest, "-o", packPath])
        #expect(compiled.status == 0, "\(compiled.stderr)")
        return try RulePackLoader.decode(Array(try Data(contentsOf: URL(fileURLWithPath: packPath))))
    }

    // MARK: - Service stores, through tipc serve

    @Test func theSQLiteServiceRefusesASaturatedStampAndNeverLosesAWrite() throws {
        let (folder, manifest, path) = try Self.serviceFolder()
        _ = folder
        try Self.checkService(manifest: manifest, store: path, seeded: try SQLiteServiceStore(path: path))
    }

    @Test func thePostgresServiceRefusesASaturatedStampAndNeverLosesAWrite() throws {
        let (folder, manifest, _) = try Self.serviceFolder()
        _ = folder
        let url = try ServePostgresTests.freshDatabase()
        try Self.checkService(manifest: manifest, store: url, seeded: try PostgresServiceStore(url: url))
    }

    static func serviceFolder() throws -> (TemporaryFolder, manifest: String, store: String) {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app/app.yaml", Self.manifest)
        return (folder, (manifest as NSString).deletingLastPathComponent, folder.path + "/serve.sqlite")
    }

    /// User `synced` sends the saturated stamp by sync (refused, 400); user `old` has it in the
    /// store already (written by an older tipc): a write is refused (409), never answered 200
    /// and lost.
    static func checkService(manifest: String, store: String, seeded: any ServiceStore) throws {
        try seeded.transaction(user: "old") { persistence in try persistence.write(parameters: ["level": Self.saturated]) }
        let server = try ServerProcess(pack: manifest, store: store)
        let sync = try server.request("POST", "/v1/users/synced/sync", body: Self.saturatedSync)
        #expect(sync.status == 400, "\(sync.text)")
        #expect(sync.json?["error"]?["code"] == .string("bad-snapshot"))
        #expect(sync.text.contains("parameter 'level' has the stamp 9223372036854775807 ms"), "\(sync.text)")
        #expect(try server.request("PUT", "/v1/users/synced/parameters/level", body: #"{"value":7}"#).status == 200)
        #expect(try Self.level(server, "synced") == .integer(7))

        let refused = try server.request("PUT", "/v1/users/old/parameters/level", body: #"{"value":7}"#)
        #expect(refused.status == 409, "\(refused.text)")
        #expect(refused.json?["error"]?["code"] == .string("stamp-out-of-range"))
        #expect(try Self.level(server, "old") == .integer(666), "the refused write changed nothing")
    }

    static func level(_ server: ServerProcess, _ user: String) throws -> JSON? {
        try server.request("POST", "/v1/users/\(user)/sync", body: "{}").json?["parameters"]?["level"]
    }

    // MARK: - Duplicate ids in one snapshot

    @Test func aSnapshotWithOneIDForTwoDifferentRecordsIsA400AndChangesNothing() throws {
        let (folder, manifest, path) = try Self.serviceFolder()
        _ = folder
        let server = try ServerProcess(pack: manifest, store: path)
        let id = "0123456789abcdef0123456789abcdef"
        func donation(_ date: String) -> String { #"{"id":"\#(id)","event":"opened","date":"\#(date)"}"# }
        let conflicting = try server.request("POST", "/v1/users/u/sync", body: #"{"donations":[\#(donation("2026-03-01T09:00:00Z")),\#(donation("2026-03-02T09:00:00Z"))]}"#)
        #expect(conflicting.status == 400, "\(conflicting.text)")
        #expect(conflicting.text.contains("donation 1 has the id '\(id)' of an earlier donation with other content"), "\(conflicting.text)")
        func record(_ reason: String) -> String {
            #"{"id":"\#(id)","tip":"welcome","kind":"invalidation","reason":"\#(reason)","stampMilliseconds":1,"device":"d"}"#
        }
        let records = try server.request("POST", "/v1/users/u/sync", body: #"{"records":{"tips":[\#(record("tipClosed")),\#(record("actionPerformed"))]}}"#)
        #expect(records.status == 400, "\(records.text)")
        #expect(records.text.contains("tip record 1 has the id '\(id)'"), "\(records.text)")
        let empty = try server.request("POST", "/v1/users/u/sync", body: "{}")
        #expect(empty.json?["donations"] == .array([]), "nothing was stored")
        // The same record twice is one record.
        let same = try server.request("POST", "/v1/users/u/sync", body: #"{"donations":[\#(donation("2026-03-01T09:00:00Z")),\#(donation("2026-03-01T09:00:00Z"))]}"#)
        #expect(same.status == 200, "\(same.text)")
        guard case .array(let stored)? = same.json?["donations"] else { Issue.record("no donations: \(same.text)"); return }
        #expect(stored.count == 1)
    }
}
