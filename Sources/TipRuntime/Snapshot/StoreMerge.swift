/// Merging two stores' snapshots, for sync between devices. Every rule below picks
/// its result by a total order, so merging is commutative, associative and idempotent:
///
/// - donations and tip records (displays, invalidations, resets): the union by id, so nothing
///   either side acknowledged is lost, and counts and eligibility are derived from the union;
/// - parameters: last writer wins by stamp (time, then device, then the stored value's bytes);
/// - the latest first display: the later one;
/// - donation deletions (`deleteDonations(of:)`): the later instant per event. The donations a
///   deletion covers stay in the union (a set that only grows) and are left out of evaluation.
///
/// Two different records under one id are a collision: an error, never a silent choice.
extension StoreSnapshot {
    public func merged(with other: StoreSnapshot) throws(TipStoreError) -> StoreSnapshot {
        var result = self
        try Self.union(&result.donations, other.donations, what: "donation")
        for (id, record) in other.tipRecords {
            guard let existing = result.tipRecords[id], existing != record else {
                result.tipRecords[id] = record
                continue
            }
            guard let merged = TipEventRecord.mergingCopies(existing, record) else { throw TipStoreError.collision("tip record", id: id) }
            result.tipRecords[id] = merged
        }
        for (name, record) in other.parameters {
            result.parameters[name] = result.parameters[name].map { ParameterRecord.later($0, record) } ?? record
        }
        result.latestFirstDisplay = Self.maximum(latestFirstDisplay, other.latestFirstDisplay)
        result.donationDeletions.merge(other.donationDeletions, uniquingKeysWith: max)
        return result
    }

    private static func union<Record: Equatable>(_ mine: inout [String: Record], _ theirs: [String: Record],
                                                 what: String) throws(TipStoreError) {
        for (id, record) in theirs {
            if let existing = mine[id] {
                guard existing == record else { throw TipStoreError.collision(what, id: id) }
            } else {
                mine[id] = record
            }
        }
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
    /// Two copies of one display counter migrated from a version-1 store (ids `v1-display:…`)
    /// merge as version 1 merged them: the larger count and time on screen, the earlier stamp.
    /// Nil for any other two records under one id: a collision.
    public static func mergingCopies(_ a: TipEventRecord, _ b: TipEventRecord) -> TipEventRecord? {
        guard a.id == b.id, a.id.hasPrefix("v1-display:"), a.tip == b.tip,
              case .display(let countA, let msA) = a.kind, case .display(let countB, let msB) = b.kind else { return nil }
        var merged = a
        merged.stamp = min(a.stamp, b.stamp)
        // Version-1 records are dated by their stamps (SQLite keeps `date_ms` NULL for them).
        merged.date = min(a.date, b.date)
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
