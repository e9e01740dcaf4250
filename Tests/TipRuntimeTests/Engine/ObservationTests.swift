import Testing
@testable import TipRuntime

@Suite("Runtime: observation")
struct ObservationTests {
    static let source = """
    tipkit 1
    displayFrequency 1h
    event searched
    tip advanced {
      title "Advanced"
      rule searched.count >= 2 within 1d
    }
    tip other {
      title "Other"
    }
    """

    @Test func statusStreamsEmitTheCurrentValueThenEveryChange() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        var updates = try center.statusUpdates(for: "advanced").makeAsyncIterator()
        #expect(await updates.next() == .pending)
        try center.donate("searched")
        try center.donate("searched")
        #expect(await updates.next() == .available)
        try center.invalidate("advanced", reason: .tipClosed)
        #expect(await updates.next() == .invalidated(.tipClosed))
    }

    @Test func aSlidingWindowWakesTheRuntimeAtTheComputedInstant() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        try center.donate("searched", at: testStart)
        try center.donate("searched", at: testStart + oneHour)
        clock.set(milliseconds: testStart + oneHour)
        var updates = try center.statusUpdates(for: "advanced").makeAsyncIterator()
        #expect(await updates.next() == .available)
        // The first donation leaves the one-day window at start + 1d: one wake-up, then.
        #expect(center.scheduledWakeUp == testStart + oneDay)
        try await waitUntil { clock.pendingDeadlines == [testStart + oneDay] }
        clock.set(milliseconds: testStart + oneDay - 1)
        #expect(try center.status(of: "advanced") == .available)
        clock.set(milliseconds: testStart + oneDay)
        #expect(await updates.next() == .pending)
        // The second donation leaves at start + 1h + 1d; after that nothing changes with time.
        try await waitUntil { center.scheduledWakeUp == testStart + oneHour + oneDay }
        clock.set(milliseconds: testStart + oneHour + oneDay)
        try await waitUntil { center.scheduledWakeUp == nil }
    }

    @Test func shouldDisplayStreamsFollowTheFrequencyGap() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        var updates = try center.shouldDisplayUpdates(for: "other").makeAsyncIterator()
        #expect(await updates.next() == true)
        try center.donate("searched")
        try center.donate("searched")
        try center.recordDisplay("advanced")
        #expect(await updates.next() == false)
        #expect(center.scheduledWakeUp == testStart + oneHour)
        try await waitUntil { clock.pendingDeadlines.contains(testStart + oneHour) }
        clock.set(milliseconds: testStart + oneHour)
        #expect(await updates.next() == true)
    }

    @Test func everySubscriberHasItsOwnStream() async throws {
        let center = try makeCenter(Self.source)
        var first = try center.statusUpdates(for: "other").makeAsyncIterator()
        var second = try center.statusUpdates(for: "other").makeAsyncIterator()
        #expect(await first.next() == .available)
        #expect(await second.next() == .available)
        try center.invalidate("other", reason: .actionPerformed)
        #expect(await first.next() == .invalidated(.actionPerformed))
        #expect(await second.next() == .invalidated(.actionPerformed))
    }
}

/// Waits (yielding, never sleeping on wall time) until `condition` holds; fails after many tries.
func waitUntil(_ condition: () -> Bool, sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws {
    for _ in 0..<100_000 {
        if condition() { return }
        await Task.yield()
    }
    Issue.record("condition never became true", sourceLocation: sourceLocation)
}
