import Foundation
import Testing
@testable import TipRuntime
import TipRuntimeSQLite
import TipcTestSupport

@Suite("Store merge laws")
struct MergeLawTests {
    static let cases = 2_000

    /// The definition's laws (donation deletions included); the conformance suite holds every
    /// store to the definition.
    @Test func mergeIsCommutativeAssociativeAndIdempotent() throws {
        var g = SeededGenerator(seed: 20_261_129)
        for _ in 0..<Self.cases {
            let universe = RandomSnapshots.universe(&g)
            let a = RandomSnapshots.snapshot(universe, &g), b = RandomSnapshots.snapshot(universe, &g)
            let c = RandomSnapshots.snapshot(universe, &g)
            #expect(try a.merged(with: b) == b.merged(with: a))
            #expect(try a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
            #expect(try a.merged(with: a) == a)
            #expect(try a.merged(with: b).merged(with: b) == a.merged(with: b))
            // Derived state agrees whichever way round.
            #expect(try a.merged(with: b).histories == b.merged(with: a).histories)
        }
    }

    @Test func noRecordIsEverLost() throws {
        var g = SeededGenerator(seed: 7)
        for _ in 0..<Self.cases {
            let universe = RandomSnapshots.universe(&g)
            let a = RandomSnapshots.snapshot(universe, &g), b = RandomSnapshots.snapshot(universe, &g)
            let merged = try a.merged(with: b)
            #expect(Set(merged.donations.keys) == Set(a.donations.keys).union(b.donations.keys))
            #expect(Set(merged.tipRecords.keys) == Set(a.tipRecords.keys).union(b.tipRecords.keys))
        }
    }

    /// Assignments are in every replica of the law tests above; here, what the merge keeps:
    /// per experiment and salt the earliest (date, then id) of all the replicas' assignments,
    /// so every device that has seen the same ones holds the same arm.
    @Test func theEarliestAssignmentHoldsOnEveryDevice() throws {
        var g = SeededGenerator(seed: 20_261_204)
        for _ in 0..<Self.cases {
            let universe = RandomSnapshots.universe(&g)
            let a = RandomSnapshots.snapshot(universe, &g), b = RandomSnapshots.snapshot(universe, &g)
            let merged = try a.merged(with: b)
            let all = Array(a.assignments.values) + Array(b.assignments.values)
            let expected = Dictionary(grouping: all, by: \.key).mapValues { $0.min(by: AssignmentRecord.precedes)! }
            #expect(merged.assignments == expected)
        }
        let later = AssignmentRecord(id: "a", experiment: "x", salt: "s", arm: "short", date: 2)
        let earlier = AssignmentRecord(id: "b", experiment: "x", salt: "s", arm: "control", date: 1)
        let tie = AssignmentRecord(id: "0", experiment: "x", salt: "s", arm: "holdout", date: 2)
        let phone = StoreSnapshot(assignments: [later.key: later]), tablet = StoreSnapshot(assignments: [earlier.key: earlier])
        #expect(try phone.merged(with: tablet).assignment(experiment: "x", salt: "s") == earlier)
        #expect(try tablet.merged(with: phone).assignment(experiment: "x", salt: "s") == earlier)
        #expect(try phone.merged(with: StoreSnapshot(assignments: [tie.key: tie])).assignment(experiment: "x", salt: "s") == tie)
        // Another salt is another assignment.
        let resalted = AssignmentRecord(id: "c", experiment: "x", salt: "s2", arm: "short", date: 9)
        #expect(try phone.merged(with: StoreSnapshot(assignments: [resalted.key: resalted])).assignments.count == 2)
        // One id, other content: a collision.
        let forged = AssignmentRecord(id: "a", experiment: "x", salt: "s", arm: "control", date: 2)
        #expect(throws: TipStoreError.self) { try phone.merged(with: StoreSnapshot(assignments: [forged.key: forged])) }
    }

