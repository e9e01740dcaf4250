/// One payload field of an event's donations, stored by column: a 64-bit slot per donation
/// (Bool as 0/1; Int, Date and Duration as Int64 milliseconds; Double as its bits; String as a
/// code into `strings`, where equal strings share one code).
package struct PayloadColumn: Sendable, Hashable {
    package var type: ValueType
    package var slots: [Int64]
    /// The distinct strings of a String column, by code (empty for other types).
    package var strings: [String]

    package init(type: ValueType, slots: [Int64] = [], strings: [String] = []) {
        self.type = type
        self.slots = slots
        self.strings = strings
    }

    /// The value of donation `index` (which must be in bounds).
    package func value(at index: Int) -> RuntimeValue {
        ValueSlot.value(slots[index], as: type) { strings[Int($0)] }
    }
}

/// The donations of one event as the VM reads them: timestamps sorted ascending (donations at
/// the same instant in donation order) and one column per payload field, index-aligned.
package struct DonationColumns: Sendable, Hashable {
    /// Milliseconds since 1970, ascending.
    package var timestamps: [Int64]
    package var fields: [PayloadColumn]

    package init(timestamps: [Int64] = [], fields: [PayloadColumn] = []) {
        self.timestamps = timestamps
        self.fields = fields
    }

    package var count: Int { timestamps.count }

    /// How many entries are dated in the window of `window` ms ending at `now` (`now - window <
    /// date <= now`; every entry up to `now` when `now - window` underflows; none for a window
    /// ≤ 0), or how many there are when `window` is nil: two binary searches over the ascending
    /// timestamps, as the VM counts an event's donations in a window. Inlined where it is used,
    /// so that counting a column held by a class copies (retains) nothing.
    @inlinable
    package func count(within window: Int64?, endingAt now: Int64) -> Int {
        guard let window else { return timestamps.count }
        return timestamps.withUnsafeBufferPointer { Window.bounds($0, now: now, window: window).count }
    }
}

/// Why a donation was refused; the store is unchanged.
public enum DonationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// No event has this index in the pack's events table.
    case unknownEvent(Int)
    /// The pack declares no event of this name.
    case unknownEventName(String)
    /// The payload has `actual` values where the event declares `expected` fields.
    case wrongFieldCount(event: String, expected: Int, actual: Int)
    /// A payload value is not of its field's declared type.
    case wrongFieldType(event: String, field: String, expected: ValueType, actual: ValueType)
    /// The payload has a value for a field the event does not declare.
    case unknownField(event: String, field: String)
    /// The payload lacks a value for a field the event declares.
    case missingField(event: String, field: String)
    /// Doubles in payloads must be finite.
    case nonFiniteDouble(event: String, field: String)
    /// The donation's date (milliseconds since 1970, kept exact: it may be beyond what a `Date`
    /// holds exactly) is outside the years 0000–9999: no store would take it in a merge or a
    /// sync.
    case dateOutOfRange(event: String, date: Int64)

    public var description: String {
        switch self {
        case .unknownEvent(let index): return "no event with index \(index)"
        case .unknownEventName(let name): return "no event named '\(name)'"
        case .wrongFieldCount(let event, let expected, let actual):
            return "event '\(event)' takes \(EnglishText.count(expected, "payload field")), got \(actual)"
        case .wrongFieldType(let event, let field, let expected, let actual):
            return "field '\(field)' of event '\(event)' is \(EnglishText.withArticle("\(expected)")), got \(EnglishText.withArticle("\(actual)"))"
        case .unknownField(let event, let field): return "event '\(event)' has no field '\(field)'"
        case .missingField(let event, let field): return "the donation of '\(event)' lacks field '\(field)'"
        case .nonFiniteDouble(let event, let field): return "field '\(field)' of event '\(event)' must be a finite number"
        case .dateOutOfRange(let event, let date):
            return "the donation of '\(event)' is dated \(date) ms, outside \(RecordBounds.description)"
        }
    }
}

/// Where donations live. The VM reads them by column; stores keep them sorted by time so that
/// window counts are binary searches.
///
/// The VM trusts no conformance but the runtime's own `InMemoryDonationStore`: it reads each
/// event's donations once per evaluation through `donations(ofEvent:)` and checks them against
/// the pack (`events.count`; per event, one column per declared field, of the declared type,
/// with one slot per timestamp; timestamps ascending; string codes inside `strings`; Bool slots 0
/// or 1). When they do not fit, every rule that reads that event fails (`inconsistentStore`):
/// false, with the reason in `explain`, never a crash.
package protocol DonationStore {
    /// The events of the pack this store serves, by index.
    var events: [PackEvent] { get }
    /// The donations of event `event` (an index into `events`).
    func donations(ofEvent event: Int) -> DonationColumns
    /// Records a donation of event `event` at `milliseconds` with payload values in field order.
    /// A payload that does not match the event's schema is refused and changes nothing.
    mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError)
}

extension DonationStore {
    /// Checks `payload` against the schema of `event` (count, types, finite doubles).
    public func validate(event: Int, payload: [RuntimeValue]) throws(DonationError) {
        guard events.indices.contains(event) else { throw .unknownEvent(event) }
        let declaration = events[event]
        guard payload.count == declaration.fields.count else {
            throw .wrongFieldCount(event: declaration.name, expected: declaration.fields.count, actual: payload.count)
        }
        for (field, value) in zip(declaration.fields, payload) {
            guard value.type == field.type else {
                throw .wrongFieldType(event: declaration.name, field: field.name, expected: field.type, actual: value.type)
            }
            if case .double(let number) = value, !number.isFinite {
                throw .nonFiniteDouble(event: declaration.name, field: field.name)
            }
        }
    }

    /// Records a donation by event name with a payload by field name.
    public mutating func donate(eventNamed name: String, at milliseconds: Int64, payload: [String: RuntimeValue] = [:]) throws(DonationError) {
        guard let event = events.firstIndex(where: { $0.name == name }) else { throw .unknownEventName(name) }
        let declaration = events[event]
        for key in payload.keys.sorted() where !declaration.fields.contains(where: { $0.name == key }) {
            throw .unknownField(event: name, field: key)
        }
        var values: [RuntimeValue] = []
        for field in declaration.fields {
            guard let value = payload[field.name] else { throw .missingField(event: name, field: field.name) }
            values.append(value)
        }
        try donate(event: event, at: milliseconds, payload: values)
    }
}
