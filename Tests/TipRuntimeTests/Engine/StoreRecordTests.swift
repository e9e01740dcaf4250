import Foundation
import Testing
@testable import TipRuntime
@testable import TipRuntimeSQLite

/// What a store keeps and gives back: exact values, records of every kind, state written by an
/// older schema, and values written under another pack.
@Suite("Runtime: store records")
struct StoreRecordTests {
    static let source = """
    tipkit 1
    param note: String = ""
    event opened { label: String }
    tip t {
      title "T"
      maxDisplayCount 3
      rule opened.count >= 1
    }
    tip long {
      title "L"
      rule true
    }
    """

    @Test(arguments: ["memory", "sqlite"])
    func stringsWithANulRoundTrip(_ kind: String) throws {
        let path = temporaryDatabasePath()
        func open() throws -> any TipPersistence {
            kind == "memory" ? MemoryPersistence(deviceID: "d") : try SQLitePersistence(path: path)
        }
        let persistence = try open()
        let center = try makeCenter(Self.source, persistence: persistence)
        let text = "a\u{0}b\u{0}"
        try center.donate("opened", value: ["label": .string(text)])
        try center.setParameter("note", to: .string(text))
        let reopened = try makeCenter(Self.source, persistence: kind == "memory" ? persistence : try open())
        #expect(try reopened.parameter("note") == .string(text))
        #expect(try reopened.snapshot().donations.values.map { $0.value["label"] } == [.string(text)])
    }

    @Test func durationsOnScreenSaturateInsteadOfWrapping() throws {
        let center = try makeCenter(Self.source)
        try center.recordDisplay("long", milliseconds: Int64.max / 2 + 1)
        try center.recordDisplayDuration("long", milliseconds: Int64.max / 2 + 1)
        #expect(try center.displayDuration(of: "long") == Int64.max)
    }

    @Test func eachDisplayInvalidationAndResetIsARecordAndSurvivesReopening() throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path))
        try center.recordDisplay("t")
        try center.recordDisplay("t")
        try center.invalidate("t", reason: .tipClosed)
        try center.invalidate("t", reason: .actionPerformed)   // already invalidated: nothing recorded
        let records = try center.snapshot().tipRecords.values
        #expect(records.count == 3)
        #expect(Set(records.map(\.id)).count == 3 && records.allSatisfy { $0.id.count == 32 })
        let reopened = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path))
        #expect(try reopened.status(of: "t") == .invalidated(.tipClosed))
        #expect(try reopened.displayCount(of: "t") == 2)
        try reopened.resetEligibility("t")
        #expect(try reopened.displayCount(of: "t") == 0)
        #expect(try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path)).status(of: "t") == .pending)
    }

    @Test func aStoreOutlivesItsPack() throws {
        let path = temporaryDatabasePath()
        let old = """
        tipkit 1
        param isSignedIn: Int = 0
        param plan: String = "free" in ["free", "pro", "enterprise"]
        event gone
        tip t {
          title "T"
          rule $isSignedIn > 0
        }
        """
        let new = """
        tipkit 1
        param isSignedIn: Bool = false
        param plan: String = "free" in ["free", "pro"]
        tip t {
          title "T"
          rule $isSignedIn and $plan == "free"
        }
        """
        let before = try makeCenter(old, persistence: try SQLitePersistence(path: path))
        try before.setParameter("isSignedIn", to: .int(7))
        try before.setParameter("plan", to: .string("enterprise"))
        try before.donate("gone")
        let after = try makeCenter(new, persistence: try SQLitePersistence(path: path))
        #expect(try after.parameter("isSignedIn") == .bool(false), "a value of another type reads as the default")
        #expect(try after.parameter("plan") == .string("free"), "a value outside `values` reads as the default")
        #expect(try after.status(of: "t") == .pending)
        let kept = try after.snapshot()
        #expect(kept.parameters["isSignedIn"]?.value == .int(7), "kept untouched until written")
        #expect(kept.donations.values.map(\.event) == ["gone"], "donations of events the pack lost are kept")
        try after.setParameter("isSignedIn", to: .bool(true))
        #expect(try makeCenter(new, persistence: try SQLitePersistence(path: path)).status(of: "t") == .available)
    }

    @Test func aVersion1StoreMigratesToRecords() throws {
        let path = temporaryDatabasePath()
        let raw = try SQLiteConnection(path: path)
        try SQLiteMigrations(Array(SQLitePersistence.migrations.steps.prefix(1))).apply(to: raw)
        try raw.withSession { session in
            try session.execute("""
                INSERT INTO meta VALUES ('device_id', 'old'), ('next_sequence', '1'), ('latest_first_display', '\(testStart)');
                INSERT INTO donations VALUES ('old:1', 'opened', \(testStart), 'label=s:x');
                INSERT INTO parameters VALUES ('note', 's:kept', \(testStart), 'old');
                INSERT INTO tips VALUES ('t', 'tipClosed', \(testStart + 10), 'old', \(testStart + 5), 'old');
                INSERT INTO tips VALUES ('long', NULL, NULL, NULL, NULL, NULL);
                INSERT INTO display_counters VALUES ('t', 'old', \(testStart + 5), 'old', 2, 3000, \(testStart + 6));
                INSERT INTO display_counters VALUES ('t', 'tablet', NULL, NULL, 9, 0, \(testStart));
                INSERT INTO display_counters VALUES ('long', 'old', NULL, NULL, 1, 500, \(testStart));
                """)
        }
        let center = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path))
        #expect(try center.status(of: "t") == .invalidated(.tipClosed))
        #expect(try center.displayCount(of: "t") == 2, "counters from before the reset no longer count")
        #expect(try center.displayDuration(of: "t") == 3000)
        #expect(try center.displayCount(of: "long") == 1)
        #expect(try center.parameter("note") == .string("kept"))
        #expect(center.donationCount(of: "opened") == 1)
        #expect(try center.snapshot().latestFirstDisplay == testStart)
        try center.resetEligibility("t")
        #expect(try center.status(of: "t") == .available)
    }
}