    @Test func twoRecordsUnderOneIdAreACollisionNotAChoice() {
        let mine = StoreSnapshot(donations: ["x": DonationRecord(id: "x", event: "e", date: 1)])
        let theirs = StoreSnapshot(donations: ["x": DonationRecord(id: "x", event: "e", date: 2)])
        #expect(throws: TipStoreError.self) { try mine.merged(with: theirs) }
        let stamp = Stamp(milliseconds: 1, device: "a")
        let display = StoreSnapshot(tipRecords: ["r": TipEventRecord(id: "r", tip: "t", stamp: stamp, kind: .display(count: 1, milliseconds: 0))])
        let reset = StoreSnapshot(tipRecords: ["r": TipEventRecord(id: "r", tip: "t", stamp: stamp, kind: .reset)])
        #expect(throws: TipStoreError.self) { try display.merged(with: reset) }
    }

    @Test func displaysAddUpAcrossDevicesAndCopiesSinceTheLatestReset() {
        func record(_ ms: Int64, _ device: String, _ kind: TipEventRecord.Kind) -> TipEventRecord {
            TipEventRecord(tip: "t", stamp: Stamp(milliseconds: ms, device: device), kind: kind)
        }
        // Two copies of device a (same device id, same instant) and device b, after a reset.
        let history = TipHistory(records: [
            record(1, "c", .display(count: 4, milliseconds: 0)),
            record(5, "a", .reset),
            record(6, "a", .display(count: 1, milliseconds: 1000)),
            record(6, "a", .display(count: 1, milliseconds: 1000)),
            record(7, "b", .display(count: 1, milliseconds: 500)),
            record(8, "b", .display(count: 0, milliseconds: Int64.max)),
        ])
        #expect(history.displayCount == 3, "displays before the latest reset no longer count")
        #expect(history.displayDurationMilliseconds == Int64.max, "saturates instead of wrapping")
    }

    @Test func eligibilityFollowsTheLatestResetAndKeepsTheFirstReason() {
        func record(_ ms: Int64, _ kind: TipEventRecord.Kind) -> TipEventRecord {
            TipEventRecord(tip: "t", stamp: Stamp(milliseconds: ms, device: "a"), kind: kind)
        }
        let closed = record(10, .invalidation(.tipClosed))
        #expect(TipHistory(records: [closed, record(11, .reset)]).currentInvalidation == nil)
        #expect(TipHistory(records: [closed, record(9, .reset)]).currentInvalidation == .tipClosed)
        #expect(TipHistory(records: [record(12, .invalidation(.actionPerformed)), closed]).currentInvalidation == .tipClosed)
    }

    @Test func runtimesOnTwoSQLiteStoresSyncByMerging() throws {
        let source = """
        tipkit 1
        param plan: String = "free"
        event opened
        tip t {
          title "T"
          maxDisplayCount 3
          rule opened.count >= 2 and $plan != "x"
        }
        """
        let clock = ManualClock(now: testStart)
        let phone = try makeCenter(source, clock: clock, persistence: try SQLitePersistence(path: temporaryDatabasePath("phone"), deviceID: "phone"))
        let tablet = try makeCenter(source, clock: clock, persistence: try SQLitePersistence(path: temporaryDatabasePath("tablet"), deviceID: "tablet"))
        try phone.donate("opened")
        try tablet.donate("opened")
        try phone.recordDisplay("t")
        clock.advance(milliseconds: 1)
        try tablet.recordDisplay("t")
        try tablet.setParameter("plan", to: .string("pro"))
        try phone.merge(try tablet.snapshot())
        try tablet.merge(try phone.snapshot())
        for center in [phone, tablet] {
            #expect(center.donationCount(of: "opened") == 2)
            #expect(try center.displayCount(of: "t") == 2)
            #expect(try center.parameterValue("plan") == .string("pro"))
        }
        #expect(try phone.snapshot() == tablet.snapshot())
        try phone.recordDisplay("t")
        #expect(try phone.status(of: "t") == .invalidated(.displayCountExceeded), "three displays over both devices")
    }
}
