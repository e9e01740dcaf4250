import Testing
@testable import TipRuntime

/// `TipCenter.decision(of:key:)`, what the tip service answers for each tip, against the
/// explanation `tipc explain` prints: the same status, decision, arm and reason at every gate.
@Suite("Runtime: a tip's decision and reason in one call")
struct TipDecisionTests {
    static let source = """
    tipkit 1
    displayFrequency 1h
    param ready: Bool = false
    param divisor: Int = 0
    event searched
    tip welcome {
      title "Welcome"
    }
    tip swipe {
      title "Swipe"
    }
    tip personalize {
      title "Personalize"
      ignoresDisplayFrequency true
      rule $ready
      rule searched.count >= 1
    }
    tip risky {
      title "Risky"
      ignoresDisplayFrequency true
      rule 10 / $divisor > 1
    }
    tip held {
      title "Held"
    }
    tip favorite {
      title "Favorite"
      ignoresDisplayFrequency true
    }
    tip trail[trailID: Int] {
      title "Trail"
      rule searched.count >= 1
    }
    group onboarding ordered { welcome, swipe }
    experiment favoriteCopy on favorite {
      arm control 1
      arm holdout 1 hidden
      goal searched within 1d
    }
    """

    /// Every tip (and one instance of the keyed tip) decided, then explained: the two agree.
    /// Returns the reasons seen.
    func expectAgreement(_ center: TipCenter, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> [String] {
        var reasons: [String] = []
        for tip in center.pack.tips {
            let key: TipKey? = tip.key == nil ? nil : .int(1)
            let decision = try center.decision(of: tip.name, key: key)
            let explanation = try center.explanation(of: tip.name, key: key)
            #expect(decision.status == explanation.status, "\(tip.name)", sourceLocation: sourceLocation)
            #expect(decision.shouldDisplay == explanation.shouldDisplay, "\(tip.name)", sourceLocation: sourceLocation)
            #expect(decision.shouldDisplay == (try center.shouldDisplay(tip.name, key: key)), "\(tip.name)", sourceLocation: sourceLocation)
            #expect(decision.reasonNotDisplayed == explanation.reasonNotDisplayed, "\(tip.name)", sourceLocation: sourceLocation)
            #expect(decision.arm?.experiment.name == explanation.experiment?.name, "\(tip.name)", sourceLocation: sourceLocation)
            #expect(decision.arm?.arm.name == explanation.experiment?.arm, "\(tip.name)", sourceLocation: sourceLocation)
            if let reason = decision.reasonNotDisplayed { reasons.append(reason) }
        }
        return reasons
    }

    @Test func agreesWithTheExplanationAtEveryGate() throws {
        let clock = ManualClock(now: testStart)
        var seen: [String] = []
        // Units until one lands in the hidden arm (the arms share the units half and half).
        for unit in (0..<16).map({ "user-\($0)" }) {
            let center = try TipCenter(pack: try verifiedPack(Self.source), persistence: MemoryPersistence(deviceID: "phone"),
                                       clock: clock, assignmentUnit: unit)
            seen += try expectAgreement(center)
            try center.setParameter("ready", to: .bool(true))
            try center.setParameter("divisor", to: .int(20))
            try center.recordDisplay("welcome")
            seen += try expectAgreement(center)
            try center.invalidate("welcome", reason: .tipClosed)
            try center.donate("searched")
            center.hideTipsForTesting(["swipe"])
            seen += try expectAgreement(center)
            if seen.contains(where: { $0.hasPrefix("hidden arm") }) { break }
        }
        let expected = ["pending: rule 1 does not hold", "pending: rule 2 does not hold", "pending: rule 1 failed (division by zero)",
                        "group 'onboarding' offers 'welcome' first", "display frequency: no new tip before 2026-03-01T10:00:00Z",
                        "invalidated (tipClosed)", "hidden by a testing override",
                        "hidden arm 'holdout' of experiment 'favoriteCopy': never displayed"]
        for reason in expected { #expect(seen.contains(reason), "never seen: \(reason); seen: \(Set(seen))") }
    }

    @Test func throwsAsTheNamedCallsDo() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.unknownTip("nope")) { try center.decision(of: "nope") }
        #expect(throws: TipError.missingKey(tip: "trail", type: .int)) { try center.decision(of: "trail") }
        #expect(throws: TipError.unexpectedKey(tip: "welcome")) { try center.decision(of: "welcome", key: .int(1)) }
    }

    @Test func storesTheArmAndThrowsWhenTheStoreRefusesIt() throws {
        let persistence = FailingPersistence(deviceID: "phone")
        let center = try TipCenter(pack: try verifiedPack(Self.source), persistence: persistence, clock: ManualClock(now: testStart),
                                   assignmentUnit: "user-1")
        persistence.failsWrites = true
        #expect(throws: TipError.self) { try center.decision(of: "favorite") }
        #expect(try center.snapshot().assignments.isEmpty)
        persistence.failsWrites = false
        let decision = try center.decision(of: "favorite")
        #expect(try center.snapshot().assignments.values.map(\.arm) == [try #require(decision.arm).arm.name])
    }
}
