import Foundation
import Testing
import TipRuntime
@testable import TipServicePostgres

extension PostgresTests {
    /// What only a PostgreSQL transaction does: the first failure dooms it. (What every store
    /// does, merges and their laws included, is the store conformance suite's.)
    @Suite("Transactions")
    struct Transactions {
        /// A failure the body catches still rolls the whole transaction back: nothing partial.
        @Test func aCaughtFailureStillRollsTheTransactionBack() throws {
            let store = try PostgresServiceStore(url: try TestCluster.url())
            let user = freshUser()
            try store.transaction(user: user) { try $0.append([DonationRecord(id: "x", event: "e", date: 1)]) }
            var caught: [TipStoreError.Kind] = []
            let error = #expect(throws: TipStoreError.self) {
                try store.transaction(user: user) { persistence in
                    try persistence.append([DonationRecord(id: "new", event: "e", date: 2)])
                    do throws(TipStoreError) { try persistence.append([DonationRecord(id: "x", event: "e", date: 9)]) } catch { caught.append(error.kind) }
                    // Later calls are refused too.
                    do throws(TipStoreError) { _ = try persistence.load() } catch { caught.append(error.kind) }
                }
            }
            #expect(error?.kind == .collision)
            #expect(caught == [.collision, .collision])
            #expect(try store.load(user: user).donations.keys.sorted() == ["x"])
            // A view used after its transaction ended is refused.
            let escaped = try store.transaction(user: user) { $0 }
            #expect(throws: TipStoreError.self) { try escaped.append([DonationRecord(id: "late", event: "e", date: 3)]) }
            #expect(try store.load(user: user).donations.keys.sorted() == ["x"])
        }
    }
}
