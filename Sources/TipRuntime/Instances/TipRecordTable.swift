/// Every tip's and instance's history, as one immutable value the engine replaces on each
/// change (so that a failed store write rolls back by keeping the old table) and the VM reads
/// for `tip(X)` without copying anything (a class reference in the existential).
final class TipRecordTable: TipRecordReader, Sendable {
    private let maxDisplayCounts: [Int64?]
    private let maxDisplayDurations: [Int64?]
    /// By tip index: the history of a tip without a key.
    private let histories: [TipHistory]
    /// By tip index, then key: the histories of instances of keyed tips.
    private let instances: [Int: [TipKey: TipHistory]]

    private init(maxDisplayCounts: [Int64?], maxDisplayDurations: [Int64?], histories: [TipHistory], instances: [Int: [TipKey: TipHistory]]) {
        self.maxDisplayCounts = maxDisplayCounts
        self.maxDisplayDurations = maxDisplayDurations
        self.histories = histories
        self.instances = instances
    }

    /// The histories in `stored` of the pack's tips and of their instances (records of tips
    /// the pack does not have, or whose key no longer fits, stay stored but are not read).
    convenience init(pack: RulePack, tipIndex: [String: Int], stored: [TipInstance: TipHistory] = [:]) {
        var histories = [TipHistory](repeating: TipHistory(), count: pack.tips.count)
        var instances: [Int: [TipKey: TipHistory]] = [:]
        for (instance, history) in stored {
            guard let tip = tipIndex[instance.tip], pack.tips[tip].accepts(instance.key) else { continue }
            if let key = instance.key {
                instances[tip, default: [:]][key] = history
            } else {
                histories[tip] = history
            }
        }
        self.init(maxDisplayCounts: pack.tips.map(\.maxDisplayCount), maxDisplayDurations: pack.tips.map(\.maxDisplayDurationMilliseconds),
                  histories: histories, instances: instances)
    }

    /// The history of tip `tip` (of its instance `key`); empty when it has no records.
    func history(_ tip: Int, _ key: TipKey?) -> TipHistory {
        guard let key else { return histories[tip] }
        return instances[tip]?[key] ?? TipHistory()
    }

    /// Whether a record of `tip`, or of any of its instances, satisfies `predicate`.
    func containsRecord(ofTip tip: Int, where predicate: (TipEventRecord) -> Bool) -> Bool {
        histories[tip].records.contains(where: predicate)
            || (instances[tip]?.values.contains { $0.records.contains(where: predicate) } ?? false)
    }

    /// The keys of the instances of `tip` that have records, ascending.
    func keys(of tip: Int) -> [TipKey] {
        (instances[tip]?.keys).map { $0.sorted() } ?? []
    }

    /// This table with `record` added to the history of `tip` (of the record's key).
    func adding(_ record: TipEventRecord, tip: Int) -> TipRecordTable {
        var histories = self.histories, instances = self.instances
        if let key = record.key {
            instances[tip, default: [:]][key, default: TipHistory()].add(record)
        } else {
            histories[tip].add(record)
        }
        return TipRecordTable(maxDisplayCounts: maxDisplayCounts, maxDisplayDurations: maxDisplayDurations, histories: histories, instances: instances)
    }

    /// Why the tip (instance) is invalidated now, derived from its records, all devices'
    /// together: an invalidation since the latest reset, else the display limits reached by the
    /// displays since then (so a limit reached only by merging two devices' displays counts too).
    func invalidation(of tip: Int, key: TipKey?) -> InvalidationReason? {
        let history = history(tip, key)
        if let reason = history.currentInvalidation { return reason }
        if let limit = maxDisplayCounts[tip], history.displayCount >= limit { return .displayCountExceeded }
        if let limit = maxDisplayDurations[tip], history.displayDurationMilliseconds >= limit { return .displayDurationExceeded }
        return nil
    }

    func isInvalidated(tip: Int, key: TipKey?) -> Bool {
        if key == nil, histories[tip].currentInvalidation != nil { return true }
        return invalidation(of: tip, key: key) != nil
    }

    func displays(ofTip tip: Int, key: TipKey?) -> DonationColumns {
        guard let key else { return histories[tip].displayColumns }
        return instances[tip]?[key]?.displayColumns ?? DonationColumns()
    }

    func invalidations(ofTip tip: Int, key: TipKey?) -> DonationColumns {
        guard let key else { return histories[tip].invalidationColumns }
        return instances[tip]?[key]?.invalidationColumns ?? DonationColumns(fields: [PayloadColumn(type: .string)])
    }

    /// A tip without a key counts its dates where they lie; an instance's are looked up and copied.
    func countDates(ofTip tip: Int, key: TipKey?, invalidations: Bool, within window: Int64?, endingAt now: Int64) -> Int {
        guard key == nil else {
            return (invalidations ? self.invalidations(ofTip: tip, key: key) : displays(ofTip: tip, key: key)).count(within: window, endingAt: now)
        }
        if invalidations { return histories[tip].invalidationColumns.count(within: window, endingAt: now) }
        return histories[tip].displayColumns.count(within: window, endingAt: now)
    }

    func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns {
        let history = history(tip, key)
        return TipRecordColumns(invalidated: invalidation(of: tip, key: key) != nil,
                                displays: history.displayColumns, invalidations: history.invalidationColumns)
    }
}
