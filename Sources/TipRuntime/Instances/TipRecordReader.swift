/// What a rule may read of another tip (SPEC §7, "Tips about tips"): its recorded state,
/// never its rules, so no cycle can arise.
public struct TipRecordColumns: Sendable, Hashable {
    /// The tip is invalidated now (any reason).
    public var invalidated: Bool
    /// One entry per display since the tip's latest reset, dated; no fields.
    public var displays: DonationColumns
    /// One entry per invalidation since the latest reset, dated; one field, `reason` (String).
    public var invalidations: DonationColumns

    public init(invalidated: Bool = false, displays: DonationColumns = DonationColumns(),
                invalidations: DonationColumns = DonationColumns(fields: [PayloadColumn(type: .string)])) {
        self.invalidated = invalidated
        self.displays = displays
        self.invalidations = invalidations
    }
}

/// Where the VM reads other tips' records during an evaluation (`tip(X).displays` …). A class:
/// the machine borrows it for the evaluation without retaining it on each read.
public protocol TipRecordReader: AnyObject {
    /// The records of tip `tip` (an index into the pack's tips), of its instance `key` when
    /// the tip has a key. A tip or instance without records reads as never displayed nor
    /// invalidated.
    func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns
    /// Parts of `records(ofTip:key:)`, which the VM reads one at a time; by default, from it.
    func isInvalidated(tip: Int, key: TipKey?) -> Bool
    func displays(ofTip tip: Int, key: TipKey?) -> DonationColumns
    func invalidations(ofTip tip: Int, key: TipKey?) -> DonationColumns
    /// Calls `body` with the dates of the displays (or, with `invalidations`, of the
    /// invalidations) of tip `tip` (its instance `key`), ascending, lent in place for the call,
    /// and returns what it counted: how the VM counts them, whole or in a window, without taking
    /// a copy of the columns (not generic, so that a call through the existential needs no
    /// type metadata). By default, from `displays(ofTip:key:)` or `invalidations(ofTip:key:)`.
    func withDates(ofTip tip: Int, key: TipKey?, invalidations: Bool, _ body: (UnsafeBufferPointer<Int64>) -> Int) -> Int
}

extension TipRecordReader {
    public func isInvalidated(tip: Int, key: TipKey?) -> Bool { records(ofTip: tip, key: key).invalidated }
    public func displays(ofTip tip: Int, key: TipKey?) -> DonationColumns { records(ofTip: tip, key: key).displays }
    public func invalidations(ofTip tip: Int, key: TipKey?) -> DonationColumns { records(ofTip: tip, key: key).invalidations }

    public func withDates(ofTip tip: Int, key: TipKey?, invalidations: Bool,
                          _ body: (UnsafeBufferPointer<Int64>) -> Int) -> Int {
        let columns = invalidations ? self.invalidations(ofTip: tip, key: key) : displays(ofTip: tip, key: key)
        return columns.timestamps.withUnsafeBufferPointer(body)
    }
}

/// The instance a rule is evaluated for: its key (nil for a tip without one), and where
/// `tip(X)` reads other tips' records (nil: as if no tip had any).
public struct RuleInstance {
    public var key: TipKey?
    public var records: (any TipRecordReader)?

    public init(key: TipKey? = nil, records: (any TipRecordReader)? = nil) {
        self.key = key
        self.records = records
    }
}
