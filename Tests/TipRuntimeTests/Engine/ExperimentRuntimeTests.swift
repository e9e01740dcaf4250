import Foundation
import Testing
@testable import TipRuntime
@testable import TipRuntimeSQLite
import TipcTestSupport

/// Experiments on a device: who is assigned which arm and when that is stored, what a display
/// and a hidden arm record, and what the arm shows. Units and arms are the golden vectors of
/// docs/experiments.md: under salt `favoriteCopy-1` with weights 45/45/10, `user-1` is in
/// `short` (bucket 7082), `user-2` in `control` (3920), `user-32` in `holdout` (9740); under
/// `favoriteCopy-2`, `user-1` is in `control` (907).
@Suite("Runtime: experiment assignment, exposures and arms' texts")
struct ExperimentRuntimeTests {
    static func source(control: Int = 45, short: Int = 45, holdout: Int = 10, salt: String = "favoriteCopy-1",
                       withShort: Bool = true) -> String {
        """
        tipkit 1
        defaultLocale en
        param isPro: Bool = false
        event backyardViewed
        event backyardFavorited
        tip favoriteBackyard {
          title { en: "Save {backyard} as a favorite", de: "{backyard} als Favorit sichern" }
          message "Favorites appear at the top of the list."
          action "favorite" "Favorite it"
          placeholders { backyard: String }
          rule backyardViewed.count >= 1
        }
        tip newTrail[trailID: Int] {
          title "A new trail"
          rule backyardViewed.count >= 1
        }
        experiment favoriteCopy on favoriteBackyard {
          arm control \(control)
        \(withShort ? """
          arm short \(short) {
            title { en: "Star {backyard}", de: "{backyard} merken" }
            message "Starred backyards come first."
            image "star"
            action "star" "Star it"
          }
        """ : "")
          arm holdout \(holdout) hidden
          goal backyardFavorited within 7d
          salt "\(salt)"
        }
        experiment trailCopy on newTrail {
          arm control 1
          arm holdout 1 hidden
          goal backyardFavorited within 1d
        }
        """
    }

    static func center(_ source: String = source(), unit: String? = "user-1", persistence: any TipPersistence = MemoryPersistence(deviceID: "phone"),
                       clock: ManualClock = ManualClock(now: testStart)) throws -> TipCenter {
        try TipCenter(pack: try verifiedPack(source), persistence: persistence, clock: clock, assignmentUnit: unit)
    }

    static func exposures(_ center: TipCenter) throws -> [TipEventRecord] {
        try center.snapshot().tipRecords.values.filter { if case .exposure = $0.kind { return true } else { return false } }
            .sorted { $0.date < $1.date }
    }

    @Test func theUnitIsTheAppsAccountElseTheStoresDevice() throws {
        #expect(try Self.center(unit: "user-1").arm(of: "favoriteBackyard")?.arm.name == "short")
        #expect(try Self.center(unit: "user-2").arm(of: "favoriteBackyard")?.arm.name == "control")
        let device = try Self.center(unit: nil, persistence: MemoryPersistence(deviceID: "user-32"))
        #expect(device.assignmentUnit == "user-32")
        #expect(try device.arm(of: "favoriteBackyard")?.arm.name == "holdout")
        #expect(try Self.center("tipkit 1\ntip plain { title \"Plain\" }\n").arm(of: "plain") == nil)
        #expect(throws: TipError.unknownTip("nope")) { try Self.center().arm(of: "nope") }
    }

