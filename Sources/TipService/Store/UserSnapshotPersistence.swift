import TipRuntime

/// One user's records for a request that only reads: a `TipPersistence` whose `read` is the
/// store's `snapshot(user:donations:)` (one consistent snapshot, no lock, no transaction
/// held while the runtime evaluates) and whose writes are all refused, so a `TipCenter`
/// opened over it can answer questions but never change the user's records.
final class UserSnapshotPersistence: TipPersistence {
    let store: any ServiceStore
    let user: String
    /// Stamps writes only, and this view writes nothing: not derived (`ServiceDeviceID`
    /// hashes the user id, a tenth of a GET's work).
    let deviceID = "serve-read-only"

    init(store: any ServiceStore, user: String) {
        self.store = store
        self.user = user
    }

    func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        try store.snapshot(user: user, donations: body)
    }

    func append(_ donations: [DonationRecord]) throws(TipStoreError) { throw refusal }
    func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) { throw refusal }
    func write(parameters: [String: ParameterRecord]) throws(TipStoreError) { throw refusal }
    func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) { throw refusal }
    func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError) { throw refusal }
    func merge(_ other: StoreSnapshot) throws(TipStoreError) { throw refusal }
    func clear() throws(TipStoreError) { throw refusal }
    func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) { throw refusal }

    private var refusal: TipStoreError {
        TipStoreError(.readOnly, "a read-only request cannot write the records of user '\(user)'")
    }
}
