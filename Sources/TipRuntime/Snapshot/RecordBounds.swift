/// What every stored record must be, wherever it comes from (a write of this runtime, a
/// merged store, a synced snapshot): instants between the first instant of year 0000 and
/// the last millisecond of year 9999 (what ISO-8601 dates can say), ids and names that are not
/// empty, displays that do not count down, an arm only on displays and exposures (and always
/// on an exposure).
///
/// The upper bound on stamps is what keeps last-writer-wins honest: a stamp at `Int64.max`
/// would leave no later stamp for the next write, which would be acknowledged and then lose.
/// A snapshot holding an instant outside the bounds is refused before anything is merged,
/// and a write whose stamp would pass the upper bound is refused before it is stored.
package enum RecordBounds {
    /// 0000-01-01T00:00:00Z, in milliseconds since 1970.
    package static let earliestMilliseconds: Int64 = -62_167_219_200_000
    /// 9999-12-31T23:59:59.999Z, in milliseconds since 1970.
    package static let latestMilliseconds: Int64 = 253_402_300_799_999

    /// Whether `milliseconds` is an instant a record may hold.
    package static func contains(_ milliseconds: Int64) -> Bool {
        (earliestMilliseconds...latestMilliseconds).contains(milliseconds)
    }

    /// The bounds as a person reads them.
    package static var description: String {
        "\(ISO8601.string(fromMilliseconds: Int(earliestMilliseconds))) to \(ISO8601.string(fromMilliseconds: Int(latestMilliseconds)))"
    }
}

extension StoreSnapshot {
    /// Checks that every record is dated and stamped within the years 0000–9999 (and filed under its own id)
    /// before any of it is merged: the first record that fails is named in a `.corrupt` error.
    package func validate() throws(TipStoreError) {
        func refuse(_ what: String, _ problem: String) -> TipStoreError {
            TipStoreError(.corrupt, "\(what) \(problem); nothing was merged")
        }
        func instant(_ milliseconds: Int64, _ what: String, _ name: String) throws(TipStoreError) {
            guard RecordBounds.contains(milliseconds) else {
                throw refuse(what, "has \(name) \(milliseconds) ms, outside \(RecordBounds.description)")
            }
        }
        for (id, donation) in donations.sorted(by: { $0.key < $1.key }) {
            let what = "donation '\(id)'"
            guard !id.isEmpty, donation.id == id else { throw refuse(what, "is filed under an id that is not its own ('\(donation.id)')") }
            guard !donation.event.isEmpty else { throw refuse(what, "has no event name") }
            try instant(donation.date, what, "the date")
        }
        for (name, parameter) in parameters.sorted(by: { $0.key < $1.key }) {
            let what = "parameter '\(name)'"
            guard !name.isEmpty else { throw refuse("a parameter", "has no name") }
            try instant(parameter.stamp.milliseconds, what, "the stamp")
        }
        for (id, record) in tipRecords.sorted(by: { $0.key < $1.key }) {
            let what = "tip record '\(id)'"
            guard !id.isEmpty, record.id == id else { throw refuse(what, "is filed under an id that is not its own ('\(record.id)')") }
            guard !record.tip.isEmpty else { throw refuse(what, "has no tip name") }
            try instant(record.stamp.milliseconds, what, "the stamp")
            try instant(record.date, what, "the date")
            switch record.kind {
            case .display(let count, let milliseconds):
                guard count >= 0, milliseconds >= 0 else { throw refuse(what, "is a display with a negative count or time on screen") }
            case .action(let action):
                guard !action.isEmpty else { throw refuse(what, "is an action without an action id") }
            case .exposure(let experiment):
                guard !experiment.isEmpty else { throw refuse(what, "is an exposure without an experiment") }
                guard record.arm != nil else { throw refuse(what, "is an exposure without an arm") }
            case .invalidation, .reset:
                break
            }
            if let arm = record.arm {
                guard !arm.isEmpty else { throw refuse(what, "has an empty arm") }
                switch record.kind {
                case .display, .exposure: break
                case .invalidation, .reset, .action: throw refuse(what, "has an arm, which only displays and exposures carry")
                }
            }
        }
        if let latestFirstDisplay { try instant(latestFirstDisplay, "the latest first display", "the instant") }
        for (event, deletion) in donationDeletions.sorted(by: { $0.key < $1.key }) {
            guard !event.isEmpty else { throw refuse("a donation deletion", "has no event name") }
            try instant(deletion, "the deletion of event '\(event)'", "the instant")
        }
        for (key, assignment) in assignments.sorted(by: { ($0.key.experiment, $0.key.salt) < ($1.key.experiment, $1.key.salt) }) {
            let what = "assignment '\(assignment.id)'"
            guard key == assignment.key else { throw refuse(what, "is filed under another experiment and salt than its own") }
            guard !assignment.id.isEmpty else { throw refuse("an assignment of experiment '\(assignment.experiment)'", "has no id") }
            guard !assignment.experiment.isEmpty, !assignment.salt.isEmpty, !assignment.arm.isEmpty else {
                throw refuse(what, "needs an experiment, a salt and an arm (none empty)")
            }
            try instant(assignment.date, what, "the date")
        }
    }
}
