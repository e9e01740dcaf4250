import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite
import TipService
import TipServicePostgres

/// One conformance suite for every store: each case is run on every `TipPersistence` (memory,
/// the device's SQLite file) and every `ServiceStore` (SQLite, PostgreSQL), and after every
/// operation the store must hold exactly what `StoreOperation.applied(to:)` says, list its
/// donations in their order, and (a service store) read the same in a snapshot taken without
/// the user's lock; an operation the definition refuses must fail the same way and change
/// nothing. Adding a store operation is a `StoreOperation` case and a `ConformanceCase`.
@Suite("Store conformance")
struct StoreConformanceTests {
    @Test(arguments: StoreKind.local, ConformanceCase.all)
    func localStoresFollowTheDefinition(_ kind: StoreKind, _ conformanceCase: ConformanceCase) throws {
        try Self.check(conformanceCase, on: kind)
    }

    @Test(.enabled(if: StoreKind.postgresURL != nil, "TIPC_TEST_POSTGRES_URL is not set (scripts/test.sh starts a cluster)"),
          arguments: ConformanceCase.all)
    func thePostgresStoreFollowsTheDefinition(_ conformanceCase: ConformanceCase) throws {
        try Self.check(conformanceCase, on: .postgresService)
    }

    /// A law is a property of the definition: every script of the case ends in one state.
    @Test(arguments: ConformanceCase.all.filter(\.isLaw))
    func lawsHoldInTheDefinition(_ conformanceCase: ConformanceCase) throws {
        let ends = try conformanceCase.scripts.map { script in
            try script.reduce(StoreSnapshot.empty) { (state: StoreSnapshot, operation: StoreOperation) throws -> StoreSnapshot in
                (try? operation.applied(to: state)) ?? state
            }
        }
        #expect(Set(ends).count == 1, "\(conformanceCase.name): the scripts end in different states")
    }

    static func check(_ conformanceCase: ConformanceCase, on kind: StoreKind) throws {
        let folder = try ConformanceFolder()
        for (number, script) in conformanceCase.scripts.enumerated() {
            let store = try kind.make(in: folder)
            var expected = StoreSnapshot.empty
            try expectHolds(expected, store, "\(kind), \(conformanceCase.name), script \(number + 1), before any step")
            for (index, operation) in script.enumerated() {
                let place = "\(kind), \(conformanceCase.name), script \(number + 1), step \(index + 1)"
                let defined = Result { () throws(TipStoreError) in try operation.applied(to: expected) }
                let performed = Result { () throws in try store.perform { persistence in try operation.perform(on: persistence) } }
                switch (defined, performed) {
                case (.success(let next), .success):
                    expected = next
                case (.failure(let refusal), .failure(let error)):
                    #expect((error as? TipStoreError)?.kind == refusal.kind, "\(place): \(error)")
                case (.success, .failure(let error)):
                    Issue.record("\(place): the store refused what the definition does: \(error)")
                    return
                case (.failure(let refusal), .success):
                    Issue.record("\(place): the store did what the definition refuses (\(refusal))")
                    return
                }
                try expectHolds(expected, store, place)
            }
            try store.expectNeighbourUntouched()
        }
    }

    /// The store holds `expected`, lists its donations in their order, and a read-only
    /// snapshot (a service store's) reads the same.
    static func expectHolds(_ expected: StoreSnapshot, _ store: any ConformingStore, _ place: String) throws {
        var order: [DonationRecord] = []
        var loaded = try store.perform { persistence in try persistence.read { order.append($0) } }
        loaded.donations = Dictionary(order.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        #expect(loaded == expected, "\(place): the store holds another state")
        #expect(order.map(\.id) == expected.donations.values.sorted(by: DonationRecord.precedes).map(\.id),
                "\(place): donations out of their order")
        if let (snapshot, snapshotOrder) = try store.readOnlySnapshot() {
            #expect(snapshot == loaded && snapshotOrder == order, "\(place): a read-only snapshot reads another state")
        }
    }
}

/// The stores the suite runs.
enum StoreKind: String, Sendable, CustomTestStringConvertible {
    case memory = "memory"
    case sqliteDevice = "SQLite device store"
    case sqliteService = "SQLite service store"
    case postgresService = "PostgreSQL service store"

