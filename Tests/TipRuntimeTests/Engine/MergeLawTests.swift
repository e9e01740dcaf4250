import Testing
@testable import TipRuntime

/// Random store states over a few devices, tips and parameters, with overlapping donation ids
/// and colliding stamps, as replicas of one user's data would have.
enum RandomSnapshots {
    static let devices = ["a", "b", "c"]

    static func stamp(_ g: inout SeededGenerator) -> Stamp {
        Stamp(milliseconds: Int64.random(in: 0..<20, using: &g), device: devices.randomElement(using: &g)!)
    }

    static func snapshot(_ g: inout SeededGenerator) -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for _ in 0..<Int.random(in: 0..<12, using: &g) {
            let device = devices.randomElement(using: &g)!
            let sequence = Int.random(in: 0..<8, using: &g)
            // A donation id always names the same donation on every replica.
            let record = DonationRecord(id: "\(device):\(sequence)", event: "e\(sequence % 3)", date: Int64(sequence * 1000),
                                        value: sequence % 2 == 0 ? ["n": .int(Int64(sequence))] : [:])
            snapshot.donations[record.id] = record
        }
        for name in ["p", "q"] where Bool.random(using: &g) {
            snapshot.parameters[name] = ParameterRecord(value: .int(Int64.random(in: 0..<3, using: &g)), stamp: stamp(&g))
        }
        for name in ["t1", "t2"] where Bool.random(using: &g) {
            var record = TipRecord()
            if Bool.random(using: &g) {
                record.invalidation = .init(reason: InvalidationReason.allCases.randomElement(using: &g)!, stamp: stamp(&g))
            }
            if Bool.random(using: &g) { record.reset = stamp(&g) }
            for device in devices where Bool.random(using: &g) {
                record.counters[device] = DisplayCounter(
                    epoch: Bool.random(using: &g) ? stamp(&g) : nil, count: Int64.random(in: 0..<5, using: &g),
                    durationMilliseconds: Int64.random(in: 0..<5, using: &g) * 1000,
                    firstDisplay: Bool.random(using: &g) ? Int64.random(in: 0..<10, using: &g) : nil)
            }
            snapshot.tips[name] = record
        }
        if Bool.random(using: &g) { snapshot.latestFirstDisplay = Int64.random(in: 0..<10, using: &g) }
        return snapshot
    }
}

@Suite("Store merge laws")
struct MergeLawTests {
    static let cases = 2_000

    @Test func mergeIsCommutativeAssociativeAndIdempotent() {
        var g = SeededGenerator(seed: 20_261_129)
        for _ in 0..<Self.cases {
            let a = RandomSnapshots.snapshot(&g), b = RandomSnapshots.snapshot(&g), c = RandomSnapshots.snapshot(&g)
            #expect(a.merged(with: b) == b.merged(with: a))
            #expect(a.merged(with: b).merged(with: c) == a.merged(with: b.merged(with: c)))
            #expect(a.merged(with: a) == a)
            #expect(a.merged(with: b).merged(with: b) == a.merged(with: b))
        }
    }

    @Test func noDonationIsEverLost() {
        var g = SeededGenerator(seed: 7)
        for _ in 0..<Self.cases {
            let a = RandomSnapshots.snapshot(&g), b = RandomSnapshots.snapshot(&g)
            let merged = a.merged(with: b)
            #expect(Set(merged.donations.keys) == Set(a.donations.keys).union(b.donations.keys))
        }
    }

    @Test func displayCountsAddUpAcrossDevicesAndCopiesOfOneCounterTakeTheLarger() {
        let reset = Stamp(milliseconds: 5, device: "a")
        var onA = TipRecord(reset: reset)
        onA.counters["a"] = DisplayCounter(epoch: reset, count: 2)
        var onB = TipRecord(reset: reset)
        onB.counters["b"] = DisplayCounter(epoch: reset, count: 3)
        var staleCopyOfA = TipRecord(reset: reset)
        staleCopyOfA.counters["a"] = DisplayCounter(epoch: reset, count: 1)
        let merged = onA.merged(with: onB).merged(with: staleCopyOfA)
        #expect(merged.displayCount == 5)
        // Counters from before the latest reset no longer count.
        var older = TipRecord()
        older.counters["c"] = DisplayCounter(epoch: nil, count: 9)
        #expect(merged.merged(with: older).displayCount == 5)
    }

    @Test func eligibilityIsLastWriterWins() {
        let invalidated = TipRecord(invalidation: .init(reason: .tipClosed, stamp: Stamp(milliseconds: 10, device: "a")))
        let resetLater = TipRecord(reset: Stamp(milliseconds: 11, device: "b"))
        #expect(invalidated.merged(with: resetLater).currentInvalidation == nil)
        let resetEarlier = TipRecord(reset: Stamp(milliseconds: 9, device: "b"))
        #expect(invalidated.merged(with: resetEarlier).currentInvalidation == .tipClosed)
    }

    @Test func runtimesOnTwoSQLiteStoresSyncByMerging() throws {
        let source = """
        tipkit 1
        param plan: String = "free"
        event opened
        tip t {
          title "T"
          maxDisplayCount 3
          rule opened.count >= 2 and $plan != "x"
        }
        """
        let clock = ManualClock(now: testStart)
        let phone = try makeCenter(source, clock: clock, persistence: try SQLitePersistence(path: temporaryDatabasePath("phone"), deviceID: "phone"))
        let tablet = try makeCenter(source, clock: clock, persistence: try SQLitePersistence(path: temporaryDatabasePath("tablet"), deviceID: "tablet"))
        try phone.donate("opened")
        try tablet.donate("opened")
        try phone.recordDisplay("t")
        clock.advance(by: 1)
        try tablet.recordDisplay("t")
        try tablet.setParameter("plan", to: .string("pro"))
        try phone.merge(try tablet.snapshot())
        try tablet.merge(try phone.snapshot())
        for center in [phone, tablet] {
            #expect(center.donationCount(of: "opened") == 2)
            #expect(try center.displayCount(of: "t") == 2)
            #expect(try center.parameter("plan") == .string("pro"))
        }
        #expect(try phone.snapshot() == tablet.snapshot())
        try phone.recordDisplay("t")
        #expect(try phone.status(of: "t") == .invalidated(.displayCountExceeded), "three displays over both devices")
    }
}
