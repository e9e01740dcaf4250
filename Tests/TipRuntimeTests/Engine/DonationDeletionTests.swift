import Foundation
import Testing
@testable import TipRuntime
@testable import TipRuntimeSQLite
import TipcTestSupport

@Suite("Runtime: deleteDonations")
struct DonationDeletionTests {
    static let source = """
    tipkit 1
    event opened
    event searched
    tip t {
      title "T"
      rule opened.count >= 2
    }
    tip s {
      title "S"
      rule searched.count >= 1
    }
    """

    @Test(arguments: ["memory", "sqlite"])
    func deletedDonationsStopCountingAndLaterOnesCount(_ kind: String) throws {
        let clock = ManualClock(now: testStart)
        let path = temporaryDatabasePath()
        let persistence: any TipPersistence = kind == "memory" ? MemoryPersistence() : try SQLitePersistence(path: path)
        let center = try makeCenter(Self.source, clock: clock, persistence: persistence)
        try center.donate("opened")
        try center.donate("searched")
        clock.advance(milliseconds: oneMinute)
        try center.donate("opened")
        #expect(try center.status(of: "t") == .available)
        try center.deleteDonations(of: "opened")
        #expect(center.donationCount(of: "opened") == 0)
        #expect(center.donationCount(of: "searched") == 1, "other events keep theirs")
        #expect(try center.status(of: "t") == .pending)
        #expect(center.donationDeletion(of: "opened") == testStart + oneMinute)
        #expect(try center.snapshot().donations.values.map(\.event) == ["searched"], "the deleting store removes them")
        // A donation dated at or before the deletion is stored but does not count; later ones do.
        try center.donate("opened", at: testStart)
        #expect(center.donationCount(of: "opened") == 0)
        clock.advance(milliseconds: 1)
        try center.donate("opened")
        try center.donate("opened")
        #expect(try center.status(of: "t") == .available)
        if kind == "sqlite" {
            let reopened = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path))
            #expect(reopened.donationCount(of: "opened") == 2)
            #expect(reopened.donationDeletion(of: "opened") == testStart + oneMinute)
        }
    }

    @Test func anUnknownEventIsAnErrorAndChangesNothing() throws {
        let center = try makeCenter(Self.source)
        #expect(throws: TipError.donation(.unknownEventName("opend"))) { try center.deleteDonations(of: "opend") }
        #expect(try center.snapshot().donationDeletions.isEmpty)
    }

    @Test func observersReceiveTheStatusesTheDeletionChanges() async throws {
        let center = try makeCenter(Self.source)
        try center.donate("searched")
        var updates = try center.statusUpdates(for: "s").makeAsyncIterator()
        #expect(await updates.next() == .available)
        try center.deleteDonations(of: "searched")
        #expect(await updates.next() == .pending)
    }

    @Test func aDeletionReachesEveryDeviceByMergingAndCoversOlderDonationsMergedLater() throws {
        let clock = ManualClock(now: testStart)
        let phonePath = temporaryDatabasePath("phone"), tabletPath = temporaryDatabasePath("tablet")
        let phone = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: phonePath, deviceID: "phone"))
        let tablet = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: tabletPath, deviceID: "tablet"))
        try phone.donate("opened")
        try phone.donate("opened")
        try tablet.donate("opened")  // not synced yet when the phone deletes
        clock.advance(milliseconds: oneHour)
        try phone.deleteDonations(of: "opened")
        clock.advance(milliseconds: oneHour)
        try tablet.donate("opened")  // after the deletion: it stays
        try phone.merge(try tablet.snapshot())
        try tablet.merge(try phone.snapshot())
        for center in [phone, tablet] {
            #expect(center.donationCount(of: "opened") == 1)
            #expect(try center.status(of: "t") == .pending)
            #expect(center.donationDeletion(of: "opened") == testStart + oneHour)
        }
        #expect(try phone.snapshot() == tablet.snapshot())
        // A later deletion on the tablet wins over the phone's earlier one.
        clock.advance(milliseconds: oneHour)
        try tablet.deleteDonations(of: "opened")
        try phone.merge(try tablet.snapshot())
        #expect(phone.donationCount(of: "opened") == 0)
        #expect(phone.donationDeletion(of: "opened") == testStart + 3 * oneHour)
        // Reopened, the phone's store says the same.
        let reopened = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: phonePath))
        #expect(reopened.donationCount(of: "opened") == 0)
    }

    @Test func aStoreOfSchemaVersion2MigratesAndKeepsEverything() throws {
        let path = temporaryDatabasePath()
        let raw = try SQLiteConnection(path: path)
        try SQLiteMigrations(Array(SQLitePersistence.migrations.steps.prefix(2))).apply(to: raw)
        try raw.withSession { session in
            try session.execute("""
                INSERT INTO meta VALUES ('device_id', 'old'), ('latest_first_display', '\(testStart)');
                INSERT INTO donations VALUES ('d1', 'opened', \(testStart), ''), ('d2', 'opened', \(testStart + 1), ''),
                                             ('d3', 'searched', \(testStart), '');
                INSERT INTO tip_records VALUES ('r1', 's', 'invalidation', \(testStart + 2), 'old', 0, 0, 'tipClosed');
                INSERT INTO tip_records VALUES ('r2', 't', 'display', \(testStart + 3), 'old', 1, 500, NULL);
                """)
        }
        let clock = ManualClock(now: testStart + oneDay)
        let center = try makeCenter(Self.source, clock: clock, persistence: try SQLitePersistence(path: path))
        let version = try SQLiteConnection(path: path).withSession { session in try session.scalar("PRAGMA user_version") }
        #expect(version == .integer(SQLitePersistence.migrations.latestVersion))
        #expect(center.donationCount(of: "opened") == 2)
        #expect(try center.status(of: "t") == .available)
        #expect(try center.status(of: "s") == .invalidated(.tipClosed))
        #expect(try center.displayDurationMilliseconds(of: "t") == 500)
        #expect(try center.snapshot().latestFirstDisplay == testStart)
        try center.deleteDonations(of: "opened")
        #expect(try center.status(of: "t") == .pending)
        #expect(try SQLitePersistence(path: path).load().donationDeletions == ["opened": testStart + oneDay])
    }

    @Test func resettingTheDatastoreForgetsDeletions() throws {
        let center = try makeCenter(Self.source, persistence: try SQLitePersistence(path: temporaryDatabasePath()))
        try center.deleteDonations(of: "opened")
        try center.resetDatastore()
        #expect(try center.snapshot().donationDeletions.isEmpty)
        #expect(center.donationDeletion(of: "opened") == nil)
    }
}

