import TipRuntime

/// Many users' tip state, for the tip service. Every table is keyed by the user id
/// first and no transaction reads across users, so a store distributes by user.
///
/// `transaction(user:_:)` runs `body` as ONE database transaction over that user's records
/// only, serialised with every other transaction of the same user (across threads, processes
/// and servers); it commits when `body` returns and rolls back when it throws. The
/// `any TipPersistence` handed to `body` is a user-scoped view whose reads and writes all run
/// inside that transaction (its own "one transaction" writes become parts of the outer one);
/// it must not be used after `body` returns. Its `deviceID` is `ServiceDeviceID.forUser(user)`,
/// the same in every store, so a user's stamps do not depend on which store wrote them. A commit that fails throws, so a caller answers
/// 2xx only once the transaction is durable.
///
/// Errors: `TipStoreError` (kind `.unavailable` when the database cannot be reached: the
/// service answers 503), or whatever `body` throws, unchanged.
public protocol ServiceStore: Sendable {
    func transaction<T>(user: String, _ body: (any TipPersistence) throws -> T) throws -> T
    /// Reads the user's records for a request that only reads (`GET …/tips`): ONE consistent
    /// snapshot holding every transaction committed before the call (so every write the
    /// service acknowledged), taken without the user's lock: it never waits for a writer's
    /// transaction, and reads of one user run side by side. Hands the donations to `body`
    /// oldest first (same-instant ones by id), as `TipPersistence.read(donations:)` does.
    func snapshot(user: String, donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot
    /// How many records (donations, tip records and assignments) `user` holds, counted up to `limit` of
    /// each kind and no further, so that the count costs the same for a user holding
    /// millions. Read without the user's lock, like `snapshot`.
    func recordCount(user: String, atMost limit: Int) throws(TipStoreError) -> Int
    /// Cheap liveness probe of the database (for /healthz and 503s).
    func checkHealth() throws(TipStoreError)
    /// Counts `plan` over every user (`tipc report`, `GET /v1/report`) by aggregation in the
    /// database, in one consistent snapshot: never a user's records loaded one by one.
    func reportTallies(_ plan: ReportPlan) throws(TipStoreError) -> ReportTallies
}

/// A user-scoped view (what `ServiceStore.transaction` hands its body) that counts the
/// user's records inside the transaction, as `ServiceStore.recordCount(user:atMost:)` does.
public protocol UserRecordCounting {
    func recordCount(atMost limit: Int) throws(TipStoreError) -> Int
}

extension ServiceStore {
    /// A store without aggregation of its own cannot report: it says so.
    public func reportTallies(_ plan: ReportPlan) throws(TipStoreError) -> ReportTallies {
        throw TipStoreError(.io, "this store cannot count a report (it has no aggregation over its users)")
    }

    /// A store without a lock-free read path reads the snapshot inside the user's transaction.
    public func snapshot(user: String, donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot {
        do {
            return try transaction(user: user) { persistence in try persistence.read(donations: body) }
        } catch let error as TipStoreError {
            throw error
        } catch {
            throw TipStoreError(.io, "\(error)")
        }
    }

    /// A store without a lock-free count counts inside the user's transaction.
    public func recordCount(user: String, atMost limit: Int) throws(TipStoreError) -> Int {
        do {
            return try transaction(user: user) { persistence in try (persistence as? UserRecordCounting)?.recordCount(atMost: limit) ?? 0 }
        } catch let error as TipStoreError {
            throw error
        } catch {
            throw TipStoreError(.io, "\(error)")
        }
    }
}
