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
        #expect(try reopened.parameterValue("note") == .string(text))
        #expect(try reopened.snapshot().donations.values.map { $0.value["label"] } == [.string(text)])
    }

    @Test func durationsOnScreenSaturateInsteadOfWrapping() throws {
        let center = try makeCenter(Self.source)
        try center.recordDisplay("long", milliseconds: Int64.max / 2 + 1)
        try center.recordDisplayDuration("long", milliseconds: Int64.max / 2 + 1)
        #expect(try center.displayDurationMilliseconds(of: "long") == Int64.max)
    }

    @Test func eachDisplayInvalidationAndResetIsARecordAndSurvivesReopening() throws {
        let path = temporaryDatabasePath()
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path))
        try center.recordDisplay("t")
        try center.recordDisplay("t")
        try center.invalidate("t", reason: .tipClosed)
        // Already invalidated: the first reason stays, but the record is kept, so that it wins
        // over a reset another device made meanwhile once the stores merge.
        try center.invalidate("t", reason: .actionPerformed)
        let records = try center.snapshot().tipRecords.values
        #expect(records.count == 4)
        #expect(Set(records.map(\.id)).count == 4 && records.allSatisfy { $0.id.count == 32 })
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
        #expect(try after.parameterValue("isSignedIn") == .bool(false), "a value of another type reads as the default")
        #expect(try after.parameterValue("plan") == .string("free"), "a value outside `values` reads as the default")
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
        #expect(try center.displayDurationMilliseconds(of: "t") == 3000)
        #expect(try center.displayCount(of: "long") == 1)
        #expect(try center.parameterValue("note") == .string("kept"))
        #expect(center.donationCount(of: "opened") == 1)
        #expect(try center.snapshot().latestFirstDisplay == testStart)
        try center.resetEligibility("t")
        #expect(try center.status(of: "t") == .available)
    }

    @Test func textsThatStartWithACombiningMarkOrHoldSeparatorsRoundTrip() throws {
        let path = temporaryDatabasePath()
        let center = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path))
        let texts = ["\u{301}abc", "\u{200D}x", "\u{FE0F}", "=a;b\\", "\\", ";=", "é\u{301}"]
        for text in texts { try center.donate("opened", value: ["label": .string(text)]) }
        try center.setParameter("note", to: .string(texts[0]))
        let reopened = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path))
        #expect(try reopened.parameterValue("note") == .string(texts[0]))
        let labels = try reopened.snapshot().donations.values.compactMap { donation -> [UInt8]? in
            guard case .string(let text)? = donation.value["label"] else { return nil }
            return Array(text.utf8)
        }
        #expect(Set(labels) == Set(texts.map { Array($0.utf8) }))
    }

    @Test func anInvalidationAfterAnotherDevicesResetWinsWhenTheyMerge() throws {
        let clock = ManualClock(now: testStart)
        let phone = try makeCenter(Self.source, clock: clock, persistence: MemoryPersistence(deviceID: "phone"))
        let tablet = try makeCenter(Self.source, clock: clock, persistence: MemoryPersistence(deviceID: "tablet"))
        try phone.invalidate("long", reason: .tipClosed)
        try tablet.merge(try phone.snapshot())
        clock.advance(milliseconds: oneHour)
        try tablet.resetEligibility("long")
        clock.advance(milliseconds: oneHour)
        try phone.invalidate("long", reason: .actionPerformed)   // the phone does not know of the reset yet
        try phone.merge(try tablet.snapshot())
        try tablet.merge(try phone.snapshot())
        for center in [phone, tablet] {
            #expect(try center.status(of: "long") == .invalidated(.actionPerformed))
        }
    }

    @Test func aDisplayLimitReachedOnlyByMergingCounts() throws {
        let phone = try makeCenter(Self.source, persistence: MemoryPersistence(deviceID: "phone"))
        let tablet = try makeCenter(Self.source, persistence: MemoryPersistence(deviceID: "tablet"))
        for center in [phone, tablet] {
            try center.recordDisplay("t")
            try center.recordDisplay("t")
        }
        try phone.merge(try tablet.snapshot())
        #expect(try phone.displayCount(of: "t") == 4)
        #expect(try phone.status(of: "t") == .invalidated(.displayCountExceeded))
        #expect(try phone.shouldDisplay("t") == false)
    }

    @Test func copiesOfOneVersion1StoreMigrateAndMergeWithoutCollision() throws {
        func version1Store(_ name: String, tabletCount: Int, donation: String) throws -> String {
            let path = temporaryDatabasePath(name)
            let raw = try SQLiteConnection(path: path)
            try SQLiteMigrations(Array(SQLitePersistence.migrations.steps.prefix(1))).apply(to: raw)
            try raw.withSession { session in
                try session.execute("""
                    INSERT INTO meta VALUES ('device_id', '\(name)');
                    INSERT INTO donations VALUES ('old:7', 'opened', \(testStart), 'label=s:\(donation)');
                    INSERT INTO tips VALUES ('t', 'tipClosed', \(testStart + 10), 'old', NULL, NULL);
                    INSERT INTO display_counters VALUES ('t', 'tablet', NULL, NULL, \(tabletCount), 0, \(testStart));
                    """)
            }
            return path
        }
        // Two devices' stores, synced under version 1 and then apart: the same counter at two
        // counts, and one sequence number given to two different donations (a backup).
        let phone = try SQLitePersistence(path: try version1Store("phone", tabletCount: 1, donation: "a"))
        let tablet = try SQLitePersistence(path: try version1Store("tablet", tabletCount: 2, donation: "b"))
        try phone.merge(try tablet.load())
        try tablet.merge(try phone.load())
        #expect(try phone.load() == tablet.load())
        let center = try makeCenter(Self.source, persistence: phone)
        #expect(try center.displayCount(of: "t") == 2, "copies of one counter merge to the larger")
        #expect(center.donationCount(of: "opened") == 2, "two donations under one old id stay two")
        #expect(try center.status(of: "t") == .invalidated(.tipClosed))
    }

    @Test func aVersion1StoreOpensForAReadingCommandWithoutBeingCreatedAnew() throws {
        let path = temporaryDatabasePath()
        let raw = try SQLiteConnection(path: path)
        try SQLiteMigrations(Array(SQLitePersistence.migrations.steps.prefix(1))).apply(to: raw)
        try raw.withSession { session in try session.execute("INSERT INTO meta VALUES ('device_id', 'old')") }
        let store = try SQLitePersistence(path: path, create: false)
        #expect(store.deviceID == "old")
        #expect(throws: TipError.self) { try SQLitePersistence(path: path + ".missing", create: false) }
        #expect(!FileManager.default.fileExists(atPath: path + ".missing"))
    }
}
