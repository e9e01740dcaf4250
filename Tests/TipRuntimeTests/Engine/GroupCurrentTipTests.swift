import Testing
@testable import TipRuntime

@Suite("Runtime: groups' current tip")
struct GroupCurrentTipTests {
    static let source = """
    tipkit 1
    displayFrequency 1h
    param ready: Bool = false
    event searched
    tip welcome {
      title "Welcome"
    }
    tip swipe {
      title "Swipe"
    }
    tip personalize {
      title "Personalize"
      rule $ready
    }
    tip recent {
      title "Recent"
      ignoresDisplayFrequency true
      rule searched.count >= 1 within 1h
    }
    tip beta {
      title "Beta"
      ignoresDisplayFrequency true
    }
    group onboarding ordered { welcome, swipe, personalize }
    group extras firstAvailable { recent, beta }
    """

    /// The current tip is the one member that should display (without testing overrides).
    func expectConsistent(_ center: TipCenter, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        for group in center.pack.groups {
            let members = group.tips.map { center.pack.tips[$0].name }
            let displaying = try members.filter { try center.shouldDisplay($0) }
            #expect(displaying.count <= 1, sourceLocation: sourceLocation)
            #expect(try center.currentTip(of: group.name) == displaying.first, sourceLocation: sourceLocation)
        }
    }

    @Test func orderedGroupsOfferTheirFirstTipNotInvalidatedOnceItShouldDisplay() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        #expect(try center.currentTip(of: "onboarding") == "welcome")
        try expectConsistent(center)
        try center.recordDisplay("welcome")
        try center.invalidate("welcome", reason: .tipClosed)
        #expect(try center.currentTip(of: "onboarding") == nil, "swipe is offered, but the display frequency holds it back")
        clock.set(milliseconds: testStart + oneHour)
        #expect(try center.currentTip(of: "onboarding") == "swipe")
        try center.invalidate("swipe", reason: .actionPerformed)
        #expect(try center.currentTip(of: "onboarding") == nil, "personalize is offered, but its rule does not hold")
        try center.setParameter("ready", to: .bool(true))
        #expect(try center.currentTip(of: "onboarding") == "personalize")
        try expectConsistent(center)
    }

    @Test func firstAvailableGroupsOfferTheirFirstAvailableTip() throws {
        let center = try makeCenter(Self.source)
        #expect(try center.currentTip(of: "extras") == "beta")
        try center.donate("searched")
        #expect(try center.currentTip(of: "extras") == "recent")
        try expectConsistent(center)
        try center.invalidate("recent", reason: .actionPerformed)
        try center.invalidate("beta", reason: .actionPerformed)
        #expect(try center.currentTip(of: "extras") == nil)
    }

    @Test func testingOverridesDecideAsForShouldDisplay() throws {
        let center = try makeCenter(Self.source)
        center.hideTipsForTesting(["beta"])
        #expect(try center.currentTip(of: "extras") == nil)
        center.hideAllTipsForTesting()
        #expect(try center.currentTip(of: "onboarding") == nil)
        center.showTipsForTesting(["personalize"])
        #expect(try center.currentTip(of: "onboarding") == "personalize", "shown for testing, its rule and group aside")
        center.clearTestingOverrides()
        center.showAllTipsForTesting()
        #expect(try center.currentTip(of: "onboarding") == "welcome", "the first member that should display")
    }

    @Test func anUnknownGroupIsAnError() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.unknownGroup("onbording")) { try center.currentTip(of: "onbording") }
        #expect(throws: TipError.unknownGroup("welcome")) { try center.currentTipUpdates(of: "welcome") }
    }

    @Test func theStreamEmitsEveryChangeIncludingOnesTimeMakes() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        var extras = try center.currentTipUpdates(of: "extras").makeAsyncIterator()
        var onboarding = try center.currentTipUpdates(of: "onboarding").makeAsyncIterator()
        #expect(await extras.next() == "beta")
        #expect(await onboarding.next() == "welcome")
        try center.donate("searched")
        #expect(await extras.next() == "recent")
        // The search leaves the one-hour window at +1h: the group offers beta again then.
        try center.recordDisplay("welcome")
        try center.invalidate("welcome", reason: .tipClosed)
        #expect(await onboarding.next() == .some(nil))
        #expect(center.scheduledWakeUp == testStart + oneHour)
        try await waitUntil { clock.pendingDeadlines == [testStart + oneHour] }
        clock.set(milliseconds: testStart + oneHour)
        #expect(await extras.next() == "beta")
        #expect(await onboarding.next() == "swipe", "the frequency gap ends at the same instant")
    }
}
