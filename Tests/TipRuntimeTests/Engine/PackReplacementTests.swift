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

    /// `advanced` now also needs `$isSignedIn`; `level` became a String; `opened` is gone;
    /// `gone` is gone; `fresh` is new.
    static let version2 = """
    tipkit 1
    param isSignedIn: Bool = false
    param level: String = "none"
    event searched
    tip advanced {
      title "Advanced, again"
      rule searched.count >= 2
      rule $isSignedIn
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
        #expect(center.pack.tips.map(\.title) == ["Advanced, again", "Fresh"])
        #expect(try center.status(of: "advanced") == .pending)
        try center.setParameter("isSignedIn", to: .bool(true))
        #expect(try center.status(of: "advanced") == .available)
        // The Int stored under the old type is not this pack's String: the default stands.
        #expect(try center.parameter("level") == .string("none"))
        #expect(throws: TipError.unknownTip("gone")) { try center.status(of: "gone") }
        #expect(try center.status(of: "fresh") == .available)

        // Back to the first pack: nothing was lost, the Int reads again.
        try center.replacePack(try verifiedPack(Self.version1))
        #expect(try center.parameter("level") == .int(3))
        #expect(center.donationCount(of: "opened") == 1)
        #expect(try center.displayCount(of: "gone") == 1)
    }

    @Test func observersKeepTheirStreamsAndReceiveTheNewStatuses() async throws {
        let center = try makeCenter(Self.version1)
        try center.donate("searched")
        try center.donate("searched")
        var advanced = try center.statusUpdates(for: "advanced").makeAsyncIterator()
        var gone = try center.statusUpdates(for: "gone").makeAsyncIterator()
        #expect(await advanced.next() == .available)
        #expect(await gone.next() == .available)

        try center.replacePack(try verifiedPack(Self.version2))
        #expect(await advanced.next() == .pending)
        // The tip the new pack lacks: its stream ends.
        #expect(await gone.next() == nil)
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
        #expect(try center.parameter("onboarding") == .bool(true))
        #expect(try center.status(of: "a") == .available)
        #expect(try center.shouldDisplay("a") == false)
    }
}
