import Foundation
import Testing
@testable import TipRuntime

/// `beginDisplay(of:)` … `end()`: the runtime records a display, its time on screen on its own
/// clock, action taps and closing, so a UI wrapper only says when the tip appeared and went away.
@Suite("Runtime: a tip's presentation")
struct TipPresentationTests {
    static let source = """
    tipkit 1
    tip favorite {
      title "Favorite it"
      action "favorite" "Favorite"
      maxDisplayDuration 10s
    }
    tip newTrail[trailID: Int] {
      title "A new trail"
    }
    """

    /// The public API's types: dates and seconds.
    static let start = Date(timeIntervalSince1970: 1_772_355_600)

    @Test func aPresentationRecordsTheDisplayAndItsTimeOnScreenOnce() throws {
        let clock = ManualClock(now: Self.start)
        let center = try makeCenter(Self.source, clock: clock)
        let shown = try center.beginDisplay(of: "favorite")
        #expect(try center.displayCount(of: "favorite") == 1, "the display counts as soon as the tip is shown")
        #expect(shown.began == Self.start && !shown.isEnded)
        clock.advance(by: 4.2)
        try shown.end()
        #expect(shown.isEnded)
        #expect(try center.displayDuration(of: "favorite") == 4.2)
        clock.advance(by: 1)
        try shown.end()
        try shown.close()
        #expect(try center.displayDuration(of: "favorite") == 4.2, "a presentation ends once")
        #expect(try center.status(of: "favorite") == .available, "ending is not closing")
        #expect(try center.displayCount(of: "favorite") == 1)
    }

    @Test func closingInvalidatesAsTheCloseButtonDoesAndActionsAreTaps() throws {
        let clock = ManualClock(now: Self.start)
        let center = try makeCenter(Self.source, clock: clock)
        let shown = try center.beginDisplay(of: "favorite")
        try shown.recordAction("favorite")
        #expect(!shown.isEnded, "a tap does not end the presentation")
        clock.advance(by: 2)
        try shown.close()
        #expect(try center.status(of: "favorite") == .invalidated(.tipClosed))
        #expect(try center.displayDuration(of: "favorite") == 2)
        let actions = try center.snapshot().tipRecords.values.filter { if case .action("favorite") = $0.kind { return true } else { return false } }
        #expect(actions.count == 1)
        #expect(throws: TipError.self) { try shown.recordAction("unknown") }
    }

    @Test func timeOnScreenCountsTowardsTheMaximumDurationAndInstancesAreKeptApart() throws {
        let clock = ManualClock(now: Self.start)
        let center = try makeCenter(Self.source, clock: clock)
        let first = try center.beginDisplay(of: "favorite")
        clock.advance(by: 11)
        try first.end()
        #expect(try center.status(of: "favorite") == .invalidated(.displayDurationExceeded))
        let trail = try center.beginDisplay(of: "newTrail", key: .int(7))
        clock.advance(by: 0.5)
        try trail.end(invalidating: .actionPerformed)
        #expect(try center.status(of: "newTrail", key: .int(7)) == .invalidated(.actionPerformed))
        #expect(try center.displayDuration(of: "newTrail", key: .int(7)) == 0.5)
        #expect(try center.displayCount(of: "newTrail", key: .int(8)) == 0)
    }

    @Test func aCloseThatFailedCanBeRetriedAndRecordsOnlyWhatIsMissing() throws {
        let clock = ManualClock(now: Self.start)
        let persistence = FailingPersistence()
        let center = try makeCenter(Self.source, clock: clock, persistence: persistence)
        let shown = try center.beginDisplay(of: "favorite")
        clock.advance(by: 2)
        // A store that refuses writes: the close is refused, and records nothing.
        persistence.failsWrites = true
        #expect(throws: TipError.store(TipStoreError(.unavailable, "the test's store refuses writes"))) { try shown.close() }
        #expect(!shown.isEnded, "a close that threw has not ended the presentation")
        #expect(try center.displayDuration(of: "favorite") == 0)
        persistence.failsWrites = false
        clock.advance(by: 5)
        try shown.close()
        #expect(shown.isEnded)
        #expect(try center.status(of: "favorite") == .invalidated(.tipClosed))
        #expect(try center.displayDuration(of: "favorite") == 7, "the time on screen up to the close that succeeded, once")
    }

    @Test func aTimeOnScreenThatIsNotAFiniteNumberOfSecondsIsRefused() throws {
        let clock = ManualClock(now: Self.start)
        let center = try makeCenter(Self.source, clock: clock)
        for duration in [Double.nan, .infinity, -1] {
            do {
                try center.recordDisplay("favorite", duration: duration)
                Issue.record("\(duration) s was recorded")
            } catch {
                #expect(error.code == "invalid-duration")
            }
        }
        #expect(try center.displayCount(of: "favorite") == 0)
        clock.advance(by: .infinity)
        clock.advance(by: .nan)
        #expect(clock.now() > Self.start, "a clock moved past every date stops at the last one, without trapping")
    }

    @Test func anUnknownTipIsRefusedAndRecordsNothing() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.unknownTip("favourite")) { try center.beginDisplay(of: "favourite") }
        #expect(try center.snapshot().tipRecords.isEmpty)
    }
}
