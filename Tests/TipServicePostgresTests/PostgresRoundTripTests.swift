import Foundation
import Testing
import TipRuntime
import TipService
@testable import TipServicePostgres

extension PostgresTests {
    /// User ids are stored as bytes, never as PostgreSQL `text` (which cannot hold U+0000).
    /// (Every record's values round-trip in the store conformance suite.)
    @Suite("Exact values")
    struct RoundTrips {
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
