/// `deleteDonations(of:)` (TipKit 26): an event's donations recorded up to an instant stop
/// counting, on every device once the stores merge. Each store keeps, per event, the latest
/// deletion instant (merge keeps the later one); a donation dated at or before it is left out
/// of evaluation wherever it comes from: this device, another process, or a merge that brings
/// one in from a device that had not seen the deletion yet. The store that records a deletion
/// also removes the donations it covers; copies merged in later stay stored, unused.
extension EngineState {
    /// Whether a donation of `event` dated `date` is covered by a deletion.
    func isDeleted(event: String, date: Int64) -> Bool {
        guard let instant = donationDeletions[event] else { return false }
        return date <= instant
    }

    /// Drops from the query index every donation a recorded deletion covers.
    mutating func excludeDeletedDonations() {
        for (event, instant) in donationDeletions {
            guard let index = eventIndex[event] else { continue }
            donations.removeDonations(ofEvent: index, through: instant)
        }
    }

    /// Records a deletion of `event`'s donations through `instant` (the later instant stays)
    /// and drops them from the index.
    mutating func deleteDonations(of event: Int, through instant: Int64) {
        let name = model.events[event].name
        donationDeletions[name] = max(donationDeletions[name] ?? instant, instant)
        excludeDeletedDonations()
    }
}

extension TipCenter {
    /// Deletes the event's donations recorded up to now (TipKit 26's `deleteDonations()`):
    /// rules no longer count them here, nor on any device once the stores merge (a donation
    /// dated up to now that a merge brings in later is left out too). Returns once the
    /// deletion is durable; observers receive the statuses that change.
    public func deleteDonations(of event: String) throws(TipError) {
        let now = clock.milliseconds()
        try mutate { (engine: inout EngineState) throws(TipError) in
            guard let index = engine.eventIndex[event] else { throw .donation(.unknownEventName(event)) }
            try stored { () throws(TipStoreError) in try persistence.deleteDonations(of: event, through: now) }
            engine.deleteDonations(of: index, through: now)
        }
    }

    /// The instant up to which the event's donations were deleted, if they ever were.
    package func donationDeletion(of event: String) -> Int64? {
        state.withLock { $0.donationDeletions[event] }
    }
}
