import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
@testable import TipServicePostgres
import TipcTestSupport

/// Random replicas of one user's store, as in the device store's merge-law tests: every record
/// comes from one universe (an id always names the same record), each replica holds a random
/// subset, and parameters collide on stamps as copies of one device do.
enum RandomReplicas {
    static let devices = ["a", "b", "c", "a\u{0}", "é"]

    static func stamp(_ g: inout SeededGenerator) -> Stamp {
        Stamp(milliseconds: Int64.random(in: 0..<20, using: &g), device: devices.randomElement(using: &g)!)
    }

    static func universe(_ g: inout SeededGenerator) -> (donations: [DonationRecord], tipRecords: [TipEventRecord]) {
        let donations = (0..<12).map { index in
            DonationRecord(id: "d\(index)", event: "e\(index % 3)", date: Int64.random(in: 0..<8, using: &g) * 1000,
                           value: index % 2 == 0 ? ["n": .int(Int64(index)), "s": .string("x\u{0}\(index)")] : [:])
        }
        let tipRecords = (0..<12).map { index in
            let kind: TipEventRecord.Kind
            switch Int.random(in: 0..<3, using: &g) {
            case 0: kind = .display(count: Int64.random(in: 0...1, using: &g), milliseconds: Int64.random(in: 0..<5, using: &g) * 1000)
            case 1: kind = .invalidation(InvalidationReason.allCases.randomElement(using: &g)!)
            default: kind = .reset
            }
            // Keys of both types and dates apart from stamps (format 2) round-trip through every store.
            let key: TipKey? = [nil, .int(Int64.random(in: -2...2, using: &g)), .string("k\u{0}é")].randomElement(using: &g)!
            let recordStamp = stamp(&g)
            let date = Bool.random(using: &g) ? recordStamp.milliseconds : recordStamp.milliseconds - 1
            return TipEventRecord(id: "r\(index)", tip: ["t1", "t2"].randomElement(using: &g)!, key: key, stamp: recordStamp, kind: kind, date: date)
        }
        return (donations, tipRecords)
    }

    static func snapshot(_ universe: (donations: [DonationRecord], tipRecords: [TipEventRecord]), _ g: inout SeededGenerator) -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for donation in universe.donations where Bool.random(using: &g) { snapshot.donations[donation.id] = donation }
        for record in universe.tipRecords where Bool.random(using: &g) { snapshot.tipRecords[record.id] = record }
        let values: [RuntimeValue] = [.int(0), .int(1), .string(""), .string("\u{0}"), .string("é"), .double(-0.0)]
        for name in ["p", "q"] where Bool.random(using: &g) {
            snapshot.parameters[name] = ParameterRecord(value: values.randomElement(using: &g)!, stamp: stamp(&g))
        }
        if Bool.random(using: &g) { snapshot.latestFirstDisplay = Int64.random(in: 0..<10, using: &g) }
        for event in ["e0", "e1"] where Int.random(in: 0..<3, using: &g) == 0 {
            snapshot.donationDeletions[event] = Int64.random(in: 0..<8, using: &g) * 1000
        }
        return snapshot
    }
}

/// Runs `body` with a new SQLite device store in a temporary folder, removed afterwards.
func withTemporarySQLiteStore(_ body: (SQLitePersistence) throws -> Void) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-pg-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try body(SQLitePersistence(path: folder.appendingPathComponent("store.sqlite").path, deviceID: "device"))
}

extension PostgresTests {
    /// The service store merges exactly as the device's SQLite store and as `StoreSnapshot`'s
    /// merge: the same sequences of merges give the same state, in any order.
    @Suite("Merge, as on the device")
    struct Merges {
        @Test func mergesGiveTheSQLiteStoresResultsInAnyOrder() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            var g = SeededGenerator(seed: 20_261_201)
            for _ in 0..<30 {
                let universe = RandomReplicas.universe(&g)
                let replicas = (0..<3).map { _ in RandomReplicas.snapshot(universe, &g) }
                try withTemporarySQLiteStore { sqlite in
                    let forward = freshUser(), backward = freshUser()
                    for replica in replicas {
                        try sqlite.merge(replica)
                        try store.transaction(user: forward) { try $0.merge(replica) }
                    }
                    for replica in replicas.reversed() {
                        try store.transaction(user: backward) { try $0.merge(replica) }
                    }
                    let expected = try replicas.dropFirst().reduce(replicas[0]) { try $0.merged(with: $1) }
                    let device = try sqlite.load()
                    #expect(device == expected)
                    #expect(try store.load(user: forward) == device)
                    #expect(try store.load(user: backward) == device)
                    // Idempotent: merging a replica again changes nothing.
                    try store.transaction(user: forward) { try $0.merge(replicas[1]) }
                    #expect(try store.load(user: forward) == device)
                }
            }
        }

