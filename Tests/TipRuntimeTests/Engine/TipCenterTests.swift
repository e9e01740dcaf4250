import Foundation
import Testing
@testable import TipRuntime
import TipRuntimeSQLite

@Suite("Runtime: status, displays and eligibility")
struct TipCenterStatusTests {
    static let source = """
    tipkit 1
    param signedIn: Bool = false
    event searched
    tip advanced {
      title "Advanced"
      maxDisplayCount 2
      rule $signedIn
      rule searched.count >= 3 within 3d
    }
    tip timed {
      title "Timed"
      maxDisplayDuration 1m
    }
    """

    @Test func statusFollowsRulesAndInvalidationIsPermanentUntilReset() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        #expect(try center.status(of: "advanced") == .pending)
        try center.setParameter("signedIn", to: .bool(true))
        for _ in 0..<3 { try center.donate("searched") }
        #expect(try center.status(of: "advanced") == .available)
        try center.invalidate("advanced", reason: .actionPerformed)
        try center.invalidate("advanced", reason: .tipClosed)
        #expect(try center.status(of: "advanced") == .invalidated(.actionPerformed), "the first reason stays")
        try center.resetEligibility("advanced")
        #expect(try center.status(of: "advanced") == .available)
    }

    @Test func bulkStatusesAgreeWithEachTipsStatus() throws {
        let center = try makeCenter(Self.source)
        try center.setParameter("signedIn", to: .bool(true))
        for _ in 0..<3 { try center.donate("searched") }
        try center.invalidate("timed", reason: .tipClosed)
        let all = center.statuses()
        #expect(all == ["advanced": .available, "timed": .invalidated(.tipClosed)])
        for (tip, status) in all { #expect(try center.status(of: tip) == status) }
    }

    @Test func windowsSlideWithTime() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        try center.setParameter("signedIn", to: .bool(true))
        for offset in [0, oneHour, 2 * oneHour] { try center.donate("searched", at: testStart + offset) }
        #expect(try center.status(of: "advanced") == .pending, "two donations are still in the future")
        clock.set(milliseconds: testStart + 2 * oneHour)
        #expect(try center.status(of: "advanced") == .available)
        // The first donation leaves the window at exactly start + 3d (window: now - 3d < date).
        clock.set(milliseconds: testStart + 3 * oneDay - 1)
        #expect(try center.status(of: "advanced") == .available)
        clock.set(milliseconds: testStart + 3 * oneDay)
        #expect(try center.status(of: "advanced") == .pending)
    }

    @Test func maxDisplayCountAndDurationInvalidate() throws {
        let center = try makeCenter(Self.source)
        try center.setParameter("signedIn", to: .bool(true))
        for _ in 0..<3 { try center.donate("searched") }
        try center.recordDisplay("advanced")
        #expect(try center.status(of: "advanced") == .available)
        try center.recordDisplay("advanced")
        #expect(try center.status(of: "advanced") == .invalidated(.displayCountExceeded))
        #expect(try center.displayCount(of: "advanced") == 2)

        try center.recordDisplay("timed", milliseconds: 40_000)
        #expect(try center.status(of: "timed") == .available)
        try center.recordDisplayDuration("timed", milliseconds: 20_000)
        #expect(try center.status(of: "timed") == .invalidated(.displayDurationExceeded))
        try center.resetEligibility("timed")
        #expect(try center.displayDurationMilliseconds(of: "timed") == 0, "a reset restarts the counters")
    }

    @Test func wrongParameterTypesAndUnknownNamesAreErrorsThatChangeNothing() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.wrongParameterType(parameter: "signedIn", expected: .bool, actual: .int)) {
            try center.setParameter("signedIn", to: .int(1))
        }
        #expect(try center.parameterValue("signedIn") == .bool(false))
        #expect(throws: TipError.unknownParameter("nope")) { try center.setParameter("nope", to: .bool(true)) }
        #expect(throws: TipError.unknownTip("nope")) { try center.status(of: "nope") }
        #expect(throws: TipError.donation(.unknownEventName("nope"))) { try center.donate("nope") }
        #expect(throws: TipError.donation(.unknownField(event: "searched", field: "x"))) {
            try center.donate("searched", value: ["x": .int(1)])
        }
        #expect(center.donationCount(of: "searched") == 0)
    }

    @Test func enumLikeParametersRefuseValuesOutsideTheirSet() throws {
        let center = try makeCenter("""
        tipkit 1
        param plan: String = "free" in ["free", "pro"]
        tip t {
          title "T"
          rule $plan == "pro"
        }
        """)
        #expect(throws: TipError.valueNotAllowed(parameter: "plan", value: "gold", allowed: ["free", "pro"])) {
            try center.setParameter("plan", to: .string("gold"))
        }
        try center.setParameter("plan", to: .string("pro"))
        #expect(try center.status(of: "t") == .available)
    }

    @Test func doubleParametersRefuseNaNAndTheInfinities() throws {
        let persistence = MemoryPersistence()
        let center = try makeCenter(Self.scored, persistence: persistence)
        for number in [Double.nan, .infinity, -.infinity] {
            do {
                try center.setParameters(["score": .double(number)])
                Issue.record("\(number) was set")
            } catch {
                #expect(error.code == "non-finite-double" && error.message.contains("'score'"), "\(error.message)")
            }
        }
        #expect(throws: TipError.nonFiniteValue(parameter: "score", value: .infinity)) {
            try center.setParameters(["other": .double(0.7), "score": .double(.infinity)])
        }
        #expect(try center.parameterValue("score") == .double(0.5))
        #expect(try center.parameterValue("other") == .double(0), "a batch with one refused value changes nothing")
        #expect(try persistence.load().parameters.isEmpty, "nothing was stored")
        try center.setParameter("score", to: .double(0.95))
        #expect(try center.status(of: "t") == .available)

        // One stored by an older runtime, or merged in, stays in the store unused: the default stands.
        let older = MemoryPersistence(snapshot: StoreSnapshot(parameters: [
            "score": ParameterRecord(value: .double(.nan), stamp: Stamp(milliseconds: testStart, device: "old")),
        ]))
        let reopened = try makeCenter(Self.scored, persistence: older)
        #expect(try reopened.parameterValue("score") == .double(0.5))
        #expect(try reopened.status(of: "t") == .pending)
        #expect(try older.load().parameters["score"]?.value.storageText == "d:nan", "the stored value is left as it was")
    }

    static let scored = """
    tipkit 1
    param score: Double = 0.5
    param other: Double = 0
    tip t {
      title "T"
      rule $score > 0.9
    }
    """

    @Test func resetDatastoreClearsEverything() throws {
        let center = try makeCenter(Self.source)
        try center.setParameter("signedIn", to: .bool(true))
        for _ in 0..<3 { try center.donate("searched") }
        try center.invalidate("timed", reason: .tipClosed)
        try center.resetDatastore()
        #expect(try center.parameterValue("signedIn") == .bool(false))
        #expect(center.donationCount(of: "searched") == 0)
        #expect(try center.status(of: "timed") == .available)
        #expect(try center.snapshot() == .empty)
    }
}

