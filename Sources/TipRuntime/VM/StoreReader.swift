/// What one evaluation has read of one event's donations from a store the VM does not trust:
/// nothing yet, or the one snapshot every instruction of the evaluation then reads, checked
/// against the pack, or the finding that it does not fit (every rule that reads it then fails).
enum EventSnapshot {
    case unread
    case consistent(DonationColumns)
    case inconsistent

    /// Whether `columns` has the fields `types` declares, in order and of those types, each with
    /// one slot per timestamp: what any read of a payload relies on.
    static func fieldsFit(_ columns: DonationColumns, _ types: [ValueType]) -> Bool {
        guard columns.fields.count == types.count else { return false }
        let count = columns.timestamps.count
        for (column, type) in zip(columns.fields, types) where column.type != type || column.slots.count != count {
            return false
        }
        return true
    }

    /// `fieldsFit`, and what `InMemoryDonationStore` guarantees by construction: timestamps
    /// ascending (window bounds are binary searches), every String slot a code into its
    /// column's `strings`, every Bool slot 0 or 1.
    static func isConsistent(_ columns: DonationColumns, _ types: [ValueType]) -> Bool {
        guard fieldsFit(columns, types) else { return false }
        var previous = Int64.min
        for timestamp in columns.timestamps {
            if timestamp < previous { return false }
            previous = timestamp
        }
        for column in columns.fields {
            switch column.type {
            case .string:
                let codes = Int64(column.strings.count)
                if column.slots.contains(where: { $0 < 0 || $0 >= codes }) { return false }
            case .bool:
                if column.slots.contains(where: { $0 != 0 && $0 != 1 }) { return false }
            case .int, .double, .date, .duration:
                break
            }
        }
        return true
    }
}

/// How the machine reads the donation store during one evaluation. The runtime's own
/// `InMemoryDonationStore` is read in place: its columns are consistent by construction, so
/// only their shape is checked against the pack before a payload is read. Any other
/// conformance is read through `snapshots`: each event once per evaluation, checked whole
/// (`EventSnapshot.isConsistent`), and every instruction of the evaluation reads that one
/// snapshot, so two answers of the store can never disagree within it.
struct StoreReader<Store: DonationStore> {
    let store: UnsafePointer<Store>
    /// Per event, what this evaluation has read of a store it does not trust; nil when the store
    /// is the runtime's own in-memory store, read in place.
    let snapshots: UnsafeMutablePointer<EventSnapshot>?
    /// Per event of the pack, the types of its payload fields.
    let eventFieldTypes: UnsafeBufferPointer<[ValueType]>

    /// Whether `store` is read in place: the runtime's own in-memory store, for this pack's
    /// number of events.
    @inline(__always)
    static func readsInPlace(_ store: Store, eventCount: Int) -> Bool {
        Store.self == InMemoryDonationStore.self && store.events.count == eventCount
    }

    /// The store as the runtime's own in-memory store (only when `snapshots` is nil, which the
    /// evaluator arranges only for that type).
    @inline(__always)
    var inMemoryStore: UnsafePointer<InMemoryDonationStore> {
        UnsafeRawPointer(store).assumingMemoryBound(to: InMemoryDonationStore.self)
    }

    /// Calls `body` with the timestamps of `event`, ascending; nil when the store's data for the
    /// event does not fit the pack.
    @inline(__always)
    func withTimestamps<Result>(_ event: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result? {
        guard let snapshots else { return inMemoryStore.pointee.withTimestamps(ofEvent: event, body) }
        return snapshot(event, snapshots)?.timestamps.withUnsafeBufferPointer(body)
    }

    /// Calls `body` with the slots of payload field `field` of `event`, read in place from the
    /// in-memory store; nil when the event's data does not fit the pack.
    @inline(__always)
    func withSlots<Result>(_ event: Int, field: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result? {
        guard let snapshots else { return inMemoryStore.pointee.withSlots(ofEvent: event, field: field, fitting: eventFieldTypes[event], body) }
        return snapshot(event, snapshots)?.fields[field].slots.withUnsafeBufferPointer(body)
    }

    /// How many donations of `event` lie in the window of `window` ms ending at `now` (all of
    /// them without a window) and, given a `test`, pass it: `COUNT_EVENT`, `COUNT_EVENT_WITHIN`
    /// and the fused `COUNT_EVENT_WHERE`; nil when the store's data for the event does not fit
    /// the pack.
    @inline(__always)
    func count(_ event: Int, within window: Int64?, now: Int64, where test: FieldTest?) -> Int? {
        guard let range = withTimestamps(event, { timestamps in
            guard let window else { return 0..<timestamps.count }
            return Window.bounds(timestamps, now: now, window: window)
        }) else { return nil }
        guard let test else { return range.count }
        let counted: Int?? = withSlots(event, field: test.field) { slots in
            range.upperBound <= slots.count ? test.count(range, of: slots) : nil
        }
        return counted ?? nil
    }

    /// The donations of `event` with their payload columns, checked against the pack; nil when
    /// they do not fit it.
    func columns(_ event: Int) -> DonationColumns? {
        guard let snapshots else {
            let columns = inMemoryStore.pointee.donations(ofEvent: event)
            return EventSnapshot.fieldsFit(columns, eventFieldTypes[event]) ? columns : nil
        }
        return snapshot(event, snapshots)
    }

    /// The one snapshot of `event` this evaluation reads, read and checked the first time it is
    /// asked for.
    @inline(never)
    private func snapshot(_ event: Int, _ snapshots: UnsafeMutablePointer<EventSnapshot>) -> DonationColumns? {
        switch snapshots[event] {
        case .consistent(let columns):
            return columns
        case .inconsistent:
            return nil
        case .unread:
            let columns = store.pointee.donations(ofEvent: event)
            guard EventSnapshot.isConsistent(columns, eventFieldTypes[event]) else {
                snapshots[event] = .inconsistent
                return nil
            }
            snapshots[event] = .consistent(columns)
            return columns
        }
    }
}
