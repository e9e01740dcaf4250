import Foundation
import Testing
@testable import TipRuntime
@testable import TipRuntimeSQLite
import TipcTestSupport

/// What analytics reads from a store: action taps (`recordAction`), a hidden arm's exposures,
/// the arm on displays, and experiment assignments; and a store of the schema before them.
@Suite("Runtime: action taps and analytics records")
struct AnalyticsRecordTests {
    static let source = """
    tipkit 1
    event opened
    tip favorite {
      title "Favorite it"
      action "favorite" "Favorite"
      action "later" "Later"
      rule opened.count >= 1
    }
    tip plain {
      title "No actions"
    }
    tip newTrail[trailID: Int] {
      title "A new trail"
      action "open" "Open"
    }
    """

    @Test(arguments: ["memory", "sqlite"])
    func eachTapIsARecordOfItsOwnAndTheSameTapAgainIsOne(_ kind: String) throws {
        let clock = ManualClock(now: testStart)
        let path = temporaryDatabasePath()
        let persistence: any TipPersistence = kind == "memory" ? MemoryPersistence() : try SQLitePersistence(path: path)
        let center = try makeCenter(Self.source, clock: clock, persistence: persistence)
        try center.donate("opened")
        let first = try center.recordAction("favorite", action: "favorite")
        #expect(first.isNew)
        clock.advance(milliseconds: oneMinute)
        let second = try center.recordAction("favorite", action: "favorite")
        #expect(second.isNew && second.record.id != first.record.id, "two taps are two records")
        let retried = try center.recordAction("favorite", action: "favorite", id: first.record.id)
        #expect(!retried.isNew && retried.record == first.record, "the same tap sent again is one record")
        let instance = try center.recordAction("newTrail", action: "open", key: .int(42), id: "tap-1", at: testStart - oneMinute)
        #expect(instance.record.key == .int(42) && instance.record.date == testStart - oneMinute)
        #expect(instance.record.timestamp == Date(millisecondsSince1970: testStart - oneMinute))
        #expect(try center.status(of: "favorite") == .available, "a tap changes no status; closing is an invalidation")
        let stored = try center.snapshot().tipRecords.values.filter { if case .action = $0.kind { return true } else { return false } }
        #expect(Set(stored.map(\.id)) == [first.record.id, second.record.id, "tap-1"])
        #expect(stored.first { $0.id == first.record.id }?.date == testStart)
        if kind == "sqlite" {
            // Reopened, a retry is still recognised as the same tap.
            let reopened = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path))
            #expect(try !reopened.recordAction("newTrail", action: "open", key: .int(42), id: "tap-1").isNew)
            #expect(try reopened.snapshot().tipRecords.count == 3)
        }
    }

    @Test func unknownActionsTipsAndKeysAreRefusedAndStoreNothing() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.unknownAction(tip: "favorite", action: "favourite", declared: ["favorite", "later"])) {
            try center.recordAction("favorite", action: "favourite")
        }
        #expect(throws: TipError.unknownAction(tip: "plain", action: "ok", declared: [])) { try center.recordAction("plain", action: "ok") }
        #expect(TipError.unknownAction(tip: "plain", action: "ok", declared: []).description == "tip 'plain' has no action 'ok' (it declares no actions)")
        #expect(throws: TipError.unknownTip("favorit")) { try center.recordAction("favorit", action: "favorite") }
        #expect(throws: TipError.missingKey(tip: "newTrail", type: .int)) { try center.recordAction("newTrail", action: "open") }
        #expect(throws: TipError.self) { try center.recordAction("favorite", action: "favorite", id: "") }
        #expect(throws: TipError.self) { try center.recordAction("favorite", action: "favorite", at: .max) }
        // One id, another action: a collision, not a second record.
        try center.recordAction("favorite", action: "later", id: "x")
        #expect(throws: TipError.store(TipStoreError.collision("tip record", id: "x"))) {
            try center.recordAction("favorite", action: "favorite", id: "x")
        }
        #expect(try center.snapshot().tipRecords.count == 1)
    }

    /// A device store written before actions, exposures, arms and assignments existed opens,
    /// keeps every record, and stores the new ones.
    @Test func aStoreOfSchemaVersion4MigratesAndKeepsEverything() throws {
        let path = temporaryDatabasePath()
        let raw = try SQLiteConnection(path: path)
        try SQLiteMigrations(Array(SQLitePersistence.migrations.steps.prefix(4))).apply(to: raw)
        try raw.withSession { session in
            try session.execute("""
                INSERT INTO meta VALUES ('device_id', 'old'), ('latest_first_display', '\(testStart)');
                INSERT INTO donations VALUES ('d1', 'opened', \(testStart), '');
                INSERT INTO tip_records VALUES ('r1', 'favorite', 'display', \(testStart + 2), 'old', 1, 500, NULL, NULL, NULL);
                INSERT INTO tip_records VALUES ('r2', 'newTrail', 'invalidation', \(testStart + 3), 'old', 0, 0, 'tipClosed', 42, \(testStart));
                INSERT INTO donation_deletions VALUES ('opened', \(testStart - 1));
                """)
        }
        let before = StoreSnapshot(
            donations: ["d1": DonationRecord(id: "d1", event: "opened", date: testStart)], parameters: [:],
            tipRecords: ["r1": TipEventRecord(id: "r1", tip: "favorite", stamp: Stamp(milliseconds: testStart + 2, device: "old"),
                                              kind: .display(count: 1, milliseconds: 500)),
                         "r2": TipEventRecord(id: "r2", tip: "newTrail", key: .int(42), stamp: Stamp(milliseconds: testStart + 3, device: "old"),
                                              kind: .invalidation(.tipClosed), date: testStart)],
            latestFirstDisplay: testStart, donationDeletions: ["opened": testStart - 1])
        let store = try SQLitePersistence(path: path)
        #expect(try store.load() == before)
        let version = try SQLiteConnection(path: path).withSession { session in try session.scalar("PRAGMA user_version") }
        #expect(version == .integer(SQLitePersistence.migrations.latestVersion))
        #expect(try store.integrityCheck())
        let assignment = AssignmentRecord(id: "a", experiment: "copy", salt: "copy", arm: "short", date: testStart)
        let exposure = TipEventRecord(id: "e", tip: "favorite", stamp: Stamp(milliseconds: testStart + 4, device: "old"),
                                      kind: .exposure(experiment: "copy"), arm: "holdout")
        let display = TipEventRecord(id: "s", tip: "favorite", stamp: Stamp(milliseconds: testStart + 5, device: "old"),
                                     kind: .display(count: 1, milliseconds: 0), arm: "short")
        try store.assign([assignment])
        try store.add([exposure, display], latestFirstDisplay: nil)
        let center = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path))
        try center.recordAction("favorite", action: "favorite", id: "t")
        var after = before
        after.assignments[assignment.key] = assignment
        after.tipRecords["e"] = exposure
        after.tipRecords["s"] = display
        let tap = try center.snapshot().tipRecords["t"]
        #expect(tap?.kind == .action("favorite"))
        after.tipRecords["t"] = tap
        #expect(try SQLitePersistence(path: path).load() == after)
        #expect(try center.displayCount(of: "favorite") == 2, "an exposure is not a display; a display with an arm is")
    }
}
