import Testing
@testable import TipRuntime
import TipcTestSupport

@Suite("Runtime: dated rules wake observers")
struct DatedWakeupTests {
    static let source = """
    tipkit 1
    param trialEnds: Date = date("2026-03-05T00:00:00Z")
    param installedAt: Date = date("2026-03-01T09:00:00Z")
    tip holiday {
      title "Holiday"
      rule now >= date("2026-03-02T00:00:00Z")
    }
    tip trial {
      title "Trial"
      rule now < $trialEnds
    }
    tip veteran {
      title "Veteran"
      rule now - $installedAt > 7d
    }
    """

    /// 2026-03-02T00:00:00Z and 2026-03-05T00:00:00Z.
    static let holidayStarts: Int64 = 1_772_409_600_000
    static let trialEnds: Int64 = 1_772_668_800_000

    @Test func aDateLiteralWakesTheStreamAtItsInstant() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        var updates = try center.statusUpdates(for: "holiday").makeAsyncIterator()
        #expect(await updates.next() == .pending)
        #expect(center.scheduledWakeUp == Self.holidayStarts)
        try await waitUntil { clock.pendingDeadlines == [Self.holidayStarts] }
        clock.set(milliseconds: Self.holidayStarts - 1)
        #expect(try center.status(of: "holiday") == .pending, "one millisecond before, the rule does not hold yet")
        clock.set(milliseconds: Self.holidayStarts)
        #expect(await updates.next() == .available)
        #expect(center.nowMilliseconds == Self.holidayStarts)
        // Once it holds, nothing about it changes with time.
        try await waitUntil { center.scheduledWakeUp == nil }
    }

    @Test func aDateParameterRearmsTheWakeUpWhenItChanges() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        var updates = try center.shouldDisplayUpdates(for: "trial").makeAsyncIterator()
        #expect(await updates.next() == true)
        #expect(center.scheduledWakeUp == Self.trialEnds)
        // The trial is extended by a day: the wake-up moves with it.
        try center.setParameter("trialEnds", to: .date(milliseconds: Self.trialEnds + oneDay))
        #expect(center.scheduledWakeUp == Self.trialEnds + oneDay)
        try await waitUntil { clock.pendingDeadlines == [Self.trialEnds + oneDay] }
        clock.set(milliseconds: Self.trialEnds + oneDay - 1)
        #expect(try center.shouldDisplay("trial"))
        clock.set(milliseconds: Self.trialEnds + oneDay)
        #expect(await updates.next() == false)
        #expect(center.nowMilliseconds == Self.trialEnds + oneDay)
    }

    @Test func aDifferenceOfNowAndAParameterWakesWhenItPassesTheDuration() async throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        var updates = try center.statusUpdates(for: "veteran").makeAsyncIterator()
        #expect(await updates.next() == .pending)
        // `now - installedAt > 7d` first holds one millisecond after seven days.
        #expect(center.scheduledWakeUp == testStart + 7 * oneDay + 1)
        try center.setParameter("installedAt", to: .date(milliseconds: testStart + oneHour))
        let instant = testStart + oneHour + 7 * oneDay + 1
        #expect(center.scheduledWakeUp == instant)
        try await waitUntil { clock.pendingDeadlines == [instant] }
        clock.set(milliseconds: instant - 1)
        #expect(try center.status(of: "veteran") == .pending)
        clock.set(milliseconds: instant)
        #expect(await updates.next() == .available)
        #expect(center.nowMilliseconds == instant)
    }

    @Test func theAnalysisFindsComparisonsWithNowAndOnlyThem() throws {
        let pack = try verifiedPack("""
        tipkit 1
        param p: Date = date("2026-03-05T00:00:00Z")
        param n: Int = 0
        event opened { seen: Date }
        tip a {
          title "A"
          rule $n > 2
          rule opened.count >= 1 or now < $p + 1d
          rule opened.where(seen < now).count >= 1
          rule -(now - $p) <= 2h
        }
        """)
        let found = pack.pack.tips[0].rules.map { DatedWakeups.comparisons(in: $0.code) }
        #expect(found[0].isEmpty, "no comparison with now")
        #expect(found[1] == [NowComparison(difference: LinearForm(now: 1, parameters: [0: -1], constant: -oneDay), comparison: .less)])
        #expect(found[2].isEmpty, "a payload field's instant depends on each donation: not analysed")
        #expect(found[3] == [NowComparison(difference: LinearForm(now: -1, parameters: [0: 1], constant: -2 * oneHour), comparison: .lessOrEqual)])
    }

    /// Asked without an observer, the runtime names the same instant it would wake one at,
    /// for the instances asked about; an unknown tip is an error.
    @Test func theNextPossibleChangeIsAnsweredWithoutObserving() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        #expect(center.scheduledWakeUp == nil)
        #expect(try center.nextPossibleChange(of: [TipInstance(tip: "holiday")]) == Self.holidayStarts)
        #expect(try center.nextPossibleChange(of: [TipInstance(tip: "trial")]) == Self.trialEnds)
        #expect(try center.nextPossibleChange(of: [TipInstance(tip: "trial"), TipInstance(tip: "holiday")]) == Self.holidayStarts)
        clock.set(milliseconds: Self.holidayStarts)
        #expect(try center.nextPossibleChange(of: [TipInstance(tip: "holiday")]) == nil)
        #expect(throws: TipError.unknownTip("nope")) { try center.nextPossibleChange(of: [TipInstance(tip: "nope")]) }
    }

    @Test func theNextChangeIsTheFirstInstantTheOutcomeFlips() {
        var g = SeededGenerator(seed: 2026)
        for _ in 0..<5_000 {
            let slope = [-3, -2, -1, 1, 2, 3].randomElement(using: &g)!
            let offset = Int64.random(in: -100...100, using: &g)
            let parameter = Int64.random(in: -20...20, using: &g)
            let now = Int64.random(in: -100...100, using: &g)
            let comparison = ComparisonCode.allCases.randomElement(using: &g)!
            let form = NowComparison(difference: LinearForm(now: Int64(slope), parameters: [0: 1], constant: offset), comparison: comparison)
            func holds(_ t: Int64) -> Bool { comparison.holds(Int64(slope) * t + offset + parameter, 0) }
            let expected = (now + 1...now + 400).first { holds($0) != holds(now) }
            #expect(form.nextChange(parameterSlots: [parameter], now: now) == expected,
                    "\(slope)·t + \(offset + parameter) \(comparison.symbol) 0 after \(now)")
        }
    }
}

