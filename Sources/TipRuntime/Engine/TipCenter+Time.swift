#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The calls that take or give an instant or a length of time, in Swift's own types. The
/// runtime keeps time to the millisecond: a `Date` or `TimeInterval` is rounded to the nearest.
extension TipCenter {
    /// The current instant on the center's clock.
    public var now: Date { clock.now() }

    /// Donates one event (at `date`, default now) with a payload by field name. Returns once
    /// the donation is durable; a payload of the wrong shape is refused and changes nothing.
    @discardableResult
    public func donate(_ event: String, value: [String: RuntimeValue] = [:], at date: Date? = nil) throws(TipError) -> DonationRecord {
        try donate(event, value: value, at: date?.millisecondsSince1970 ?? clock.milliseconds())
    }

    /// Time on screen since the tip's (instance's) latest reset, over all devices.
    public func displayDuration(of tip: String, key: TipKey? = nil) throws(TipError) -> TimeInterval {
        try self.tip(named: tip, key: key).displayDuration
    }

    /// The UI showed the tip (and, optionally, for how long). Reaching `maxDisplayCount` or
    /// `maxDisplayDuration` invalidates it. A display of a tip in an experiment carries the
    /// user's arm. `beginDisplay(of:key:)` records the time on screen for you.
    public func recordDisplay(_ tip: String, key: TipKey? = nil, duration: TimeInterval = 0) throws(TipError) {
        try recordDisplay(tip, key: key, milliseconds: Self.milliseconds(of: duration))
    }

    /// The UI reports more time on screen for a display already recorded.
    public func recordDisplayDuration(_ tip: String, key: TipKey? = nil, duration: TimeInterval) throws(TipError) {
        try recordDisplayDuration(tip, key: key, milliseconds: Self.milliseconds(of: duration))
    }

    /// The user tapped the tip's (instance's) action `action` (an id the tip declares), for
    /// analytics: the tap is stored as a record of its own, and changes no status (closing the
    /// tip is `invalidate(reason: .tipClosed)`; an action that ends the tip, `.actionPerformed`).
    /// - Parameter id: the tap's id (default: a new random one). The same id sent again, as a
    ///   retried request does, is the same tap: the stored record is returned and nothing is
    ///   added; under another action it is a collision.
    /// - Parameter date: when the tap happened (default: now).
    /// - Returns: the stored record, and whether this call stored it (false: the same tap again).
    @discardableResult
    public func recordAction(_ tip: String, action: String, key: TipKey? = nil, id: String = RecordID.random(),
                             at date: Date? = nil) throws(TipError) -> (record: TipEventRecord, isNew: Bool) {
        try recordAction(tip, action: action, key: key, id: id, at: date?.millisecondsSince1970)
    }

    /// A time on screen in milliseconds; not a number, infinite or negative is refused.
    private static func milliseconds(of duration: TimeInterval) throws(TipError) -> Int64 {
        guard duration.isFinite, duration >= 0 else { throw .invalidDuration(duration) }
        return Milliseconds.of(seconds: duration)
    }
}