@Suite("Runtime: display frequency")
struct DisplayFrequencyTests {
    static let source = """
    tipkit 1
    displayFrequency daily
    tip first {
      title "First"
    }
    tip second {
      title "Second"
    }
    tip exempt {
      title "Exempt"
      ignoresDisplayFrequency true
    }
    """

    @Test func aFirstDisplayStartsTheGapForOtherNewTips() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        #expect(try center.shouldDisplay("first") && center.shouldDisplay("second"))
        try center.recordDisplay("first")
        #expect(try center.shouldDisplay("first"), "a tip already displayed may display again")
        #expect(try !center.shouldDisplay("second"))
        #expect(try center.shouldDisplay("exempt"), "exempt tips do not wait for the gap")
        clock.set(milliseconds: testStart + 12 * oneHour)
        try center.recordDisplay("first")
        clock.set(milliseconds: testStart + oneDay - 1)
        #expect(try !center.shouldDisplay("second"))
        clock.set(milliseconds: testStart + oneDay)
        #expect(try center.shouldDisplay("second"), "a repeat display does not restart the gap")
    }

    @Test func exemptTipsDoNotStartAGap() throws {
        let center = try makeCenter(Self.source)
        try center.recordDisplay("exempt")
        #expect(try center.shouldDisplay("first"))
        #expect(try center.shouldDisplay("second"))
    }

    @Test func immediateAndCustomFrequencies() throws {
        let immediate = try makeCenter(Self.source.replacingOccurrences(of: "displayFrequency daily\n", with: ""))
        try immediate.recordDisplay("first")
        #expect(try immediate.shouldDisplay("second"))

        let clock = ManualClock(now: testStart)
        let custom = try makeCenter(Self.source.replacingOccurrences(of: "daily", with: "90m"), clock: clock)
        try custom.recordDisplay("first")
        clock.advance(milliseconds: 89 * oneMinute)
        #expect(try !custom.shouldDisplay("second"))
        clock.advance(milliseconds: oneMinute)
        #expect(try custom.shouldDisplay("second"))
    }
}

