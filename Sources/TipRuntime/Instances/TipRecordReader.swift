/// What a rule may read of another tip: its recorded state,
/// never its rules, so no cycle can arise.
package struct TipRecordColumns: Sendable, Hashable {
    /// The tip is invalidated now (any reason).
    package var invalidated: Bool
    /// One entry per display since the tip's latest reset, dated; no fields.
    package var displays: DonationColumns
    /// One entry per invalidation since the latest reset, dated; one field, `reason` (String).
    package var invalidations: DonationColumns

    package init(invalidated: Bool = false, displays: DonationColumns = DonationColumns(),
                invalidations: DonationColumns = DonationColumns(fields: [PayloadColumn(type: .string)])) {
        self.invalidated = invalidated
        self.displays = displays
        self.invalidations = invalidations
    }
}

/// Where the VM reads other tips' records during an evaluation (`tip(X).displays` …). A class:
/// the machine borrows it for the evaluation without retaining it on each read.
package protocol TipRecordReader: AnyObject {
    /// The records of tip `tip` (an index into the pack's tips), of its instance `key` when
    /// the tip has a key. A tip or instance without records reads as never displayed nor
    /// invalidated.
    func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns
    /// Parts of `records(ofTip:key:)`, which the VM reads one at a time; by default, from it.
    func isInvalidated(tip: Int, key: TipKey?) -> Bool
    func displays(ofTip tip: Int, key: TipKey?) -> DonationColumns
    func invalidations(ofTip tip: Int, key: TipKey?) -> DonationColumns
    /// How many displays (or, with `invalidations`, invalidations) of tip `tip` (its instance
    /// `key`) are dated in the window of `window` ms ending at `now`, or how many there are when
    /// `window` is nil (`DonationColumns.count(within:endingAt:)`): what the VM reads for
    /// `tip(X).invalidations.within(1d).count`, counted where the dates lie rather than from a
    /// copy of the columns. By default, from `displays(ofTip:key:)` or `invalidations(ofTip:key:)`.
    func countDates(ofTip tip: Int, key: TipKey?, invalidations: Bool, within window: Int64?, endingAt now: Int64) -> Int
}

extension TipRecordReader {
    public func isInvalidated(tip: Int, key: TipKey?) -> Bool { records(ofTip: tip, key: key).invalidated }
    public func displays(ofTip tip: Int, key: TipKey?) -> DonationColumns { records(ofTip: tip, key: key).displays }
    public func invalidations(ofTip tip: Int, key: TipKey?) -> DonationColumns { records(ofTip: tip, key: key).invalidations }

    public func countDates(ofTip tip: Int, key: TipKey?, invalidations: Bool, within window: Int64?, endingAt now: Int64) -> Int {
        (invalidations ? self.invalidations(ofTip: tip, key: key) : displays(ofTip: tip, key: key)).count(within: window, endingAt: now)
    }
}

/// The instance a rule is evaluated for: its key (nil for a tip without one), and where
/// `tip(X)` reads other tips' records (nil: as if no tip had any).
package struct RuleInstance {
    package var key: TipKey?
    package var records: (any TipRecordReader)?

    package init(key: TipKey? = nil, records: (any TipRecordReader)? = nil) {
        self.key = key
        self.records = records
    }
}
