/// An event collection on the VM's collection stack: donations of one event, either the
/// contiguous time-ordered range of donation indices `low..<high`, or (`isList`) the ascending
/// donation indices held at positions `low..<high` of the machine's member list.
struct CollectionValue {
    var event: Int
    var low: Int
    var high: Int
    /// Set after `WHERE`, a subset, or a window applied to a list.
    var isList: Bool

    var count: Int { high - low }
}

/// Window arithmetic shared by the VM's window instructions.
@usableFromInline
enum Window {
    /// The first index whose timestamp is greater than `bound`. Branch-free halving (the
    /// comparison selects the next base with a conditional move), so its time does not depend
    /// on the branch predictor guessing the data.
    @inlinable @inline(__always)
    static func upperBound(_ timestamps: UnsafeBufferPointer<Int64>, _ bound: Int64) -> Int {
        var length = timestamps.count
        guard length > 0 else { return 0 }
        var base = 0
        while length > 1 {
            let half = length >> 1
            base = timestamps[base &+ half] <= bound ? base &+ half : base
            length &-= half
        }
        return timestamps[base] <= bound ? base &+ 1 : base
    }

    /// The index range of donations with `now - window < date <= now`; empty for a window ≤ 0.
    /// When `now - window` underflows, every donation up to `now` is inside.
    @inlinable @inline(__always)
    static func bounds(_ timestamps: UnsafeBufferPointer<Int64>, now: Int64, window: Int64) -> Range<Int> {
        guard window > 0 else { return 0..<0 }
        let high = upperBound(timestamps, now)
        let (start, overflow) = now.subtractingReportingOverflow(window)
        let low = overflow ? 0 : upperBound(timestamps, start)
        return low < high ? low..<high : high..<high
    }

    /// Whether a single timestamp is inside the window.
    @inline(__always)
    static func contains(_ date: Int64, now: Int64, window: Int64) -> Bool {
        guard window > 0, date <= now else { return false }
        let (start, overflow) = now.subtractingReportingOverflow(window)
        return overflow || date > start
    }
}