@Suite("Runtime: groups and testing overrides")
struct GroupAndOverrideTests {
    static let source = """
    tipkit 1
    param ready: Bool = false
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
    tip alpha {
      title "Alpha"
      rule $ready
    }
    tip beta {
      title "Beta"
    }
    group onboarding ordered { welcome, swipe, personalize }
    group extras firstAvailable { alpha, beta }
    """

    @Test func orderedGroupsOfferATipOnlyAfterEveryEarlierOneIsInvalidated() throws {
        let center = try makeCenter(Self.source)
        #expect(try center.shouldDisplay("welcome"))
        #expect(try !center.shouldDisplay("swipe"))
        try center.invalidate("welcome", reason: .tipClosed)
        #expect(try center.shouldDisplay("swipe"))
        try center.invalidate("swipe", reason: .actionPerformed)
        #expect(try !center.shouldDisplay("personalize"), "offered, but its rule does not hold")
        try center.setParameter("ready", to: .bool(true))
        #expect(try center.shouldDisplay("personalize"))
    }

    @Test func firstAvailableGroupsOfferTheFirstAvailableTip() throws {
        let center = try makeCenter(Self.source)
        #expect(try !center.shouldDisplay("alpha"))
        #expect(try center.shouldDisplay("beta"))
        try center.setParameter("ready", to: .bool(true))
        #expect(try center.shouldDisplay("alpha"))
        #expect(try !center.shouldDisplay("beta"))
    }

    @Test func overridesFollowTipKitsPrecedence() throws {
        let center = try makeCenter(Self.source)
        center.hideAllTipsForTesting()
        #expect(try !center.shouldDisplay("welcome"))
        center.showAllTipsForTesting()
        #expect(try center.shouldDisplay("personalize"), "show overrides rules")
        center.hideTipsForTesting(["beta"])
        #expect(try !center.shouldDisplay("beta"), "hideTips beats showAll")
        center.showTipsForTesting(["beta"])
        #expect(try center.shouldDisplay("beta"), "showTips beats hideTips")
        try center.invalidate("swipe", reason: .tipClosed)
        center.showTipsForTesting(["swipe"])
        #expect(try center.shouldDisplay("swipe"), "show overrides eligibility too")
        center.clearTestingOverrides()
        #expect(try !center.shouldDisplay("swipe"))
    }
}

@Suite("Runtime: persistence, transient parameters and donation limits")
struct PersistenceSemanticsTests {
    static let source = """
    tipkit 1
    param signedIn: Bool = false
    param sheetOpen: Bool = false transient
    event viewed { itemID: Int } limit 3
    event opened within 1d
    tip t {
      title "T"
      rule $signedIn or $sheetOpen
      rule viewed.count >= 0 and opened.count >= 0
    }
    """

    @Test(arguments: ["memory", "sqlite"])
    func stateSurvivesANewRuntimeButTransientParametersDoNot(_ kind: String) throws {
        let persistence: any TipPersistence = kind == "memory" ? MemoryPersistence(deviceID: "d") : try SQLitePersistence(path: temporaryDatabasePath())
        let first = try makeCenter(Self.source, persistence: persistence)
        try first.setParameters(["signedIn": .bool(true), "sheetOpen": .bool(true)])
        try first.donate("viewed", value: ["itemID": .int(7)])
        try first.invalidate("t", reason: .actionPerformed)

        let second = try makeCenter(Self.source, persistence: persistence)
        #expect(try second.parameterValue("signedIn") == .bool(true))
        #expect(try second.parameterValue("sheetOpen") == .bool(false))
        #expect(second.donationCount(of: "viewed") == 1)
        #expect(try second.status(of: "t") == .invalidated(.actionPerformed))
    }

    @Test(arguments: ["memory", "sqlite"])
    func donationLimitsTrimTheOldestInMemoryAndInTheStore(_ kind: String) throws {
        let persistence: any TipPersistence = kind == "memory" ? MemoryPersistence(deviceID: "d") : try SQLitePersistence(path: temporaryDatabasePath())
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock, persistence: persistence)
        for item in 1...5 { try center.donate("viewed", value: ["itemID": .int(Int64(item))], at: testStart + Int64(item)) }
        #expect(center.donationCount(of: "viewed") == 3)
        let kept = try persistence.load().donations.values.filter { $0.event == "viewed" }.compactMap { $0.value["itemID"] }
        #expect(Set(kept) == [.int(3), .int(4), .int(5)])

