/// A donation store in memory, laid out for fast queries: per event, timestamps sorted
/// ascending in one `[Int64]` column (window bounds by binary search) and each payload field in
/// its own column, so `where`, `largestSubset` and `distinct` scan only the window.
///
/// Donation ids: every donation gets a per-event sequence number (`UInt32`, in donation order),
/// kept in a column beside the timestamps; with the store's `deviceID` and the event it
/// identifies the donation for sync. A valueless donation so costs 12 bytes (8 timestamp +
/// 4 sequence). The struct is three words, so an `any DonationStore` holds it inline.
public struct InMemoryDonationStore: DonationStore, Sendable {
    public let events: [PackEvent]
    /// Identifies this store's donations among devices: a donation's id is (deviceID, sequence).
    public let deviceID: UInt64

    private struct EventStorage: Sendable {
        var columns: DonationColumns
        var sequences: [UInt32] = []
        /// Per String field: string → code.
        var stringCodes: [[String: Int64]]
        var nextSequence: UInt32 = 0
    }

    private var storage: [EventStorage]

    /// An empty store for the events of a pack.
    public init(events: [PackEvent], deviceID: UInt64 = 0) {
        self.events = events
        self.deviceID = deviceID
        storage = events.map { event in
            EventStorage(columns: DonationColumns(timestamps: [], fields: event.fields.map { PayloadColumn(type: $0.type) }),
                         stringCodes: Array(repeating: [:], count: event.fields.count))
        }
    }

    public func donations(ofEvent event: Int) -> DonationColumns { storage[event].columns }

    /// The timestamps of `event` in place, without copying the column (the VM's way of reading
    /// this store, whose columns are consistent by construction).
    func withTimestamps<Result>(ofEvent event: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result {
        precondition(storage.indices.contains(event), "no event with index \(event)")
        return storage.withUnsafeBufferPointer { $0[event].columns.timestamps.withUnsafeBufferPointer(body) }
    }

    /// The sequence numbers of an event's donations, aligned with `donations(ofEvent:).timestamps`.
    public func sequenceNumbers(ofEvent event: Int) -> [UInt32] { storage[event].sequences }

    /// Total donations held.
    public var donationCount: Int { storage.reduce(0) { $0 + $1.columns.count } }

    /// Bytes allocated for the timestamp and sequence columns of all events (the whole cost of
    /// valueless donations; payload columns come on top).
    public var timestampAndSequenceBytes: Int {
        storage.reduce(0) { $0 + $1.columns.timestamps.capacity * 8 + $1.sequences.capacity * 4 }
    }

    public mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError) {
        try validate(event: event, payload: payload)
        // After every donation at the same instant: donation order breaks ties. (No local copy
        // of the column is kept, so the insert below mutates it in place.)
        let position = Self.insertionPoint(storage[event].columns.timestamps, milliseconds)
        Self.growGently(&storage[event].columns.timestamps)
        Self.growGently(&storage[event].sequences)
        storage[event].columns.timestamps.insert(milliseconds, at: position)
        storage[event].sequences.insert(storage[event].nextSequence, at: position)
        storage[event].nextSequence &+= 1
        for (index, value) in payload.enumerated() {
            storage[event].columns.fields[index].slots.insert(slot(for: value, event: event, field: index), at: position)
        }
        trim(event: event)
    }

    /// Grows a full column by a quarter instead of doubling it, so slack stays under 25%
    /// (a valueless donation: 12 bytes, at most 15 with slack).
    private static func growGently<Element>(_ column: inout [Element]) {
        if column.count == column.capacity {
            column.reserveCapacity(column.count + column.count / 4 + 16)
        }
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
    public mutating func trim(event: Int, now: Int64) {
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
        storage[event].sequences.removeFirst(drop)
        for index in storage[event].columns.fields.indices {
            storage[event].columns.fields[index].slots.removeFirst(drop)
        }
    }

    private mutating func slot(for value: RuntimeValue, event: Int, field: Int) -> Int64 {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let number), .date(let number), .duration(let number): return number
        case .double(let number): return Int64(bitPattern: (number == 0 ? 0.0 : number).bitPattern)
        case .string(let text):
            if let code = storage[event].stringCodes[field][text] { return code }
            let code = Int64(storage[event].columns.fields[field].strings.count)
            storage[event].columns.fields[field].strings.append(text)
            storage[event].stringCodes[field][text] = code
            return code
        }
    }
}
