extension Lints {
    /// A set of `Int`s as sorted, disjoint, closed intervals: the values an Int-like quantity
    /// (a count, an Int, Date or Duration parameter) may take under some constraints.
    struct IntegerSet: Hashable, Sendable {
        /// The intervals, sorted by lower bound, pairwise disjoint, none empty. Most sets are one
        /// interval (a comparison with a constant, a count's universe): those are held inline,
        /// without an array to allocate. Each set has one form (`many` holds two or more), so
        /// that equal sets are equal values.
        private enum Storage: Hashable, Sendable {
            case none
            case one(ClosedRange<Int>)
            case many([ClosedRange<Int>])
        }

        private var storage: Storage

        init(_ intervals: [ClosedRange<Int>]) {
            self.init(normalized: IntegerSet.normalized(intervals))
        }

        private init(normalized intervals: [ClosedRange<Int>]) {
            switch intervals.count {
            case 0: storage = .none
            case 1: storage = .one(intervals[0])
            default: storage = .many(intervals)
            }
        }

        private init(_ interval: ClosedRange<Int>) {
            storage = .one(interval)
        }

        static let all = IntegerSet(Int.min...Int.max)
        static let empty = IntegerSet(normalized: [])
        /// Counts are never negative.
        static let nonNegative = IntegerSet(0...Int.max)

        static func point(_ value: Int) -> IntegerSet { IntegerSet(value...value) }
        static func atLeast(_ value: Int) -> IntegerSet { IntegerSet(value...Int.max) }
        static func atMost(_ value: Int) -> IntegerSet { IntegerSet(Int.min...value) }

        var isEmpty: Bool {
            if case .none = storage { return true }
            return false
        }

        /// The number of intervals.
        private var count: Int {
            switch storage {
            case .none: return 0
            case .one: return 1
            case .many(let intervals): return intervals.count
            }
        }

        /// The interval at `index` (below `count`).
        private subscript(index: Int) -> ClosedRange<Int> {
            switch storage {
            case .none: preconditionFailure("an empty set has no interval")
            case .one(let interval): return interval
            case .many(let intervals): return intervals[index]
            }
        }

        func intersection(_ other: IntegerSet) -> IntegerSet {
            if case .one(let a) = storage, case .one(let b) = other.storage {
                let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
                return low <= high ? IntegerSet(low...high) : .empty
            }
            var result: [ClosedRange<Int>] = []
            var i = 0, j = 0
            while i < count, j < other.count {
                let a = self[i], b = other[j]
                let low = max(a.lowerBound, b.lowerBound), high = min(a.upperBound, b.upperBound)
                if low <= high { result.append(low...high) }
                if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
            }
            return IntegerSet(result)
        }

        /// Whether the two sets share a value (the intersection, without building it).
        func intersects(_ other: IntegerSet) -> Bool {
            var i = 0, j = 0
            while i < count, j < other.count {
                let a = self[i], b = other[j]
                if max(a.lowerBound, b.lowerBound) <= min(a.upperBound, b.upperBound) { return true }
                if a.upperBound < b.upperBound { i += 1 } else { j += 1 }
            }
            return false
        }

        /// Whether every value of `other` is in this set. Normalized intervals are neither
        /// overlapping nor adjacent, so each interval of `other` must lie within one of ours.
        func contains(_ other: IntegerSet) -> Bool {
            var j = 0
            for index in 0..<other.count {
                let interval = other[index]
                while j < count, self[j].upperBound < interval.lowerBound { j += 1 }
                guard j < count, self[j].lowerBound <= interval.lowerBound,
                      interval.upperBound <= self[j].upperBound else { return false }
            }
            return true
        }

        /// Every `Int` not in the set.
        func complement() -> IntegerSet {
            switch storage {
            case .none:
                return .all
            case .one(let interval) where interval.lowerBound == Int.min:
                return interval.upperBound == Int.max ? .empty : IntegerSet((interval.upperBound + 1)...Int.max)
            case .one(let interval) where interval.upperBound == Int.max:
                return IntegerSet(Int.min...(interval.lowerBound - 1))
            default:
                var result: [ClosedRange<Int>] = []
                var next: Int? = Int.min  // the smallest value not yet covered; nil past Int.max
                for index in 0..<count {
                    let interval = self[index]
                    guard let start = next else { break }
                    if interval.lowerBound > start { result.append(start...(interval.lowerBound - 1)) }
                    next = interval.upperBound == Int.max ? nil : interval.upperBound + 1
                }
                if let start = next { result.append(start...Int.max) }
                return IntegerSet(result)
            }
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