        try center.donate("opened", at: testStart)
        // Dated a day ahead (a device with a wrong clock): the age counts from now, so it
        // trims nothing.
        try center.donate("opened", at: testStart + oneDay + 1)
        #expect(center.donationCount(of: "opened") == 2)
        #expect(try persistence.load().donations.values.filter { $0.event == "opened" }.count == 2)
        // A day later the first is past `maximumAge`: gone from the rules at once, and from
        // the store with the next donation.
        clock.advance(milliseconds: oneDay + 1)
        #expect(center.donationCount(of: "opened") == 1)
        try center.donate("opened")
        #expect(try persistence.load().donations.values.filter { $0.event == "opened" }.count == 2)
        #expect(center.donationCount(of: "opened") == 2)
        #expect(try makeCenter(Self.source, persistence: persistence).donationCount(of: "viewed") == 3)
    }

    @Test func aBatchWithOneBadDonationStoresNone() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.self) {
            try center.donate([PendingDonation(event: "opened", milliseconds: testStart), PendingDonation(event: "viewed", milliseconds: testStart)])
        }
        #expect(center.donationCount(of: "opened") == 0)
    }
}

/// Times reach an app as `Date` and `TimeInterval`: in values, in donated batches and in the
/// loaded pack; the runtime keeps whole milliseconds underneath.
@Suite struct SwiftTimeTypesTests {
    static let source = """
    tipkit 1
    displayFrequency hourly
    param renewsOn: Date = date("2026-01-01T00:00:00Z")
    param session: Duration = 0s
    event opened limit 1000 within 7d
    tip renew {
      title "Renew"
      maxDisplayDuration 90s
      rule $renewsOn - now <= 3d
      rule $session >= 2m
      rule opened.count >= 2
    }
    """

    @Test func valuesBatchesAndThePackSpeakDateAndTimeInterval() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        let renewal = center.now.addingTimeInterval(2 * 86_400)
        try center.setParameter("renewsOn", to: .date(renewal))
        try center.setParameter("session", to: .duration(150.25))
        #expect(try center.parameterValue("renewsOn").dateValue == renewal)
        #expect(try center.parameterValue("renewsOn") == .date(milliseconds: testStart + 2 * 86_400_000))
        #expect(try center.parameterValue("session").durationValue == 150.25)
        #expect(try center.parameterValue("session").dateValue == nil)
        #expect(RuntimeValue.bool(true).durationValue == nil)
        // A time with no 64-bit millisecond form is refused, never clamped or wrapped.
        for unrepresentable in [TimeInterval.nan, .infinity, -.infinity, 1e17] {
            #expect(throws: TipError.self) { try RuntimeValue.duration(unrepresentable) }
        }
        do {
            _ = try RuntimeValue.date(Date(timeIntervalSince1970: 1e17))
            Issue.record("a date 10^17 s after 1970 was made a value")
        } catch {
            #expect(error.code == "unrepresentable-time" && error.message.contains("1e+17"), "\(error.message)")
        }
        #expect(try RuntimeValue.duration(-0.0004) == .duration(milliseconds: 0))
        #expect(try RuntimeValue.duration(1.0006) == .duration(milliseconds: 1001))

        var batch = [PendingDonation("opened", at: center.now), PendingDonation("opened", at: center.now)]
        batch[0].date = center.now.addingTimeInterval(-60)
        #expect(batch[0].date == center.now.addingTimeInterval(-60))
        let records = try center.donate(batch)
        #expect(records.map(\.date) == [testStart - 60_000, testStart])
        #expect(records.map(\.timestamp) == [center.now.addingTimeInterval(-60), center.now])
        #expect(try center.status(of: "renew") == .available)
        // A renewal further off than three days fails the first rule.
        try center.setParameter("renewsOn", to: .date(center.now.addingTimeInterval(4 * 86_400)))
        #expect(try center.status(of: "renew") == .pending)

        let pack = center.pack
        #expect(pack.displayFrequency == 3_600)
        #expect(pack.events[0].maximumAge == 604_800)
        #expect(pack.tips[0].maxDisplayDuration == 90)
    }
}
