/// A donation store in memory, laid out for fast queries: per event, timestamps sorted
/// ascending in one `[Int64]` column (window bounds by binary search) and each payload field in
/// its own column, so `where`, `largestSubset` and `distinct` scan only the window.
///
/// Donation ids: every donation gets a per-store sequence number (`UInt32`, in donation order),
/// kept in a column beside the timestamps; with the store's `deviceID` it identifies the
/// donation for sync. A valueless donation so costs 12 bytes (8 timestamp + 4 sequence).
public struct InMemoryDonationStore: DonationStore, Sendable {
    public let events: [PackEvent]
    /// Identifies this store's donations among devices: a donation's id is (deviceID, sequence).
    public let deviceID: UInt64

    private var columns: [DonationColumns]
    private var sequences: [[UInt32]]
    /// Per event, per String field: string → code.
    private var stringCodes: [[[String: Int64]]]
    private var nextSequence: UInt32 = 0

    /// An empty store for the events of a pack.
    public init(events: [PackEvent], deviceID: UInt64 = 0) {
        self.events = events
        self.deviceID = deviceID
        columns = events.map { event in DonationColumns(timestamps: [], fields: event.fields.map { PayloadColumn(type: $0.type) }) }
        sequences = Array(repeating: [], count: events.count)
        stringCodes = events.map { event in Array(repeating: [:], count: event.fields.count) }
    }

    public func donations(ofEvent event: Int) -> DonationColumns { columns[event] }

    /// The sequence numbers of an event's donations, aligned with `donations(ofEvent:).timestamps`.
    public func sequenceNumbers(ofEvent event: Int) -> [UInt32] { sequences[event] }

    /// Total donations held.
    public var donationCount: Int { columns.reduce(0) { $0 + $1.count } }

    /// Bytes allocated for the timestamp and sequence columns of all events (the whole cost of
    /// valueless donations; payload columns come on top).
    public var timestampAndSequenceBytes: Int {
        columns.reduce(0) { $0 + $1.timestamps.capacity * 8 } + sequences.reduce(0) { $0 + $1.capacity * 4 }
    }

    public mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError) {
        try validate(event: event, payload: payload)
        // After every donation at the same instant: donation order breaks ties. (No local copy
        // of the column is kept, so the insert below mutates it in place.)
        let position = Self.insertionPoint(columns[event].timestamps, milliseconds)
        Self.growGently(&columns[event].timestamps)
        Self.growGently(&sequences[event])
        columns[event].timestamps.insert(milliseconds, at: position)
        sequences[event].insert(nextSequence, at: position)
        nextSequence &+= 1
        for (index, value) in payload.enumerated() {
            columns[event].fields[index].slots.insert(slot(for: value, event: event, field: index), at: position)
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

    /// Removes the donations that `donationLimit` no longer allows: those older than
    /// `maximumAge` before the newest donation, then the oldest beyond `maximumCount`.
    private mutating func trim(event: Int) {
        let declaration = events[event]
        let drop = Self.trimCount(columns[event].timestamps, declaration)
        guard drop > 0 else { return }
        columns[event].timestamps.removeFirst(drop)
        sequences[event].removeFirst(drop)
        for index in columns[event].fields.indices {
            columns[event].fields[index].slots.removeFirst(drop)
        }
    }

    private static func trimCount(_ timestamps: [Int64], _ declaration: PackEvent) -> Int {
        var drop = 0
        if let age = declaration.maximumAgeMilliseconds, let newest = timestamps.last {
            let (oldest, overflow) = newest.subtractingReportingOverflow(age)
            if !overflow {
                while drop < timestamps.count && timestamps[drop] < oldest { drop += 1 }
            }
        }
        if let limit = declaration.maximumCount, timestamps.count - drop > Int(clamping: limit) {
            drop = timestamps.count - Int(clamping: max(0, limit))
        }
        return drop
    }

    private mutating func slot(for value: RuntimeValue, event: Int, field: Int) -> Int64 {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let number), .date(let number), .duration(let number): return number
        case .double(let number): return Int64(bitPattern: (number == 0 ? 0.0 : number).bitPattern)
        case .string(let text):
            if let code = stringCodes[event][field][text] { return code }
            let code = Int64(columns[event].fields[field].strings.count)
            columns[event].fields[field].strings.append(text)
            stringCodes[event][field][text] = code
            return code
        }
    }
}