    @Test func theArmIsStoredTheFirstTimeItIsNeededAndNotBefore() throws {
        let clock = ManualClock(now: testStart)
        let center = try Self.center(clock: clock)
        try center.donate("backyardViewed")
        _ = try center.status(of: "favoriteBackyard")
        _ = center.statuses()
        #expect(try center.explanation(of: "favoriteBackyard").experiment?.arm == "short", "explaining names the arm")
        #expect(try center.snapshot().assignments.isEmpty, "a status and an explanation do not need the arm")
        clock.advance(milliseconds: oneMinute)
        #expect(try center.shouldDisplay("favoriteBackyard"))
        let stored = try #require(try center.snapshot().assignment(experiment: "favoriteCopy", salt: "favoriteCopy-1"))
        #expect(stored.arm == "short" && stored.date == testStart + oneMinute && !stored.id.isEmpty)
        clock.advance(milliseconds: oneMinute)
        _ = try center.content(of: "favoriteBackyard", locale: "en", values: ["backyard": "Elm"])
        try center.recordDisplay("favoriteBackyard")
        #expect(try center.snapshot().assignments.values.map(\.id) == [stored.id], "needed again, the stored one holds")
        // Each of content, a display and a group's decision needs it on a fresh store.
        for need in [{ (c: TipCenter) in _ = try c.content(of: "favoriteBackyard", locale: "en", values: ["backyard": "Elm"]) },
                     { (c: TipCenter) in try c.recordDisplay("favoriteBackyard") }] {
            let fresh = try Self.center()
            try need(fresh)
            #expect(try fresh.snapshot().assignments.count == 1)
        }
    }

    @Test func aWeightChangeMovesNoAssignedUserButAssignsNewOnesByTheNewWeights() throws {
        let persistence = MemoryPersistence(deviceID: "phone")
        let before = try Self.center(persistence: persistence)
        #expect(try before.arm(of: "favoriteBackyard")?.arm.name == "short")
        // Under 80/10/10, bucket 7082 is control's: user-1 stays in short, a new user follows the weights.
        let reweighted = Self.source(control: 80, short: 10, holdout: 10)
        let after = try Self.center(reweighted, persistence: persistence)
        #expect(try after.arm(of: "favoriteBackyard")?.arm.name == "short")
        #expect(try Self.center(reweighted).arm(of: "favoriteBackyard")?.arm.name == "control")
        // The same while running: replacing the pack keeps the unit and the assignment.
        try before.replacePack(try verifiedPack(reweighted))
        #expect(try before.arm(of: "favoriteBackyard")?.arm.name == "short")
        #expect(before.assignmentUnit == "user-1")
    }

    @Test func anArmThatNoLongerExistsAssignsAfreshAndTheStoredAssignmentStays() throws {
        let persistence = MemoryPersistence(deviceID: "phone")
        let clock = ManualClock(now: testStart)
        #expect(try Self.center(persistence: persistence, clock: clock).arm(of: "favoriteBackyard")?.arm.name == "short")
        let withoutShort = try Self.center(Self.source(withShort: false), persistence: persistence, clock: clock)
        try withoutShort.donate("backyardViewed")
        let choice = try #require(try withoutShort.arm(of: "favoriteBackyard"))
        #expect(choice.arm.name == "control", "bucket 7082 of 45/10 is control's")
        try withoutShort.recordDisplay("favoriteBackyard")
        let display = try withoutShort.snapshot().tipRecords.values.first { if case .display = $0.kind { return true } else { return false } }
        #expect(display?.arm == "control")
        // The earliest assignment holds wherever stores merge, so the record is not replaced.
        #expect(try withoutShort.snapshot().assignments.values.map(\.arm) == ["short"])
    }

    @Test func aNewSaltReBucketsAndKeepsTheOldAssignment() throws {
        let persistence = MemoryPersistence(deviceID: "phone")
        #expect(try Self.center(persistence: persistence).arm(of: "favoriteBackyard")?.arm.name == "short")
        let resalted = try Self.center(Self.source(salt: "favoriteCopy-2"), persistence: persistence)
        #expect(try resalted.arm(of: "favoriteBackyard")?.arm.name == "control")
        let stored = try resalted.snapshot()
        #expect(stored.assignment(experiment: "favoriteCopy", salt: "favoriteCopy-1")?.arm == "short")
        #expect(stored.assignment(experiment: "favoriteCopy", salt: "favoriteCopy-2")?.arm == "control")
    }

