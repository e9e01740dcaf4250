/// Merging two stores' snapshots, for sync between devices (SPEC §6). Every rule below picks
/// its result by a total order, so merging is commutative, associative and idempotent:
///
/// - donations: the union by id; none is ever lost;
/// - parameters: last writer wins by stamp (time, then device);
/// - eligibility: the latest invalidation and the latest reset each win by stamp;
/// - display counters: kept per device; two copies of one device's counter merge to the
///   newer epoch, and within an epoch to the larger figures;
/// - the latest first display: the later one.
extension StoreSnapshot {
    public func merged(with other: StoreSnapshot) -> StoreSnapshot {
        var result = self
        for (id, donation) in other.donations {
            if let mine = result.donations[id] {
                result.donations[id] = Self.canonical(mine, donation)
            } else {
                result.donations[id] = donation
            }
        }
        for (name, record) in other.parameters {
            if let mine = result.parameters[name] {
                result.parameters[name] = Self.later(mine, record)
            } else {
                result.parameters[name] = record
            }
        }
        for (name, record) in other.tips {
            result.tips[name] = result.tips[name].map { $0.merged(with: record) } ?? record
        }
        result.latestFirstDisplay = Self.maximum(latestFirstDisplay, other.latestFirstDisplay)
        return result
    }

    /// Two records under one id are the same donation; should they differ, both sides keep the
    /// same one.
    private static func canonical(_ a: DonationRecord, _ b: DonationRecord) -> DonationRecord {
        if a == b { return a }
        return (a.date, a.event, a.canonicalValue) <= (b.date, b.event, b.canonicalValue) ? a : b
    }

    private static func later(_ a: ParameterRecord, _ b: ParameterRecord) -> ParameterRecord {
        if a.stamp != b.stamp { return a.stamp > b.stamp ? a : b }
        return a.value.description >= b.value.description ? a : b
    }

    static func maximum<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        switch (a, b) {
        case (nil, _): return b
        case (_, nil): return a
        case (let a?, let b?): return max(a, b)
        }
    }

    static func minimum<T: Comparable>(_ a: T?, _ b: T?) -> T? {
        switch (a, b) {
        case (nil, _): return b
        case (_, nil): return a
        case (let a?, let b?): return min(a, b)
        }
    }
}

extension TipRecord {
    public func merged(with other: TipRecord) -> TipRecord {
        var result = self
        switch (invalidation, other.invalidation) {
        case (nil, _): result.invalidation = other.invalidation
        case (_, nil): break
        case (let a?, let b?):
            if a.stamp != b.stamp {
                result.invalidation = a.stamp > b.stamp ? a : b
            } else {
                result.invalidation = a.reason.rawValue >= b.reason.rawValue ? a : b
            }
        }
        result.reset = StoreSnapshot.maximum(reset, other.reset)
        for (device, counter) in other.counters {
            result.counters[device] = result.counters[device].map { $0.merged(with: counter) } ?? counter
        }
        return result
    }
}

extension DisplayCounter {
    /// Two copies of one device's counter: the newer epoch wins; in the same epoch, the larger
    /// figures (a counter only grows within its epoch).
    public func merged(with other: DisplayCounter) -> DisplayCounter {
        if epoch != other.epoch {
            return StoreSnapshot.maximum(epoch, other.epoch) == epoch ? self : other
        }
        return DisplayCounter(epoch: epoch, count: max(count, other.count),
                              durationMilliseconds: max(durationMilliseconds, other.durationMilliseconds),
                              firstDisplay: StoreSnapshot.minimum(firstDisplay, other.firstDisplay))
    }
}

extension DonationRecord {
    /// The payload as text with fields in name order: a total order for tie-breaks.
    var canonicalValue: String {
        value.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }
}
