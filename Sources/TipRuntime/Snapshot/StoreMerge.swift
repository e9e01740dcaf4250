/// Merging two stores' snapshots, for sync between devices. Every rule below picks
/// its result by a total order, so merging is commutative, associative and idempotent:
///
/// - donations and tip records (displays, invalidations, resets): the union by id, so nothing
///   either side acknowledged is lost, and counts and eligibility are derived from the union;
/// - parameters: last writer wins by stamp (time, then device, then the stored value's bytes);
/// - the latest first display: the later one;
/// - donation deletions (`deleteDonations(of:)`): the later instant per event. The donations a
///   deletion covers stay in the union (a set that only grows) and are left out of evaluation;
/// - assignments: per experiment and salt, the earliest (`AssignmentRecord.precedes`).
///
/// Two different records under one id are a collision: an error, never a silent choice.
extension StoreSnapshot {
    /// This snapshot and `other` merged for sync: donations and tip records by union of their
    /// ids, parameters by last writer (stamp), donation deletions by the later instant,
    /// assignments by the earliest. Throws a `collision` error when one id holds two different
    /// records.
    public func merged(with other: StoreSnapshot) throws(TipStoreError) -> StoreSnapshot {
        var result = self
        for donation in other.donations.values { try result.insert(donation) }
        for record in other.tipRecords.values { try result.insert(record) }
        for (name, record) in other.parameters { result.write(parameter: name, record) }
        result.latestFirstDisplay = Self.maximum(latestFirstDisplay, other.latestFirstDisplay)
        result.donationDeletions.merge(other.donationDeletions, uniquingKeysWith: max)
        for assignment in other.assignments.values { try result.insert(assignment) }
        return result
    }

    /// Keeps the earlier of two assignments of one experiment and salt; the same assignment
    /// again changes nothing, another one under its id is a collision.
    package mutating func insert(_ assignment: AssignmentRecord) throws(TipStoreError) {
        guard let existing = assignments[assignment.key] else {
            assignments[assignment.key] = assignment
            return
        }
        if existing.id.utf8.elementsEqual(assignment.id.utf8) {
            guard existing == assignment else { throw TipStoreError.collision("assignment", id: assignment.id) }
            return
        }
        if AssignmentRecord.precedes(assignment, existing) { assignments[assignment.key] = assignment }
    }

    /// Adds a donation by union: the same donation again changes nothing, another one under its
    /// id is a collision.
    mutating func insert(_ donation: DonationRecord) throws(TipStoreError) {
        guard let existing = donations[donation.id] else {
            donations[donation.id] = donation
            return
        }
        guard existing == donation else { throw TipStoreError.collision("donation", id: donation.id) }
    }

    /// Adds a tip record by union: the same record again changes nothing, two copies of one
    /// version-1 display counter merge (`TipEventRecord.mergingCopies`), any other record
    /// under its id is a collision.
    mutating func insert(_ record: TipEventRecord) throws(TipStoreError) {
        guard let existing = tipRecords[record.id], existing != record else {
            tipRecords[record.id] = record
            return
        }
        guard let merged = TipEventRecord.mergingCopies(existing, record) else { throw TipStoreError.collision("tip record", id: record.id) }
        tipRecords[record.id] = merged
    }

    /// Stores a parameter's value unless the snapshot holds a later write of it.
    mutating func write(parameter name: String, _ record: ParameterRecord) {
        parameters[name] = parameters[name].map { ParameterRecord.later($0, record) } ?? record
    }

    static func maximum<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        switch (a, b) {
        case (nil, _): return b
        case (_, nil): return a
        case (let a?, let b?): return max(a, b)
        }
    }
}

extension TipEventRecord {
    /// The ids of display counters migrated from a version-1 store: copies of one (synced
    /// devices, a restored backup) merge instead of colliding.
    package static let versionOneDisplayPrefix = "v1-display:"

    /// Two copies of one display counter migrated from a version-1 store (ids `v1-display:…`)
    /// merge as version 1 merged them: the larger count and time on screen, the earlier stamp.
    /// Copies are displays of one tip, without a key, on one device, dated by their stamps
    /// (as version-1 records are). Nil for any other two records under one id: a collision.
    package static func mergingCopies(_ a: TipEventRecord, _ b: TipEventRecord) -> TipEventRecord? {
        guard a.id == b.id, a.id.utf8.starts(with: versionOneDisplayPrefix.utf8), a.tip == b.tip, a.key == nil, b.key == nil,
              a.arm == nil, b.arm == nil,
              a.stamp.device == b.stamp.device, a.date == a.stamp.milliseconds, b.date == b.stamp.milliseconds,
              case .display(let countA, let msA) = a.kind, case .display(let countB, let msB) = b.kind else { return nil }
        var merged = a
        merged.stamp = min(a.stamp, b.stamp)
        merged.date = merged.stamp.milliseconds
        merged.kind = .display(count: max(countA, countB), milliseconds: max(msA, msB))
        return merged
    }
}

extension ParameterRecord {
    /// The last writer of two: the later stamp; on equal stamps (two copies of one store), the
    /// value whose stored form is greater byte by byte, as SQLite compares it.
    static func later(_ a: ParameterRecord, _ b: ParameterRecord) -> ParameterRecord {
        if a.stamp != b.stamp { return a.stamp > b.stamp ? a : b }
        return a.value.storageText.utf8.lexicographicallyPrecedes(b.value.storageText.utf8) ? b : a
    }
}

extension TipStoreError {
    /// Two different records share an id.
    public static func collision(_ what: String, id: String) -> TipStoreError {
        TipStoreError(.collision, "two different \(what)s share the id \(id); nothing was merged")
    }
}
