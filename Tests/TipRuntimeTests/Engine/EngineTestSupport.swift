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
