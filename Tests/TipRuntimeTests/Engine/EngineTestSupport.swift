import Testing
@testable import TipRuntime
import TipcCompiler
import TipcDriver

/// 2026-03-01T09:00:00Z, the start of every engine test's clock.
let testStart: Int64 = 1_772_355_600_000
let oneMinute: Int64 = 60_000
let oneHour: Int64 = 3_600_000
let oneDay: Int64 = 86_400_000

/// Compiles `.tips` source text into a verified pack; a test fails on diagnostics.
func verifiedPack(_ source: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws -> VerifiedRulePack {
    let (result, pack) = Frontend.compile(sources: [SourceFile(path: "test.tips", text: source)])
    let errors = result.diagnostics.filter { $0.severity == .error }
    #expect(errors.isEmpty, "\(errors.map { "\($0.range): \($0.message)" })", sourceLocation: sourceLocation)
    return try RulePackVerifier.verify(try #require(pack, sourceLocation: sourceLocation))
}

/// A runtime over `source` with a manual clock at `testStart` and an in-memory store.
func makeCenter(_ source: String, clock: ManualClock = ManualClock(now: testStart),
                persistence: (any TipPersistence)? = nil) throws -> TipCenter {
    try TipCenter(pack: try verifiedPack(source), persistence: persistence ?? MemoryPersistence(deviceID: "test"), clock: clock)
}

/// An in-memory store whose writes fail while `failsWrites` is set (reads always succeed).
final class FailingPersistence: TipPersistence {
    private let store: MemoryPersistence
    private let failing = RuntimeLock(false)

    init(deviceID: String = "test") {
        store = MemoryPersistence(deviceID: deviceID)
    }

    var failsWrites: Bool {
        get { failing.withLock { $0 } }
        set { failing.withLock { $0 = newValue } }
    }

    private func write() throws(TipStoreError) {
        if failsWrites { throw TipStoreError(.unavailable, "the test's store refuses writes") }
    }

    var deviceID: String { store.deviceID }
    func read(donations body: (DonationRecord) -> Void) throws(TipStoreError) -> StoreSnapshot { try store.read(donations: body) }
    func append(_ donations: [DonationRecord]) throws(TipStoreError) { try write(); try store.append(donations) }
    func trim(event: String, maximumCount: Int64?, maximumAgeMilliseconds: Int64?, now: Int64) throws(TipStoreError) {
        try write()
        try store.trim(event: event, maximumCount: maximumCount, maximumAgeMilliseconds: maximumAgeMilliseconds, now: now)
    }
    func write(parameters: [String: ParameterRecord]) throws(TipStoreError) { try write(); try store.write(parameters: parameters) }
    func add(_ records: [TipEventRecord], latestFirstDisplay: Int64?) throws(TipStoreError) {
        try write()
        try store.add(records, latestFirstDisplay: latestFirstDisplay)
    }
    func assign(_ assignments: [AssignmentRecord]) throws(TipStoreError) { try write(); try store.assign(assignments) }
    func merge(_ other: StoreSnapshot) throws(TipStoreError) { try write(); try store.merge(other) }
    func clear() throws(TipStoreError) { try write(); try store.clear() }
    func deleteDonations(of event: String, through instant: Int64) throws(TipStoreError) {
        try write()
        try store.deleteDonations(of: event, through: instant)
    }
}

/// What kind of store failure `error` reports; nil for any other error.
func storeKind(of error: TipError) -> TipStoreError.Kind? {
    guard case .store(let failure) = error else { return nil }
    return failure.kind
}
