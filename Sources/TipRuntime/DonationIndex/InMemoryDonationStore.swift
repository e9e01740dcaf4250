/// A donation store in memory, laid out for fast queries: per event, timestamps sorted
/// ascending in one `[Int64]` column (window bounds by binary search) and each payload field in
/// its own column, so `where`, `largestSubset` and `distinct` scan only the window.
///
/// It is the query index only: donations' ids live in the persistent store. A valueless
/// donation costs its 8-byte timestamp.
package struct InMemoryDonationStore: DonationStore, Sendable {
    package let events: [PackEvent]

    private struct EventStorage: Sendable {
        var columns: DonationColumns
        /// Per String field: string → code.
        var stringCodes: [[String: Int64]]
    }

    private var storage: [EventStorage]

    /// An empty store for the events of a pack.
    package init(events: [PackEvent]) {
        self.events = events
        storage = events.map { event in
            EventStorage(columns: DonationColumns(timestamps: [], fields: event.fields.map { PayloadColumn(type: $0.type) }),
                         stringCodes: Array(repeating: [:], count: event.fields.count))
        }
    }

    package func donations(ofEvent event: Int) -> DonationColumns { storage[event].columns }

    /// The timestamps of `event` in place, without copying the column (the VM's way of reading
    /// this store, whose columns are consistent by construction).
    func withTimestamps<Result>(ofEvent event: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result {
        precondition(storage.indices.contains(event), "no event with index \(event)")
        return storage.withUnsafeBufferPointer { $0[event].columns.timestamps.withUnsafeBufferPointer(body) }
    }

    /// The slots of payload field `field` of `event` in place, when the event's fields have the
    /// types `types` (what the VM checks before reading a payload; slots and timestamps are
    /// aligned by construction); nil otherwise.
    func withSlots<Result>(ofEvent event: Int, field: Int, fitting types: [ValueType],
                           _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result? {
        precondition(storage.indices.contains(event), "no event with index \(event)")
        return storage.withUnsafeBufferPointer { storage in
            storage[event].columns.fields.withUnsafeBufferPointer { fields -> Result? in
                guard fields.count == types.count, field < fields.count else { return nil }
                for index in fields.indices where fields[index].type != types[index] { return nil }
                return fields[field].slots.withUnsafeBufferPointer(body)
            }
        }
    }

    /// Total donations held.
    package var donationCount: Int { storage.reduce(0) { $0 + $1.columns.count } }

    package mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError) {
        try validate(event: event, payload: payload)
        // After every donation at the same instant: donation order breaks ties. (No local copy
        // of the column is kept, so the insert below mutates it in place.)
        let position = Self.insertionPoint(storage[event].columns.timestamps, milliseconds)
        storage[event].columns.timestamps.insert(milliseconds, at: position)
        for (index, value) in payload.enumerated() {
            storage[event].columns.fields[index].slots.insert(slot(for: value, event: event, field: index), at: position)
        }
        trim(event: event)
    }

    private static func insertionPoint(_ timestamps: [Int64], _ milliseconds: Int64) -> Int {
        if let last = timestamps.last, last <= milliseconds { return timestamps.count }
        var low = 0, high = timestamps.count
        while low < high {
            let middle = (low + high) / 2
            if timestamps[middle] <= milliseconds { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Applies `donationLimit` at `now`: removes the donations dated before `now` minus
    /// `maximumAge` (never relative to the newest donation: one dated in the future trims
    /// nothing), then the oldest beyond `maximumCount`. A donation applies the count alone.
    package mutating func trim(event: Int, now: Int64) {
        trim(event: event, now: Optional(now))
    }

    private mutating func trim(event: Int, now: Int64? = nil) {
        let declaration = events[event]
        let timestamps = storage[event].columns.timestamps
        var drop = 0
        if let age = declaration.maximumAgeMilliseconds, let now {
            let cutoff = DonationLimit.cutoff(now: now, maximumAgeMilliseconds: age)
            drop = cutoff == .min ? 0 : Self.insertionPoint(timestamps, cutoff - 1)
        }
        if let limit = declaration.maximumCount, timestamps.count - drop > Int(clamping: max(0, limit)) {
            drop = timestamps.count - Int(clamping: max(0, limit))
        }
        guard drop > 0 else { return }
        storage[event].columns.timestamps.removeFirst(drop)
        for index in storage[event].columns.fields.indices {
            storage[event].columns.fields[index].slots.removeFirst(drop)
        }
    }

    /// Removes the donations of `event` dated at or before `instant` (`deleteDonations(of:)`).
    package mutating func removeDonations(ofEvent event: Int, through instant: Int64) {
        let timestamps = storage[event].columns.timestamps
        let drop = Self.insertionPoint(timestamps, instant)
        guard drop > 0 else { return }
        storage[event].columns.timestamps.removeFirst(drop)
        for index in storage[event].columns.fields.indices {
            storage[event].columns.fields[index].slots.removeFirst(drop)
        }
    }

    private mutating func slot(for value: RuntimeValue, event: Int, field: Int) -> Int64 {
        ValueSlot.slot(value) { text in
            if let code = storage[event].stringCodes[field][text] { return code }
            let code = Int64(storage[event].columns.fields[field].strings.count)
            storage[event].columns.fields[field].strings.append(text)
            storage[event].stringCodes[field][text] = code
            return code
        }
    }
}
