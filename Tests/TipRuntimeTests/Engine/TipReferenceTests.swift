import Testing
@testable import TipRuntime

/// References to tips, parameters, events and groups: checked once, queries through them do not
/// throw, and `replacePack` keeps what they name.
@Suite("Runtime: references checked once, queries that cannot fail")
struct TipReferenceTests {
    static let source = """
    tipkit 1
    param level: Int = 0
    param theme: String = "light" in ["light", "dark"]
    event searched
    tip welcome {
      title "Welcome"
    }
    tip advanced {
      title "Advanced"
      rule searched.count >= 2
    }
    tip newTrail[trailID: Int] {
      title "A new trail"
      rule searched.count >= 1
    }
    group onboarding ordered { welcome, advanced }
    """

    @Test func aReferenceIsCheckedWhenMadeAndItsQueriesAreTheNamedOnes() throws {
        let clock = ManualClock(now: testStart)
        let center = try makeCenter(Self.source, clock: clock)
        #expect(throws: TipError.unknownTip("nope")) { try center.tip(named: "nope") }
        #expect(throws: TipError.missingKey(tip: "newTrail", type: .int)) { try center.tip(named: "newTrail") }
        #expect(throws: TipError.wrongKeyType(tip: "newTrail", expected: .int, actual: .string)) {
            try center.tip(named: "newTrail", key: .string("7"))
        }
        #expect(throws: TipError.unexpectedKey(tip: "welcome")) { try center.tip(named: "welcome", key: .int(1)) }
        #expect(throws: TipError.unknownParameter("nope")) { try center.parameter(named: "nope") }
        #expect(throws: TipError.donation(.unknownEventName("nope"))) { try center.event(named: "nope") }
        #expect(throws: TipError.unknownGroup("nope")) { try center.group(named: "nope") }

        let advanced = try center.tip(named: "advanced")
        let searched = try center.event(named: "searched")
        let level = try center.parameter(named: "level")
        let theme = try center.parameter(named: "theme")
        #expect(level.type == .int && level.values == nil && theme.values == ["light", "dark"])
        #expect(advanced.status == .pending && searched.donationCount == 0)
        try searched.donate()
        try searched.donate()
        #expect(searched.donationCount == 2 && center.donationCount(of: "searched") == 2)
        #expect(try advanced.status == .available && advanced.status == center.status(of: "advanced"))
        try level.set(.int(4))
        #expect(try level.value == .int(4) && center.parameterValue("level") == .int(4))

        let trail = try center.tip(named: "newTrail", key: .int(7))
        #expect(try trail.instance(.int(8)) == center.tip(named: "newTrail", key: .int(8)))
        #expect(trail.instance(.int(8)) != trail && trail.description == "newTrail[7]")
        let shown = try trail.beginDisplay()
        clock.advance(by: 3)
        try shown.end()
        #expect(trail.displayCount == 1 && trail.displayDuration == 3 && trail.instance(.int(8)).displayCount == 0)
        #expect(try trail.explanation == center.explanation(of: "newTrail", key: .int(7)))

        let onboarding = try center.group(named: "onboarding")
        #expect(try onboarding.currentTip == center.tip(named: "welcome"))
        try onboarding.currentTip?.invalidate(reason: .tipClosed)
        #expect(try onboarding.currentTip == advanced && center.currentTip(of: "onboarding") == "advanced")
    }

    @Test func aDecisionAnswersWhenTheStoreRefusesTheArmAndTheNextOneStoresIt() throws {
        let persistence = FailingPersistence(deviceID: "phone")
        let center = try ExperimentRuntimeTests.center(unit: "user-32", persistence: persistence)
        try center.donate("backyardViewed")
        let tip = try center.tip(named: "favoriteBackyard")
        persistence.failsWrites = true
        #expect(!tip.shouldDisplay, "user-32 is in the hidden arm, stored or not")
        #expect(try center.snapshot().assignments.isEmpty && ExperimentRuntimeTests.exposures(center).isEmpty)
        do {
            _ = try center.shouldDisplay("favoriteBackyard")
            Issue.record("by name, the caller learns that the record was not stored")
        } catch {
            #expect(error.code == "store-failed")
        }
        do {
            _ = try center.arm(of: "favoriteBackyard")
            Issue.record("the arm could not be stored")
        } catch {
            #expect(error.code == "store-failed")
        }
        #expect(tip.arm?.arm.name == "holdout" && tip.arm?.assignment == nil, "the arm the unit hashes to, unstored")
        #expect(try center.snapshot().assignments.isEmpty)
        persistence.failsWrites = false
        #expect(tip.arm?.arm.name == "holdout" && tip.arm?.assignment != nil)
        #expect(try tip.arm == center.arm(of: "favoriteBackyard"))
        #expect(!tip.shouldDisplay)
        #expect(try center.snapshot().assignments.values.map(\.arm) == ["holdout"])
        #expect(try ExperimentRuntimeTests.exposures(center).count == 1)
    }

    @Test func aReplacementThatDropsOrRetypesANameIsRefusedAndChangesNothing() throws {
        let center = try makeCenter(Self.source)
        try center.donate("searched")
        try center.donate("searched")
        let advanced = try center.tip(named: "advanced")
        let incompatible = """
        tipkit 1
        param level: String = "none"
        param theme: String = "light" in ["light", "dark", "sepia"]
        event opened
        tip advanced {
          title "Advanced"
        }
        tip newTrail[trailID: String] {
          title "A new trail"
        }
        """
        let refusal = TipError.incompatiblePack([
            "tip 'welcome' is missing", "tip 'newTrail' has a String key, not an Int key",
            "parameter 'level' is a String, not an Int", "parameter 'theme' allows other values",
            "event 'searched' is missing", "group 'onboarding' is missing",
        ])
        #expect(refusal.code == "incompatible-pack")
        #expect(throws: refusal) { try center.replacePack(try verifiedPack(incompatible)) }
        #expect(center.pack.tips.map(\.name) == ["welcome", "advanced", "newTrail"])
        #expect(advanced.status == .available)
    }

    @Test func aCompatibleReplacementKeepsReferencesAndObserversOfTipsAndGroups() async throws {
        let center = try makeCenter(Self.source)
        let advanced = try center.tip(named: "advanced")
        let onboarding = try center.group(named: "onboarding")
        var statuses = advanced.statusUpdates().makeAsyncIterator()
        var offered = onboarding.currentTipUpdates().makeAsyncIterator()
        #expect(await statuses.next() == .pending)
        #expect(await offered.next() == "welcome")
        // Tips and groups reordered, a tip and a group added, a rule changed.
        let compatible = """
        tipkit 1
        param level: Int = 0
        param theme: String = "light" in ["dark", "light"]
        event searched
        event opened
        tip fresh {
          title "Fresh"
        }
        tip newTrail[trailID: Int] {
          title "A new trail"
        }
        tip advanced {
          title "Advanced, again"
          rule $level >= 1
        }
        tip welcome {
          title "Welcome"
          rule $level >= 2
        }
        group extras firstAvailable { fresh }
        group onboarding firstAvailable { welcome, advanced }
        """
        try center.replacePack(try verifiedPack(compatible))
        try center.setParameter("level", to: .int(1))
        #expect(await statuses.next() == .available)
        #expect(await offered.next() == "advanced")
        #expect(advanced.status == .available && onboarding.currentTip == advanced)
    }
}