@Suite("Runtime: dated wake-ups miss no change")
struct DatedWakeupPropertyTests {
    static let source = """
    tipkit 1
    param p: Date = date("2026-03-01T09:00:00Z")
    param q: Date = date("2026-03-01T09:00:00Z")
    param d: Duration = 0s
    param flag: Bool = false
    tip a {
      title "A"
      rule now >= $p and now < $q
    }
    tip b {
      title "B"
      rule now - $p > $d or $flag
    }
    tip c {
      title "C"
      rule not (now == $q) and $p + $d <= now
    }
    tip e {
      title "E"
      rule -(now - $q) + $d >= 0s
    }
    """

    /// From every starting instant, the runtime's next wake-up comes no later than the first
    /// instant any tip's status changes, checked millisecond by millisecond on random parameters.
    @Test func noStatusChangesBeforeTheNextWakeUp() throws {
        var g = SeededGenerator(seed: 1224)
        let center = try makeCenter(Self.source)
        let tips = Set(center.pack.tips.indices)
        for _ in 0..<60 {
            try center.setParameters([
                "p": .date(milliseconds: testStart + Int64.random(in: -100...100, using: &g)),
                "q": .date(milliseconds: testStart + Int64.random(in: -100...100, using: &g)),
                "d": .duration(milliseconds: Int64.random(in: -60...60, using: &g)),
                "flag": .bool(Int.random(in: 0..<4, using: &g) == 0),
            ])
            center.state.withLock { engine in
                var instant = testStart - 250
                while instant < testStart + 250 {
                    let statuses = tips.sorted().map { engine.status(of: $0, now: instant) }
                    let wake = engine.nextWake(for: Set(tips.map { TipSlot(tip: $0) }), now: instant) ?? Int64.max
                    #expect(wake > instant)
                    // Every instant before the wake-up has the same statuses.
                    var t = instant + 1
                    while t < min(wake, testStart + 300) {
                        #expect(tips.sorted().map { engine.status(of: $0, now: t) } == statuses, "changed at \(t - testStart) before the wake-up at \(wake - testStart)")
                        t += 1
                    }
                    instant = wake
                }
            }
        }
    }
}
