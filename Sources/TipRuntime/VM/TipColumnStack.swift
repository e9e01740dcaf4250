/// The tips' records one evaluation has read (`TIP_DISPLAYS`, `TIP_INVALIDATIONS`), as the
/// columns their collections index, in manually managed memory like `MemberStack`: it starts
/// in a caller-provided buffer (on the call stack) and moves to the heap when that is full, so
/// an evaluation allocates nothing for them. The machine's owner calls `deallocate()`.
struct TipColumnStack {
    private var base: UnsafeMutablePointer<DonationColumns>?
    private(set) var count = 0
    private var capacity = 0
    private var ownsStorage = false

    /// An empty stack using `initial` (uninitialized memory) until it needs more room.
    init(initial: UnsafeMutableBufferPointer<DonationColumns>) {
        base = initial.baseAddress
        capacity = initial.count
    }

    /// The columns at `position` (which must be below `count`).
    subscript(position: Int) -> DonationColumns {
        assert(position >= 0 && position < count)
        return base.unsafelyUnwrapped[position]
    }

    /// Calls `body` with the timestamps of the columns at `position`, read in place.
    @inline(__always)
    func withTimestamps<Result>(at position: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result {
        assert(position >= 0 && position < count)
        return base.unsafelyUnwrapped[position].timestamps.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the slots of payload field `field` of the columns at `position`, read
    /// in place; nil when the reader gave no such field, or not one slot per record.
    @inline(__always)
    func withSlots<Result>(at position: Int, field: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result? {
        assert(position >= 0 && position < count)
        let columns = base.unsafelyUnwrapped + position
        let count = columns.pointee.timestamps.count
        return columns.pointee.fields.withUnsafeBufferPointer { fields in
            guard field < fields.count, fields[field].slots.count == count else { return nil }
            return fields[field].slots.withUnsafeBufferPointer(body)
        }
    }

    mutating func append(_ columns: consuming DonationColumns) {
        if count == capacity {
            let newCapacity = max(8, capacity * 2)
            let storage = UnsafeMutablePointer<DonationColumns>.allocate(capacity: newCapacity)
            if let base {
                storage.moveInitialize(from: base, count: count)
                if ownsStorage { base.deallocate() }
            }
            base = storage
            capacity = newCapacity
            ownsStorage = true
        }
        (base.unsafelyUnwrapped + count).initialize(to: columns)
        count += 1
    }

    /// Releases every entry; the storage stays for the next evaluation.
    mutating func removeAll() {
        if count > 0 { base.unsafelyUnwrapped.deinitialize(count: count) }
        count = 0
    }

    /// Releases every entry and frees the storage allocated here.
    mutating func deallocate() {
        removeAll()
        if ownsStorage { base?.deallocate() }
        base = nil
        ownsStorage = false
        capacity = 0
    }
}
