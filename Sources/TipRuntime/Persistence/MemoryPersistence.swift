import Synchronization

/// Persistence in memory only: state lasts as long as the object (tests, previews, and apps
/// that do not want tips remembered).
public final class MemoryPersistence: TipPersistence {
    public let deviceID: String
    private let state: Mutex<State>

    private struct State {
        var snapshot: StoreSnapshot
        var sequence: Int64 = 0
        /// Donation ids in the order they were stored (ties in time keep this order).
        var order: [String] = []
    }

    public init(deviceID: String = "memory", snapshot: StoreSnapshot = .empty) {
        self.deviceID = deviceID
        state = Mutex(State(snapshot: snapshot, order: snapshot.donations.values.sorted { ($0.date, $0.id) < ($1.date, $1.id) }.map(\.id)))
    }

    public func loadState() throws(TipStoreError) -> StoreSnapshot {
        state.withLock { state in
            var snapshot = state.snapshot
            snapshot.donations = [:]
            return snapshot
        }
    }

    public func forEachDonation(_ body: (DonationRecord) throws -> Void) throws(TipStoreError) {
        let ordered: [DonationRecord] = state.withLock { state in
            state.order.enumerated()
                .compactMap { entry in state.snapshot.donations[entry.element].map { (position: entry.offset, record: $0) } }
                .sorted { ($0.record.date, $0.position) < ($1.record.date, $1.position) }
                .map(\.record)
        }
        do {
            for donation in ordered { try body(donation) }
        } catch {
            throw TipStoreError(.io, "\(error)")
        }
    }

    public func append(_ donations: [PendingDonation]) throws(TipStoreError) -> [DonationRecord] {
        state.withLock { state in
            donations.map { donation in
                state.sequence += 1
                let record = donation.record(id: "\(deviceID):\(state.sequence)")
                state.snapshot.donations[record.id] = record
                state.order.append(record.id)
                return record
            }
        }
    }

    public func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?) throws(TipStoreError) {
        state.withLock { state in
            let ids = state.order.filter { state.snapshot.donations[$0]?.event == event }
                .compactMap { state.snapshot.donations[$0] }
                .enumerated().sorted { ($0.element.date, $0.offset) < ($1.element.date, $1.offset) }.map(\.element)
            var drop = 0
            if let age = maximumAgeMilliseconds, let newest = ids.last?.date {
                while drop < ids.count, ids[drop].date < newest - age { drop += 1 }
            }
            if let limit = maximumCount, ids.count - drop > Int(limit) { drop = ids.count - Int(limit) }
            let removed = Set(ids.prefix(drop).map(\.id))
            guard !removed.isEmpty else { return }
            for id in removed { state.snapshot.donations[id] = nil }
            state.order.removeAll { removed.contains($0) }
        }
    }

    public func write(parameter name: String, _ record: ParameterRecord?) throws(TipStoreError) {
        state.withLock { $0.snapshot.parameters[name] = record }
    }

    public func write(tip name: String, _ record: TipRecord, latestFirstDisplay: Int64?) throws(TipStoreError) {
        state.withLock { state in
            state.snapshot.tips[name] = record
            state.snapshot.latestFirstDisplay = latestFirstDisplay
        }
    }

    public func replace(with snapshot: StoreSnapshot) throws(TipStoreError) {
        state.withLock { state in
            state.snapshot = snapshot
            state.order = snapshot.donations.values.sorted { ($0.date, $0.id) < ($1.date, $1.id) }.map(\.id)
        }
    }
}