    @Test func twoDevicesThatMergedKeepTheEarliestAssignment() throws {
        // The tablet ran a pack with other weights (user-1 in control) a minute later.
        let phone = try Self.center(persistence: MemoryPersistence(deviceID: "phone"), clock: ManualClock(now: testStart))
        let tablet = try Self.center(Self.source(control: 80, short: 10, holdout: 10), persistence: MemoryPersistence(deviceID: "tablet"),
                                     clock: ManualClock(now: testStart + oneMinute))
        #expect(try phone.arm(of: "favoriteBackyard")?.arm.name == "short")
        #expect(try tablet.arm(of: "favoriteBackyard")?.arm.name == "control")
        let phoneSnapshot = try phone.snapshot(), tabletSnapshot = try tablet.snapshot()
        try phone.merge(tabletSnapshot)
        try tablet.merge(phoneSnapshot)
        for device in [phone, tablet] {
            #expect(try device.arm(of: "favoriteBackyard")?.arm.name == "short")
            #expect(try device.content(of: "favoriteBackyard", locale: "en", values: ["backyard": "Elm"]).title == "Star Elm")
            #expect(try device.snapshot().assignments.values.map(\.date) == [testStart])
            #expect(try device.snapshot().assignments.values.map(\.timestamp) == [Date(millisecondsSince1970: testStart)])
        }
    }

    @Test func theAssignmentSurvivesARestartOnSQLite() throws {
        let path = temporaryDatabasePath()
        let first = try Self.center(persistence: try SQLitePersistence(path: path))
        let assigned = try #require(try first.arm(of: "favoriteBackyard")?.assignment)
        let reopened = try Self.center(Self.source(control: 80, short: 10, holdout: 10), persistence: try SQLitePersistence(path: path))
        let again = try #require(try reopened.arm(of: "favoriteBackyard"))
        #expect(again.arm.name == "short" && again.assignment == assigned)
        #expect(try reopened.snapshot().assignments.count == 1)
    }