        /// Two different records under one id: an error, and nothing of that merge is kept, as on
        /// the device.
        @Test func aCollisionMergesNothing() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            try withTemporarySQLiteStore { sqlite in
                let user = freshUser()
                let stamp = Stamp(milliseconds: 5, device: "a")
                let mine = StoreSnapshot(donations: ["x": DonationRecord(id: "x", event: "e", date: 1)],
                                         tipRecords: ["r": TipEventRecord(id: "r", tip: "t", stamp: stamp, kind: .reset)])
                try sqlite.merge(mine)
                try store.transaction(user: user) { try $0.merge(mine) }
                let theirs = [
                    StoreSnapshot(donations: ["y": DonationRecord(id: "y", event: "e", date: 2), "x": DonationRecord(id: "x", event: "e", date: 3)],
                                  parameters: ["p": ParameterRecord(value: .int(1), stamp: stamp)], latestFirstDisplay: 9),
                    StoreSnapshot(donations: ["y": DonationRecord(id: "y", event: "e", date: 2)],
                                  tipRecords: ["r": TipEventRecord(id: "r", tip: "t", stamp: stamp, kind: .invalidation(.tipClosed))]),
                ]
                for other in theirs {
                    let deviceError = #expect(throws: TipStoreError.self) { try sqlite.merge(other) }
                    let serviceError = #expect(throws: TipStoreError.self) { try store.transaction(user: user) { try $0.merge(other) } }
                    #expect(deviceError?.kind == .collision && serviceError?.kind == .collision)
                }
                #expect(try sqlite.load() == mine)
                #expect(try store.load(user: user) == mine)
            }
        }

        /// A failure the body catches still rolls the whole transaction back: nothing partial.
        @Test func aCaughtFailureStillRollsTheTransactionBack() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            let user = freshUser()
            try store.transaction(user: user) { try $0.append([DonationRecord(id: "x", event: "e", date: 1)]) }
            var caught: [TipStoreError.Kind] = []
            let error = #expect(throws: TipStoreError.self) {
                try store.transaction(user: user) { persistence in
                    try persistence.append([DonationRecord(id: "new", event: "e", date: 2)])
                    do throws(TipStoreError) { try persistence.append([DonationRecord(id: "x", event: "e", date: 9)]) } catch { caught.append(error.kind) }
                    // Later calls are refused too.
                    do throws(TipStoreError) { _ = try persistence.load() } catch { caught.append(error.kind) }
                }
            }
            #expect(error?.kind == .collision)
            #expect(caught == [.collision, .collision])
            #expect(try store.load(user: user).donations.keys.sorted() == ["x"])
            // A view used after its transaction ended is refused.
            let escaped = try store.transaction(user: user) { $0 }
            #expect(throws: TipStoreError.self) { try escaped.append([DonationRecord(id: "late", event: "e", date: 3)]) }
            #expect(try store.load(user: user).donations.keys.sorted() == ["x"])
        }

        /// Copies of one version-1 display counter merge to the larger figures, as on the device.
        @Test func versionOneDisplayCountersMergeToTheLarger() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            try withTemporarySQLiteStore { sqlite in
                let user = freshUser()
                let id = "v1-display:t:a::"
                let copies = [
                    TipEventRecord(id: id, tip: "t", stamp: Stamp(milliseconds: 7, device: "a"), kind: .display(count: 3, milliseconds: 100)),
                    TipEventRecord(id: id, tip: "t", stamp: Stamp(milliseconds: 4, device: "a"), kind: .display(count: 2, milliseconds: 900)),
                ]
                for copy in copies {
                    try sqlite.add([copy], latestFirstDisplay: nil)
                    try store.transaction(user: user) { try $0.add([copy], latestFirstDisplay: nil) }
                }
                let merged = try #require(TipEventRecord.mergingCopies(copies[0], copies[1]))
                #expect(try sqlite.load().tipRecords == [id: merged])
                #expect(try store.load(user: user).tipRecords == [id: merged])
            }
        }

        /// `donationLimit` trims the same donations as on the device.
        @Test func trimsKeepWhatTheDeviceKeeps() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            var g = SeededGenerator(seed: 99)
            for _ in 0..<40 {
                let donations = (0..<10).map { index in
                    DonationRecord(id: RecordID.random(), event: index % 4 == 0 ? "other" : "e", date: Int64.random(in: 0..<6, using: &g) * 1000)
                }
                let count: Int64? = Bool.random(using: &g) ? Int64.random(in: -1..<8, using: &g) : nil
                let age: Int64? = Bool.random(using: &g) ? Int64.random(in: 0..<6, using: &g) * 1000 : nil
                let now = Int64.random(in: 2..<8, using: &g) * 1000
                try withTemporarySQLiteStore { sqlite in
                    try sqlite.append(donations)
                    try sqlite.trim(event: "e", maximumCount: count, maximumAgeMilliseconds: age, now: now)
                    let user = freshUser()
                    try store.transaction(user: user) { persistence in
                        try persistence.append(donations)
                        try persistence.trim(event: "e", maximumCount: count, maximumAgeMilliseconds: age, now: now)
                    }
                    #expect(try store.load(user: user) == sqlite.load())
                }
            }
        }
    }
}
