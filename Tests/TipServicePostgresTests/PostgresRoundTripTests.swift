import Foundation
import Testing
import TipRuntime
import TipService
@testable import TipServicePostgres

extension PostgresTests {
    /// Values come back exactly as written: strings are stored as bytes, never as PostgreSQL
    /// `text` (which cannot hold U+0000), integers as `bigint`.
    @Suite("Exact values")
    struct RoundTrips {
        static let strings = ["", "a\u{0}b\u{0}", "\u{0}", "é", "e\u{301}", "\u{301}leading mark", "🧑‍🚀", "=;\\", "tab\tnew\nline", "\u{FFFF}\u{10FFFF}",
                              String(repeating: "x", count: 70_000)]
        static let values: [RuntimeValue] = strings.map { .string($0) } + [
            .int(.min), .int(.max), .int(0), .int(-1), .double(-0.0), .double(.pi), .double(.infinity), .double(-.infinity),
            .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .bool(true), .bool(false),
            .date(milliseconds: .min), .date(milliseconds: .max), .duration(milliseconds: 0), .duration(milliseconds: .max),
        ]

        @Test func everyValueRoundTrips() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            let user = freshUser()
            var expected = StoreSnapshot()
            for (index, value) in Self.values.enumerated() {
                let donation = DonationRecord(id: "d\(index)\u{0}", event: "ev\u{0}\(index % 3)", date: Int64(index) - 5, value: ["f\u{0}=": value, "g": .int(1)])
                expected.donations[donation.id] = donation
                expected.parameters["p\(index)\u{0}"] = ParameterRecord(value: value, stamp: Stamp(milliseconds: .max - Int64(index), device: "dev\u{0}ice"))
            }
            let record = TipEventRecord(id: "r\u{0}", tip: "tip\u{0}é", stamp: Stamp(milliseconds: .min, device: ""), kind: .display(count: .max, milliseconds: .max))
            expected.tipRecords[record.id] = record
            for reason in InvalidationReason.allCases {
                let invalidation = TipEventRecord(tip: "t", stamp: Stamp(milliseconds: 1, device: "d"), kind: .invalidation(reason))
                expected.tipRecords[invalidation.id] = invalidation
            }
            let reset = TipEventRecord(tip: "t", stamp: Stamp(milliseconds: 2, device: "d"), kind: .reset)
            expected.tipRecords[reset.id] = reset
            expected.latestFirstDisplay = .min + 1
            try store.transaction(user: user) { persistence in
                try persistence.append(Array(expected.donations.values))
                try persistence.write(parameters: expected.parameters)
                try persistence.add(Array(expected.tipRecords.values), latestFirstDisplay: expected.latestFirstDisplay)
            }
            let loaded = try PostgresServiceStore(url: try TestCluster.url()).load(user: user)
            #expect(loaded == expected)
            // Donations come in their order: by date, same-instant ones by id.
            var order: [DonationRecord] = []
            _ = try store.transaction(user: user) { try $0.read { order.append($0) } }
            #expect(order == expected.donations.values.sorted(by: DonationRecord.precedes))
            // A snapshot (what GET reads: one statement, outside any transaction) reads the same,
            // in the same order, and a donation deletion too.
            try store.transaction(user: user) { try $0.deleteDonations(of: "absent", through: -7) }
            expected.donationDeletions = ["absent": -7]
            var snapshotOrder: [DonationRecord] = []
            var snapshot = try store.snapshot(user: user) { snapshotOrder.append($0) }
            snapshot.donations = Dictionary(uniqueKeysWithValues: snapshotOrder.map { ($0.id, $0) })
            #expect(snapshot == expected)
            #expect(snapshotOrder == order)
        }

        /// User ids are opaque: ids differing only after a U+0000, or in their last byte of 128,
        /// are different users, and each sees only its own records.
        @Test func userIDsAreOpaqueBytes() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            let base = freshUser()
            let users = [base, base + "\u{0}", base + "\u{0}x", String(repeating: "é", count: 64), String(repeating: "é", count: 63) + "e\u{301}"]
            for (index, user) in users.enumerated() {
                try store.transaction(user: user) { persistence in
                    try persistence.append([DonationRecord(id: "same-id", event: "e", date: Int64(index))])
                    try persistence.write(parameters: ["p": ParameterRecord(value: .int(Int64(index)), stamp: Stamp(milliseconds: 1, device: "d"))])
                }
            }
            for (index, user) in users.enumerated() {
                let snapshot = try store.load(user: user)
                #expect(snapshot.donations.values.map(\.date) == [Int64(index)])
                #expect(snapshot.parameters["p"]?.value == .int(Int64(index)))
            }
        }

        /// The device id stamping a user's writes is the one every service store uses for the user.
        @Test func theDeviceIDIsTheServicesForTheUser() throws {
            let user = freshUser()
            let deviceID = try PostgresServiceStore(url: try TestCluster.url()).transaction(user: user) { $0.deviceID }
            #expect(deviceID == ServiceDeviceID.forUser(user))
        }
    }
}