    @Test func aDisplayCarriesTheArmAndOtherRecordsDoNot() throws {
        let center = try Self.center()
        try center.donate("backyardViewed")
        try center.recordDisplay("favoriteBackyard", milliseconds: 1_500)
        try center.recordAction("favoriteBackyard", action: "star")
        try center.invalidate("favoriteBackyard", reason: .actionPerformed)
        try center.setParameter("isPro", to: .bool(true))
        let records = try center.snapshot().tipRecords.values
        #expect(records.count == 3)
        for record in records {
            if case .display = record.kind { #expect(record.arm == "short") } else { #expect(record.arm == nil) }
        }
    }

    @Test func anArmShowsItsOwnTextsImageAndActionsLocalizedWithPlaceholders() throws {
        let short = try Self.center(unit: "user-1")
        let english = try short.content(of: "favoriteBackyard", locale: "en-GB", values: ["backyard": "Elm"])
        #expect(english == TipContent(title: "Star Elm", message: "Starred backyards come first.", image: .symbol("star"),
                                      actions: [TipContent.Action(id: "star", title: "Star it")]))
        #expect(try short.content(of: "favoriteBackyard", locale: "de", values: ["backyard": "Elm"]).title == "Elm merken")
        #expect(throws: TipError.missingPlaceholderValue(tip: "favoriteBackyard", placeholder: "backyard")) {
            try short.content(of: "favoriteBackyard", locale: "en")
        }
        let control = try Self.center(unit: "user-2")
        #expect(try control.content(of: "favoriteBackyard", locale: "de", values: ["backyard": "Elm"])
                == TipContent(title: "Elm als Favorit sichern", message: "Favorites appear at the top of the list.",
                              actions: [TipContent.Action(id: "favorite", title: "Favorite it")]))
        // A tap on the arm's own action is one the user could make; another arm's is not.
        try short.recordAction("favoriteBackyard", action: "star")
        try short.recordAction("favoriteBackyard", action: "favorite")
        #expect(throws: TipError.unknownAction(tip: "favoriteBackyard", action: "star", declared: ["favorite"])) {
            try control.recordAction("favoriteBackyard", action: "star")
        }
    }

    @Test func aHiddenArmNeverDisplaysAndRecordsOneExposureTheFirstTimeItWouldHave() throws {
        let clock = ManualClock(now: testStart)
        let center = try Self.center(unit: "user-32", clock: clock)
        #expect(try !center.shouldDisplay("favoriteBackyard"))
        #expect(try Self.exposures(center).isEmpty, "pending: it would not have displayed")
        clock.advance(milliseconds: oneMinute)
        try center.donate("backyardViewed")
        #expect(try center.status(of: "favoriteBackyard") == .available, "the status is the rules' and stays available")
        #expect(try !center.shouldDisplay("favoriteBackyard"))
        clock.advance(milliseconds: oneMinute)
        #expect(try !center.shouldDisplay("favoriteBackyard"))
        let exposures = try Self.exposures(center)
        #expect(exposures.count == 1)
        #expect(exposures.first?.kind == .exposure(experiment: "favoriteCopy") && exposures.first?.arm == "holdout")
        #expect(exposures.first?.date == testStart + oneMinute)
        let explanation = try center.explanation(of: "favoriteBackyard")
        #expect(explanation.experiment?.arm == "holdout" && explanation.experiment?.isHidden == true)
        #expect(explanation.reasonNotDisplayed == "hidden arm 'holdout' of experiment 'favoriteCopy': never displayed")
        // Reopened over the same store: still one.
        let reopened = try Self.center(unit: "user-32", persistence: MemoryPersistence(deviceID: "phone", snapshot: try center.snapshot()), clock: clock)
        #expect(try !reopened.shouldDisplay("favoriteBackyard"))
        #expect(try Self.exposures(reopened).count == 1)
        // A new salt is a new assignment, with an exposure of its own once the user is again in a hidden arm.
        let resalted = try Self.center(Self.source(control: 0, short: 0, holdout: 1, salt: "favoriteCopy-3"), unit: "user-32",
                                       persistence: MemoryPersistence(deviceID: "phone", snapshot: try center.snapshot()), clock: clock)
        clock.advance(milliseconds: oneMinute)
        #expect(try !resalted.shouldDisplay("favoriteBackyard"))
        #expect(try Self.exposures(resalted).count == 2)
    }

    @Test func aTestingOverrideDecidesAHiddenArmWithoutAnExposure() throws {
        let center = try Self.center(unit: "user-32")
        try center.donate("backyardViewed")
        center.showTipsForTesting(["favoriteBackyard"])
        #expect(try center.shouldDisplay("favoriteBackyard"))
        #expect(try Self.exposures(center).isEmpty)
    }

    @Test func keyedInstancesShareTheArmAndOneExposure() throws {
        // Under salt `trailCopy` with weights 1/1, find a unit in the hidden arm.
        let assignment = try ExperimentAssignment(salt: "trailCopy", arms: [("control", 1), ("holdout", 1)])
        let unit = try #require((0..<100).map { "user-\($0)" }.first { assignment.arm(for: $0).name == "holdout" })
        let center = try Self.center(unit: unit)
        try center.donate("backyardViewed")
        for trail in 1...3 { #expect(try !center.shouldDisplay("newTrail", key: .int(Int64(trail)))) }
        let exposures = try Self.exposures(center)
        #expect(exposures.count == 1 && exposures.first?.key == .int(1) && exposures.first?.arm == "holdout")
        #expect(try center.snapshot().assignments.count == 1)
    }

    @Test func aGroupOffersNoTipInsteadOfOneInAHiddenArm() throws {
        let source = Self.source().replacingOccurrences(of: "experiment trailCopy", with: """
            tip later {
              title "Later"
            }
            group onboarding firstAvailable { favoriteBackyard, later }
            experiment trailCopy
            """)
        let hidden = try Self.center(source, unit: "user-32")
        try hidden.donate("backyardViewed")
        #expect(try hidden.currentTip(of: "onboarding") == nil)
        #expect(try Self.exposures(hidden).count == 1)
        let shown = try Self.center(source, unit: "user-1")
        try shown.donate("backyardViewed")
        #expect(try shown.currentTip(of: "onboarding") == "favoriteBackyard")
        #expect(try shown.snapshot().assignments.count == 1)
    }
}
