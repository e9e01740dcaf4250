/// An event collection on the VM's collection stack: donations of one event, either the
/// contiguous time-ordered range `low..<high` or an explicit ascending list of indices.
struct CollectionValue {
    var event: Int
    var low: Int
    var high: Int
    /// Non-nil after `WHERE` or a subset: the member indices, ascending.
    var members: [Int]?

    var count: Int { members?.count ?? (high - low) }

    /// Calls `body` with each member index in time order; stops early when it returns false.
    @inline(__always)
    func forEachMember(_ body: (Int) -> Bool) {
        if let members {
            for index in members where !body(index) { return }
        } else {
            var index = low
            while index < high {
                if !body(index) { return }
                index += 1
            }
        }
    }
}

/// Window arithmetic shared by the VM's window instructions.
enum Window {
    /// The first index whose timestamp is greater than `bound`.
    @inline(__always)
    static func upperBound(_ timestamps: UnsafeBufferPointer<Int64>, _ bound: Int64) -> Int {
        var low = 0, high = timestamps.count
        while low < high {
            let middle = (low &+ high) >> 1
            if timestamps[middle] <= bound { low = middle &+ 1 } else { high = middle }
        }
        return low
    }

    /// The index range of donations with `now - window < date <= now`; empty for a window ≤ 0.
    /// When `now - window` underflows, every donation up to `now` is inside.
    @inline(__always)
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
