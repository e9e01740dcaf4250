extension Lints {
    /// A set of `Int`s as sorted, disjoint, closed intervals: the values an Int-like quantity
    /// (a count, an Int, Date or Duration parameter) may take under some constraints.
    struct IntegerSet: Hashable, Sendable {
        /// Sorted by lower bound, pairwise disjoint, none empty.
        private(set) var intervals: [ClosedRange<Int>]

        init(_ intervals: [ClosedRange<Int>]) {
            self.intervals = IntegerSet.normalized(intervals)
        }

        static let all = IntegerSet([Int.min...Int.max])
        static let empty = IntegerSet([])
        /// Counts are never negative.
        static let nonNegative = IntegerSet([0...Int.max])

        static func point(_ value: Int) -> IntegerSet { IntegerSet([value...value]) }
        static func atLeast(_ value: Int) -> IntegerSet { IntegerSet([value...Int.max]) }
        static func atMost(_ value: Int) -> IntegerSet { IntegerSet([Int.min...value]) }

        var isEmpty: Bool { intervals.isEmpty }

        func intersection(_ other: IntegerSet) -> IntegerSet {
            var result: [ClosedRange<Int>] = []
            var i = 0, j = 0
            while i < intervals.count, j < other.intervals.count {
                let a = intervals[i], b = other.intervals[j]
                let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
                if low <= high { result.append(low...high) }
                if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
            }
            return IntegerSet(result)
        }

        /// Whether the two sets share a value (the intersection, without building it).
        func intersects(_ other: IntegerSet) -> Bool {
            var i = 0, j = 0
            while i < intervals.count, j < other.intervals.count {
                let a = intervals[i], b = other.intervals[j]
                if max(a.lowerBound, b.lowerBound) <= min(a.upperBound, b.upperBound) { return true }
                if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
            }
            return false
        }

        /// Whether every value of `other` is in this set. Normalized intervals are neither
        /// overlapping nor adjacent, so each interval of `other` must lie within one of ours.
        func contains(_ other: IntegerSet) -> Bool {
            var j = 0
            for interval in other.intervals {
                while j < intervals.count, intervals[j].upperBound < interval.lowerBound { j += 1 }
                guard j < intervals.count, intervals[j].lowerBound <= interval.lowerBound,
                      interval.upperBound <= intervals[j].upperBound else { return false }
            }
            return true
        }

        /// Every `Int` not in the set.
        func complement() -> IntegerSet {
            var result: [ClosedRange<Int>] = []
            var next: Int? = Int.min  // the smallest value not yet covered; nil past Int.max
            for interval in intervals {
                guard let start = next else { break }
                if interval.lowerBound > start { result.append(start...(interval.lowerBound - 1)) }
                next = interval.upperBound == Int.max ? nil : interval.upperBound + 1
            }
            if let start = next { result.append(start...Int.max) }
            return IntegerSet(result)
        }

        func union(_ other: IntegerSet) -> IntegerSet {
            complement().intersection(other.complement()).complement()
        }

        /// Sorts and merges overlapping or adjacent intervals.
        private static func normalized(_ intervals: [ClosedRange<Int>]) -> [ClosedRange<Int>] {
            // Most sets arrive normalized already (one interval, or the ordered output of
            // `intersection` and `complement`): keep them as they are.
            var isNormalized = true
            for index in intervals.indices.dropFirst() {
                let previous = intervals[index - 1]
                if previous.upperBound == Int.max || intervals[index].lowerBound <= previous.upperBound + 1 {
                    isNormalized = false
                    break
                }
            }
            if isNormalized { return intervals }
            let sorted = intervals.sorted { $0.lowerBound < $1.lowerBound }
            var merged: [ClosedRange<Int>] = []
            for interval in sorted {
                if let last = merged.last, last.upperBound == Int.max || interval.lowerBound <= last.upperBound + 1 {
                    merged[merged.count - 1] = last.lowerBound...max(last.upperBound, interval.upperBound)
                } else {
                    merged.append(interval)
                }
            }
            return merged
        }
    }
}

extension Lints.IntegerSet {
    /// The Ints `n` for which `n op constant` holds.
    static func comparing(_ op: ComparisonOperator, _ constant: Int) -> Self {
        switch op {
        case .equal: return .point(constant)
        case .notEqual: return Self.point(constant).complement()
        case .less: return constant == Int.min ? .empty : .atMost(constant - 1)
        case .lessOrEqual: return .atMost(constant)
        case .greater: return constant == Int.max ? .empty : .atLeast(constant + 1)
        case .greaterOrEqual: return .atLeast(constant)
        }
    }

    /// The Ints `n` for which `Double(n) op constant` holds, or nil when the conversion is not
    /// exact around `constant` (beyond 2^53, where neighbouring Ints round to the same Double).
    static func comparing(_ op: ComparisonOperator, _ constant: Double) -> Self? {
        let exactLimit = 9_007_199_254_740_992.0  // 2^53
        guard constant.isFinite, abs(constant) < exactLimit else { return nil }
        let floor = Int(constant.rounded(.down)), ceiling = Int(constant.rounded(.up))
        let isWhole = floor == ceiling
        switch op {
        case .equal: return isWhole ? .point(floor) : .empty
        case .notEqual: return isWhole ? Self.point(floor).complement() : .all
        case .less: return .atMost(ceiling - 1)
        case .lessOrEqual: return .atMost(floor)
        case .greater: return .atLeast(floor + 1)
        case .greaterOrEqual: return .atLeast(ceiling)
        }
    }
}