@Suite("Store merge laws with donation deletions")
struct DeletionMergeLawTests {
    /// The donations that count: those no deletion covers.
    static func counted(_ snapshot: StoreSnapshot) -> Set<String> {
        Set(snapshot.donations.values.filter { donation in
            snapshot.donationDeletions[donation.event].map { donation.date > $0 } ?? true
        }.map(\.id))
    }

    @Test func theLaterDeletionWinsAndCoversEitherSidesDonations() throws {
        var g = SeededGenerator(seed: 11)
        for _ in 0..<MergeLawTests.cases {
            let universe = RandomSnapshots.universe(&g)
            let a = RandomSnapshots.snapshot(universe, &g), b = RandomSnapshots.snapshot(universe, &g)
            let merged = try a.merged(with: b)
            #expect(Set(merged.donations.keys) == Set(a.donations.keys).union(b.donations.keys), "stored donations are a union")
            for event in Set(a.donationDeletions.keys).union(b.donationDeletions.keys) {
                #expect(merged.donationDeletions[event] == StoreSnapshot.maximum(a.donationDeletions[event], b.donationDeletions[event]))
            }
            // A donation counts after the merge exactly when it counted on a side that had it and
            // no deletion of either side covers it.
            let expected = Set(merged.donations.values.filter { donation in
                [a.donationDeletions[donation.event], b.donationDeletions[donation.event]].allSatisfy { $0.map { donation.date > $0 } ?? true }
            }.map(\.id))
            #expect(Self.counted(merged) == expected)
        }
    }
}
