import Testing
@testable import TipRuntime

@Suite("Runtime: replacing the pack while running")
struct PackReplacementTests {
    static let version1 = """
    tipkit 1
    param isSignedIn: Bool = false
    param level: Int = 0
    event searched
    event opened
    tip advanced {
      title "Advanced"
      rule searched.count >= 2
    }
    tip gone {
      title "Gone"
    }
    """

    /// `advanced` now also needs `$isSignedIn`; `fresh` and `signedUp` are new; everything of
    /// version 1 is kept.
    static let version2 = """
    tipkit 1
    param isSignedIn: Bool = false
    param level: Int = 0
    event searched
    event opened
    event signedUp
    tip advanced {
      title "Advanced, again"
      rule searched.count >= 2
      rule $isSignedIn
    }
    tip gone {
      title "Gone"
    }
    tip fresh {
      title "Fresh"
    }
    """

    @Test func theStoreIsKeptAndReadUnderTheNewPack() throws {
        let persistence = MemoryPersistence(deviceID: "test")
        let center = try makeCenter(Self.version1, persistence: persistence)
        try center.donate("searched")
        try center.donate("searched")
        try center.donate("opened")
        try center.setParameter("level", to: .int(3))
        try center.recordDisplay("gone")
        let before = try persistence.load()
        #expect(try center.status(of: "advanced") == .available)

        try center.replacePack(try verifiedPack(Self.version2))
        #expect(try persistence.load() == before)
        #expect(center.pack.tips.map(\.title) == ["Advanced, again", "Gone", "Fresh"])
        #expect(try center.status(of: "advanced") == .pending)
        try center.setParameter("isSignedIn", to: .bool(true))
        #expect(try center.status(of: "advanced") == .available)
        #expect(try center.parameterValue("level") == .int(3))
        #expect(center.donationCount(of: "opened") == 1)
        #expect(try center.displayCount(of: "gone") == 1)
        #expect(try center.status(of: "fresh") == .available)
    }

    /// A store outlives its pack: a runtime opened over it with a pack that dropped or retyped
    /// names reads what still applies, and one opened with the first pack again reads all of it.
    @Test func aStoreOpenedUnderAnotherPackLosesNothing() throws {
        let persistence = MemoryPersistence(deviceID: "test")
        let first = try makeCenter(Self.version1, persistence: persistence)
        try first.setParameter("level", to: .int(3))
        try first.donate("opened")
        try first.recordDisplay("gone")
        let other = try makeCenter("tipkit 1\nparam level: String = \"none\"\ntip fresh {\n  title \"Fresh\"\n}\n", persistence: persistence)
        // The Int stored under the old type is not this pack's String: the default stands.
        #expect(try other.parameterValue("level") == .string("none"))
        #expect(throws: TipError.unknownTip("gone")) { try other.status(of: "gone") }
        let again = try makeCenter(Self.version1, persistence: persistence)
        #expect(try again.parameterValue("level") == .int(3))
        #expect(again.donationCount(of: "opened") == 1)
        #expect(try again.displayCount(of: "gone") == 1)
    }

    @Test func observersKeepTheirStreamsAndReceiveTheNewStatuses() async throws {
        let center = try makeCenter(Self.version1)
        try center.donate("searched")
        try center.donate("searched")
        var advanced = try center.statusUpdates(for: "advanced").makeAsyncIterator()
        #expect(await advanced.next() == .available)
        try center.replacePack(try verifiedPack(Self.version2))
        #expect(await advanced.next() == .pending)
        try center.setParameter("isSignedIn", to: .bool(true))
        #expect(await advanced.next() == .available)
    }

    @Test func testingOverridesAndTransientValuesStay() throws {
        let source = """
        tipkit 1
        param onboarding: Bool = false transient
        tip a {
          title "A"
          rule $onboarding
        }
        """
        let center = try makeCenter(source)
        try center.setParameter("onboarding", to: .bool(true))
        center.hideTipsForTesting(["a"])
        try center.replacePack(try verifiedPack(source.replacingOccurrences(of: "\"A\"", with: "\"A2\"")))
        #expect(try center.parameterValue("onboarding") == .bool(true))
        #expect(try center.status(of: "a") == .available)
        #expect(try center.shouldDisplay("a") == false)
    }
}
