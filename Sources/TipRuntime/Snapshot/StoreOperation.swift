/// Every change a store can make, as a value, and what it means: `applied(to:)` is the one
/// definition of each write over `StoreSnapshot`. `MemoryPersistence` is that definition behind
/// a lock; the SQL stores (the device's SQLite file, the service's SQLite and PostgreSQL
/// databases) implement it in SQL and are held to it by one conformance suite, which runs the
/// same operations on every store and compares each result with `applied(to:)`.
///
/// Every operation is all or nothing: one that throws leaves the snapshot (and a store) as it was.
package enum StoreOperation: Sendable, Hashable {
    /// `TipPersistence.append`: new donations, a union by id.
    case append([DonationRecord])
    /// `TipPersistence.trim`: an event's `donationLimit` (`DonationLimit`).
    case trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64)
    /// `TipPersistence.write(parameters:)`: last writer wins, per parameter.
    case write(parameters: [String: ParameterRecord])
    /// `TipPersistence.add`: tip records (displays, invalidations, resets, actions,
    /// exposures) by union, and the latest first display raised.
    case add([TipEventRecord], latestFirstDisplay: Int64?)
    /// `TipPersistence.assign`: experiment assignments, the earliest per experiment and salt.
    case assign([AssignmentRecord])
    /// `TipPersistence.merge`: another store's snapshot (`StoreSnapshot.merged(with:)`).
    case merge(StoreSnapshot)
    /// `TipPersistence.clear`: everything removed.
    case clear
    /// `TipPersistence.deleteDonations`: the later deletion instant kept, and the donations it
    /// covers removed.
    case deleteDonations(event: String, through: Int64)

    /// What `snapshot` holds after the operation; a collision (two different records under one
    /// id) throws, and then nothing changes.
    package func applied(to snapshot: StoreSnapshot) throws(TipStoreError) -> StoreSnapshot {
        var result = snapshot
        switch self {
        case .append(let donations):
            for donation in donations { try result.insert(donation) }
        case .trim(let event, let maximumCount, let maximumAgeMilliseconds, let now):
            let kept = DonationLimit.kept(result.donations.values.filter { $0.event == event },
                                          maximumCount: maximumCount, maximumAgeMilliseconds: maximumAgeMilliseconds, now: now)
            result.donations = result.donations.filter { $0.value.event != event || kept.contains($0.key) }
        case .write(let parameters):
            for (name, record) in parameters { result.write(parameter: name, record) }
        case .add(let records, let latestFirstDisplay):
            for record in records { try result.insert(record) }
            result.latestFirstDisplay = StoreSnapshot.maximum(result.latestFirstDisplay, latestFirstDisplay)
        case .assign(let assignments):
            for assignment in assignments { try result.insert(assignment) }
        case .merge(let other):
            result = try result.merged(with: other)
        case .clear:
            result = .empty
        case .deleteDonations(let event, let instant):
            let recorded = max(result.donationDeletions[event] ?? instant, instant)
            result.donationDeletions[event] = recorded
            result.donations = result.donations.filter { $0.value.event != event || $0.value.date > recorded }
        }
        return result
    }

    /// Performs the operation on `persistence`, by the `TipPersistence` method it stands for.
    package func perform(on persistence: any TipPersistence) throws(TipStoreError) {
        switch self {
        case .append(let donations): try persistence.append(donations)
        case .trim(let event, let maximumCount, let maximumAgeMilliseconds, let now):
            try persistence.trim(event: event, maximumCount: maximumCount, maximumAgeMilliseconds: maximumAgeMilliseconds, now: now)
        case .write(let parameters): try persistence.write(parameters: parameters)
        case .add(let records, let latestFirstDisplay): try persistence.add(records, latestFirstDisplay: latestFirstDisplay)
        case .assign(let assignments): try persistence.assign(assignments)
        case .merge(let other): try persistence.merge(other)
        case .clear: try persistence.clear()
        case .deleteDonations(let event, let instant): try persistence.deleteDonations(of: event, through: instant)
        }
    }
}