    /// The stores that need no server.
    static let local: [StoreKind] = [.memory, .sqliteDevice, .sqliteService]

    var testDescription: String { rawValue }

    static var postgresURL: String? {
        ProcessInfo.processInfo.environment["TIPC_TEST_POSTGRES_URL"].flatMap { $0.isEmpty ? nil : $0 }
    }

    /// One PostgreSQL store for the whole run (every script uses a user of its own).
    static let postgres = Result { () throws -> PostgresServiceStore in
        guard let url = postgresURL else { throw TipStoreError(.unavailable, "TIPC_TEST_POSTGRES_URL is not set") }
        return try PostgresServiceStore(url: url)
    }

    /// A new, empty store (a service store's new user, beside a neighbour with records of its own).
    func make(in folder: ConformanceFolder) throws -> any ConformingStore {
        switch self {
        case .memory: return DeviceStore(persistence: MemoryPersistence(deviceID: "device"))
        case .sqliteDevice: return DeviceStore(persistence: try SQLitePersistence(path: folder.newPath(), deviceID: "device"))
        case .sqliteService: return try ServiceUser(store: folder.serviceStore())
        case .postgresService: return try ServiceUser(store: Self.postgres.get())
        }
    }
}

/// A store as the suite drives it.
protocol ConformingStore {
    /// Runs `body` on the store's records: a device store's own persistence, a service store's
    /// user in one transaction.
    func perform<T>(_ body: (any TipPersistence) throws -> T) throws -> T
    /// What a request that only reads sees, and the order of its donations; nil for a device store.
    func readOnlySnapshot() throws -> (StoreSnapshot, [DonationRecord])?
    /// A service store's other user still holds exactly what it held.
    func expectNeighbourUntouched() throws
}

struct DeviceStore: ConformingStore {
    let persistence: any TipPersistence

    func perform<T>(_ body: (any TipPersistence) throws -> T) throws -> T { try body(persistence) }
    func readOnlySnapshot() throws -> (StoreSnapshot, [DonationRecord])? { nil }
    func expectNeighbourUntouched() throws {}
}

struct ServiceUser: ConformingStore {
    let store: any ServiceStore
    let user = "user-" + RecordID.random()
    /// A user beside `user`, with records of every kind under the same ids and names.
    let neighbour = "user-" + RecordID.random()
    static let neighbourRecords = StoreSnapshot(
        donations: ["d0": DonationRecord(id: "d0", event: "e0", date: 0)],
        parameters: ["p": ParameterRecord(value: .int(-1), stamp: Stamp(milliseconds: 99, device: "neighbour"))],
        tipRecords: ["r0": TipEventRecord(id: "r0", tip: "t1", stamp: Stamp(milliseconds: 1, device: "neighbour"), kind: .reset)],
        latestFirstDisplay: 99, donationDeletions: ["e1": -1],
        assignments: [AssignmentRecord.Key(experiment: "x", salt: "x"): AssignmentRecord(id: "a", experiment: "x", salt: "x", arm: "neighbour", date: -1)])

    init(store: any ServiceStore) throws {
        self.store = store
        try store.transaction(user: neighbour) { try $0.merge(Self.neighbourRecords) }
    }

    func perform<T>(_ body: (any TipPersistence) throws -> T) throws -> T { try store.transaction(user: user, body) }

    func readOnlySnapshot() throws -> (StoreSnapshot, [DonationRecord])? {
        var order: [DonationRecord] = []
        var snapshot = try store.snapshot(user: user) { order.append($0) }
        snapshot.donations = Dictionary(order.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return (snapshot, order)
    }

    func expectNeighbourUntouched() throws {
        #expect(try store.transaction(user: neighbour) { try $0.load() } == Self.neighbourRecords, "another user's records changed")
    }
}

/// A test's temporary folder, removed when the test ends, and its one service store file.
final class ConformanceFolder {
    let path: String
    private var service: SQLiteServiceStore?

    init() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-conformance-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    func newPath() -> String { path + "/store-\(RecordID.random()).sqlite" }

    func serviceStore() throws -> SQLiteServiceStore {
        if let service { return service }
        let store = try SQLiteServiceStore(path: path + "/service.sqlite")
        service = store
        return store
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}
