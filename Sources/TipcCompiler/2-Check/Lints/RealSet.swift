extension Lints {
    /// A set of `Double`s: sorted, disjoint intervals of the extended reals (infinities included)
    /// with open or closed ends, plus whether NaN belongs to it. NaN matters because every ordered
    /// comparison with NaN is false, so `not ($r > 1)` is not the same as `$r <= 1`.
    struct RealSet: Hashable, Sendable {
        struct Bound: Hashable, Sendable {
            var value: Double
            var isClosed: Bool
        }

        struct Interval: Hashable, Sendable {
            var lower: Bound
            var upper: Bound

            var isEmpty: Bool {
                lower.value > upper.value || (lower.value == upper.value && !(lower.isClosed && upper.isClosed))
            }
        }

        /// Sorted by lower bound, pairwise disjoint, none empty.
        private(set) var intervals: [Interval]
        private(set) var containsNaN: Bool

        init(_ intervals: [Interval], containsNaN: Bool) {
            // Most sets arrive in order already (one interval, or the output of `complement`):
            // keep them as they are.
            let isNormalized = intervals.indices.allSatisfy { index in
                !intervals[index].isEmpty && (index == 0 || Self.precedes(intervals[index - 1], intervals[index]))
            }
            self.intervals = isNormalized ? intervals : intervals.filter { !$0.isEmpty }.sorted(by: Self.precedes)
            self.containsNaN = containsNaN
        }

        /// The order of intervals: by lower bound, a closed one first.
        private static func precedes(_ a: Interval, _ b: Interval) -> Bool {
            a.lower.value != b.lower.value ? a.lower.value < b.lower.value : (a.lower.isClosed && !b.lower.isClosed)
        }

        /// Every Double, NaN included.
        static let all = RealSet([Interval(lower: Bound(value: -.infinity, isClosed: true),
                                           upper: Bound(value: .infinity, isClosed: true))], containsNaN: true)

        var isEmpty: Bool { intervals.isEmpty && !containsNaN }

        /// Whether the set holds every Double, NaN included: whether `complement()` is empty,
        /// found by looking for a non-empty gap the way `complement()` builds them.
        var isEveryDouble: Bool {
            guard containsNaN else { return false }
            var start = Bound(value: -.infinity, isClosed: true)
            for interval in intervals {
                let gap = Interval(lower: start, upper: Bound(value: interval.lower.value, isClosed: !interval.lower.isClosed))
                if !gap.isEmpty { return false }
                start = Bound(value: interval.upper.value, isClosed: !interval.upper.isClosed)
            }
            return Interval(lower: start, upper: Bound(value: .infinity, isClosed: true)).isEmpty
        }

        func intersection(_ other: RealSet) -> RealSet {
            var result: [Interval] = []
            for a in intervals {
                for b in other.intervals {
                    let lower = a.lower.value != b.lower.value
                        ? (a.lower.value > b.lower.value ? a.lower : b.lower)
                        : Bound(value: a.lower.value, isClosed: a.lower.isClosed && b.lower.isClosed)
                    let upper = a.upper.value != b.upper.value
                        ? (a.upper.value < b.upper.value ? a.upper : b.upper)
                        : Bound(value: a.upper.value, isClosed: a.upper.isClosed && b.upper.isClosed)
                    result.append(Interval(lower: lower, upper: upper))
                }
            }
            return RealSet(result, containsNaN: containsNaN && other.containsNaN)
        }

        /// Every Double (NaN included) not in the set.
        func complement() -> RealSet {
            var result: [Interval] = []
            var start = Bound(value: -.infinity, isClosed: true)
            for interval in intervals {
                result.append(Interval(lower: start, upper: Bound(value: interval.lower.value, isClosed: !interval.lower.isClosed)))
                start = Bound(value: interval.upper.value, isClosed: !interval.upper.isClosed)
            }
            result.append(Interval(lower: start, upper: Bound(value: .infinity, isClosed: true)))
            return RealSet(result, containsNaN: !containsNaN)
        }

        func union(_ other: RealSet) -> RealSet {
            complement().intersection(other.complement()).complement()
        }

        /// The Doubles `x` for which `x op constant` holds (IEEE semantics: only `!=` holds for NaN).
        static func comparing(_ op: ComparisonOperator, _ constant: Double) -> RealSet {
            let negativeInfinity = Bound(value: -.infinity, isClosed: true), infinity = Bound(value: .infinity, isClosed: true)
            let point = RealSet([Interval(lower: Bound(value: constant, isClosed: true), upper: Bound(value: constant, isClosed: true))],
                                containsNaN: false)
            switch op {
            case .equal: return point
            case .notEqual: return point.complement()
            case .less: return RealSet([Interval(lower: negativeInfinity, upper: Bound(value: constant, isClosed: false))], containsNaN: false)
            case .lessOrEqual: return RealSet([Interval(lower: negativeInfinity, upper: Bound(value: constant, isClosed: true))], containsNaN: false)
            case .greater: return RealSet([Interval(lower: Bound(value: constant, isClosed: false), upper: infinity)], containsNaN: false)
            case .greaterOrEqual: return RealSet([Interval(lower: Bound(value: constant, isClosed: true), upper: infinity)], containsNaN: false)
            }
        }
    }
}
