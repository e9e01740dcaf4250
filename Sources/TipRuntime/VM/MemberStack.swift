/// The donation indices of the VM's list collections, stacked in the order their collections
/// were pushed, in manually managed memory: the machine holding it stays a plain value with
/// nothing to release per evaluation. It starts in a caller-provided buffer (on the call
/// stack) and moves to the heap when that is full; the machine's owner frees it with
/// `deallocate()`.
struct MemberStack {
    private var base: UnsafeMutablePointer<Int>?
    private(set) var count = 0
    private var capacity = 0
    /// Whether `base` was allocated here (and so must be freed here).
    private var ownsStorage = false

    /// An empty stack using `initial` until it needs more room.
    init(initial: UnsafeMutableBufferPointer<Int>) {
        base = initial.baseAddress
        capacity = initial.count
    }

    /// The index at `position` (which must be below `count`).
    subscript(position: Int) -> Int {
        get {
            assert(position >= 0 && position < count)
            return base.unsafelyUnwrapped[position]
        }
        set {
            assert(position >= 0 && position < count)
            base.unsafelyUnwrapped[position] = newValue
        }
    }

    /// Pushes the indices of `range`.
    mutating func append(contentsOf range: Range<Int>) {
        reserve(count + range.count)
        var position = count
        for index in range {
            base.unsafelyUnwrapped[position] = index
            position += 1
        }
        count = position
    }

    /// Pushes one index.
    @inline(__always)
    mutating func append(_ index: Int) {
        if count == capacity { reserve(count + 1) }
        base.unsafelyUnwrapped[count] = index
        count += 1
    }

    /// Where the indices live: valid until the next call that may grow the stack (`append`,
    /// `reserve`), for a loop that writes past `count` within what `reserve` made room for.
    var storage: UnsafeMutablePointer<Int> { base.unsafelyUnwrapped }

    /// Takes the indices written through `storage` up to `position` (within the reserved room).
    mutating func extend(to position: Int) {
        assert(position >= count && position <= capacity)
        count = position
    }

    /// Drops every index from `position` on.
    mutating func truncate(to position: Int) {
        assert(position >= 0 && position <= count)
        count = position
    }

    mutating func removeAll() {
        count = 0
    }

    /// Frees the storage; the stack is empty afterwards.
    mutating func deallocate() {
        if ownsStorage { base?.deallocate() }
        base = nil
        ownsStorage = false
        count = 0
        capacity = 0
    }

    /// Makes room for `needed` indices in all.
    mutating func reserve(_ needed: Int) {
        guard needed > capacity else { return }
        let newCapacity = max(needed, capacity * 2, 64)
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: newCapacity)
        if let base {
            storage.update(from: base, count: count)
            if ownsStorage { base.deallocate() }
        }
        base = storage
        capacity = newCapacity
        ownsStorage = true
    }
}
