import Foundation
import Testing
@testable import TipRuntime
import TipRuntimeSQLite

/// Format 2: instances of keyed tips, and rules that read other tips' records.
@Suite("Runtime: tip instances and tips about tips")
struct TipInstanceTests {
    static let source = """
    tipkit 1
    displayFrequency daily
    event trailViewed { trailID: Int }
    event opened
    tip welcome {
      title "Welcome"
      rule opened.count >= 1
    }
    tip followUp {
      title "Follow up"
      ignoresDisplayFrequency true
      rule tip(welcome).invalidated and tip(welcome).invalidations.within(1d).count == 0
    }
    tip newTrail[trailID: Int] {
      title "A new trail near you"
      maxDisplayCount 2
      rule trailViewed.where(trailID == key).count >= 3
    }
    tip badge[name: String] {
      title "Badge"
      ignoresDisplayFrequency true
      rule tip(newTrail, 42).displays.count >= 1
    }
    """

    func view(_ center: TipCenter, _ trail: Int64, times: Int) throws {
        for _ in 0..<times { try center.donate("trailViewed", value: ["trailID": .int(trail)]) }
    }

    @Test func eachInstanceHasItsOwnStatusAndCounts() throws {
        let center = try makeCenter(Self.source)
        try view(center, 42, times: 3)
        try view(center, 7, times: 2)
        #expect(try center.status(of: "newTrail", key: .int(42)) == .available)
        #expect(try center.status(of: "newTrail", key: .int(7)) == .pending)
        #expect(try center.status(of: "newTrail", key: .int(1_000)) == .pending, "an instance without state is evaluated fresh")
        try center.recordDisplay("newTrail", key: .int(42))
        try center.recordDisplay("newTrail", key: .int(42))
        #expect(try center.displayCount(of: "newTrail", key: .int(42)) == 2)
        #expect(try center.displayCount(of: "newTrail", key: .int(7)) == 0)
        #expect(try center.status(of: "newTrail", key: .int(42)) == .invalidated(.displayCountExceeded))
        try view(center, 7, times: 1)
        #expect(try center.status(of: "newTrail", key: .int(7)) == .available, "another instance is not invalidated")
        try center.resetEligibility("newTrail", key: .int(42))
        #expect(try center.status(of: "newTrail", key: .int(42)) == .available)
        #expect(try center.instances(of: "newTrail") == [.int(42)])
        #expect(center.statuses()["newTrail"] == nil, "a keyed tip has no status of its own")
    }

    @Test func theFrequencyGapIsPerInstance() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        try view(center, 42, times: 3)
        try view(center, 7, times: 3)
        #expect(try center.shouldDisplay("newTrail", key: .int(42)))
        try center.recordDisplay("newTrail", key: .int(42))
        #expect(try center.shouldDisplay("newTrail", key: .int(42)), "an instance already displayed may display again")
        #expect(try !center.shouldDisplay("newTrail", key: .int(7)), "another instance waits for the gap")
        clock.set(milliseconds: testStart + oneDay)
        #expect(try center.shouldDisplay("newTrail", key: .int(7)))
    }

    @Test func keysAreChecked() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.missingKey(tip: "newTrail", type: .int)) { try center.status(of: "newTrail") }
        #expect(throws: TipError.unexpectedKey(tip: "welcome")) { try center.status(of: "welcome", key: .int(1)) }
        #expect(throws: TipError.wrongKeyType(tip: "newTrail", expected: .int, actual: .string)) {
            try center.recordDisplay("newTrail", key: .string("42"))
        }
        #expect(try center.instance(named: "newTrail[42]") == TipInstance(tip: "newTrail", key: .int(42)))
        #expect(try center.instance(named: "badge[gold star]") == TipInstance(tip: "badge", key: .string("gold star")))
        #expect(throws: TipError.unreadableKey(tip: "newTrail", text: "x", expected: .int)) { try center.instance(named: "newTrail[x]") }
        #expect(TipError.unreadableKey(tip: "newTrail", text: "x", expected: .int).description
                == "'x' in 'newTrail[x]' is not an Int: the key of tip 'newTrail' is an Int, e.g. 'newTrail[42]'")
        #expect(try center.displayCount(of: "newTrail", key: .int(42)) == 0, "a refused write changed nothing")
    }

    @Test func aRuleReadsAnotherTipsInvalidationsInAWindow() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        try center.donate("opened")
        #expect(try center.status(of: "followUp") == .pending)
        try center.recordDisplay("welcome")
        try center.invalidate("welcome", reason: .tipClosed)
        #expect(try center.status(of: "followUp") == .pending, "the invalidation is inside the day")
        clock.set(milliseconds: testStart + oneDay - 1)
        #expect(try center.status(of: "followUp") == .pending)
        clock.set(milliseconds: testStart + oneDay)
        #expect(try center.status(of: "followUp") == .available, "a day after the welcome tip went away")
        try center.resetEligibility("welcome")
        #expect(try center.status(of: "followUp") == .pending, "the collections start again after a reset")
    }

    @Test func aRuleReadsAnInstancesDisplays() throws {
        let center = try makeCenter(Self.source)
        #expect(try center.status(of: "badge", key: .string("gold")) == .pending)
        try center.recordDisplay("newTrail", key: .int(7))
        #expect(try center.status(of: "badge", key: .string("gold")) == .pending, "another instance's display")
        try center.recordDisplay("newTrail", key: .int(42))
        #expect(try center.status(of: "badge", key: .string("gold")) == .available)
    }

    @Test func observersWakeWhenAWindowOverATipsRecordsSlides() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        try center.donate("opened")
        try center.invalidate("welcome", reason: .actionPerformed)
        let updates = try center.statusUpdates(for: "followUp")
        var iterator = updates.makeAsyncIterator()
        #expect(await iterator.next() == .pending)
        #expect(center.scheduledWakeUp == testStart + oneDay, "the invalidation leaves the window then")
        clock.set(milliseconds: testStart + oneDay)
        #expect(await iterator.next() == .available)
    }

    @Test func instancesAndRecordsSurviveAnSQLiteStoreAndMerge() throws {
        let clock = ManualClock(now: testStart)
        let phonePath = temporaryDatabasePath("inst-phone"), tabletPath = temporaryDatabasePath("inst-tablet")
        let phone = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: phonePath, deviceID: "phone"))
        let tablet = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: tabletPath, deviceID: "tablet"))
        try phone.recordDisplay("newTrail", key: .int(42))
        try tablet.recordDisplay("newTrail", key: .int(42))
        try tablet.invalidate("welcome", reason: .tipClosed)
        try phone.merge(try tablet.snapshot())
        #expect(try phone.displayCount(of: "newTrail", key: .int(42)) == 2, "displays of one instance add up across devices")
        #expect(try phone.status(of: "newTrail", key: .int(42)) == .invalidated(.displayCountExceeded))
        #expect(try phone.status(of: "welcome") == .invalidated(.tipClosed))
        let reopened = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: phonePath))
        #expect(try reopened.displayCount(of: "newTrail", key: .int(42)) == 2)
        #expect(try reopened.instances(of: "newTrail") == [.int(42)])
        #expect(try reopened.snapshot() == phone.snapshot(), "keys and dates round-trip exactly")
    }
}
