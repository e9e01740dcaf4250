/// Why a tip was invalidated (TipKit's `Tip.InvalidationReason`).
public enum InvalidationReason: String, Sendable, Hashable, CaseIterable, Codable {
    case actionPerformed
    case tipClosed
    case displayCountExceeded
    case displayDurationExceeded
}

/// When and where a write happened: last-writer-wins order is by time, then by device id, so
/// that every replica picks the same winner.
public struct Stamp: Sendable, Hashable, Comparable, Codable {
    /// Milliseconds since 1970 on the writing device's clock.
    public var milliseconds: Int64
    public var device: String

    public init(milliseconds: Int64, device: String) {
        self.milliseconds = milliseconds
        self.device = device
    }

    public static func < (a: Stamp, b: Stamp) -> Bool {
        (a.milliseconds, a.device) < (b.milliseconds, b.device)
    }
}

/// One donated event, as stored and synced. Ids are unique across devices (the donating
/// device's id and a sequence number).
public struct DonationRecord: Sendable, Hashable {
    public var id: String
    public var event: String
    /// Milliseconds since 1970.
    public var date: Int64
    /// Payload values by field name; empty for events without a payload.
    public var value: [String: RuntimeValue]

    public init(id: String, event: String, date: Int64, value: [String: RuntimeValue] = [:]) {
        self.id = id
        self.event = event
        self.date = date
        self.value = value
    }
}

/// A parameter's persisted value and when it was set.
public struct ParameterRecord: Sendable, Hashable {
    public var value: RuntimeValue
    public var stamp: Stamp

    public init(value: RuntimeValue, stamp: Stamp) {
        self.value = value
        self.stamp = stamp
    }
}

/// One device's display counter for a tip, counting since the reset `epoch` (nil: since the
/// tip was first known).
public struct DisplayCounter: Sendable, Hashable {
    public var epoch: Stamp?
    public var count: Int64
    public var durationMilliseconds: Int64
    /// When this device first displayed the tip in this epoch.
    public var firstDisplay: Int64?

    public init(epoch: Stamp?, count: Int64 = 0, durationMilliseconds: Int64 = 0, firstDisplay: Int64? = nil) {
        self.epoch = epoch
        self.count = count
        self.durationMilliseconds = durationMilliseconds
        self.firstDisplay = firstDisplay
    }
}

/// The persisted state of one tip: its eligibility and its display counters per device.
public struct TipRecord: Sendable, Hashable {
    /// The latest invalidation, if any.
    public var invalidation: Invalidation?
    /// The latest `resetEligibility`, if any; an invalidation older than it no longer counts.
    public var reset: Stamp?
    /// Per device id.
    public var counters: [String: DisplayCounter]

    public struct Invalidation: Sendable, Hashable {
        public var reason: InvalidationReason
        public var stamp: Stamp

        public init(reason: InvalidationReason, stamp: Stamp) {
            self.reason = reason
            self.stamp = stamp
        }
    }

    public init(invalidation: Invalidation? = nil, reset: Stamp? = nil, counters: [String: DisplayCounter] = [:]) {
        self.invalidation = invalidation
        self.reset = reset
        self.counters = counters
    }

    /// The reason the tip is invalidated now, or nil when it is eligible.
    public var currentInvalidation: InvalidationReason? {
        guard let invalidation else { return nil }
        if let reset, reset > invalidation.stamp { return nil }
        return invalidation.reason
    }

    /// Counters of the current epoch (since the latest reset), from every device.
    public var currentCounters: some Sequence<DisplayCounter> {
        counters.values.lazy.filter { $0.epoch == self.reset }
    }

    /// Displays since the latest reset, all devices together.
    public var displayCount: Int64 { currentCounters.reduce(0) { $0 &+ $1.count } }

    /// Milliseconds on screen since the latest reset, all devices together.
    public var displayDurationMilliseconds: Int64 { currentCounters.reduce(0) { $0 &+ $1.durationMilliseconds } }

    /// The earliest first display since the latest reset, on any device.
    public var firstDisplay: Int64? { currentCounters.compactMap(\.firstDisplay).min() }
}

/// Everything a store holds, as one value: what `export` prints, what sync exchanges and what
/// `merge` combines.
public struct StoreSnapshot: Sendable, Hashable {
    /// By donation id.
    public var donations: [String: DonationRecord]
    /// By parameter name (transient parameters are not persisted).
    public var parameters: [String: ParameterRecord]
    /// By tip name.
    public var tips: [String: TipRecord]
    /// The latest first display of any tip that does not ignore the display frequency: the
    /// frequency gap runs from it.
    public var latestFirstDisplay: Int64?

    public init(donations: [String: DonationRecord] = [:], parameters: [String: ParameterRecord] = [:],
                tips: [String: TipRecord] = [:], latestFirstDisplay: Int64? = nil) {
        self.donations = donations
        self.parameters = parameters
        self.tips = tips
        self.latestFirstDisplay = latestFirstDisplay
    }

    public static let empty = StoreSnapshot()
}
