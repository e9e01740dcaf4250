import Foundation
import Testing
@testable import TipRuntime
import TipcCompiler
import TipcDriver

/// A format-1 pack, written by tipc before format 2, still loads and runs as before.
/// `Fixtures/format1/news.tippack` was compiled from the `news.yaml` beside it by that tipc and
/// is never regenerated.
@Suite struct FormatOnePackTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/format1")

    static func formatOnePack() throws -> VerifiedRulePack {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent("news.tippack")))
        #expect(bytes[8] == 1, "the fixture must stay a format-1 pack")
        return try RulePackLoader.decode(bytes)
    }

    static func compiledToday() throws -> VerifiedRulePack {
        let text = try String(contentsOf: folder.appendingPathComponent("news.yaml"), encoding: .utf8)
        // The path the fixture was compiled under (its source ranges name it).
        let path = "Tests/TipRuntimeTests/Fixtures/format1/news.yaml"
        let (result, pack) = Frontend.compile(sources: [SourceFile(path: path, text: text)])
        #expect(!result.diagnostics.contains { $0.severity == .error })
        return try RulePackVerifier.verify(try #require(pack))
    }

    @Test func loadsWithItsVersion() throws {
        let old = try Self.formatOnePack()
        #expect(old.pack.formatVersion == 1)
        #expect(try Self.compiledToday().pack.formatVersion == PackFormat.version)
    }

    /// The model read from the format-1 bytes is the one today's compiler builds from the same
    /// manifest, and it re-encodes to today's bytes.
    @Test func readsAsTodaysCompilerOutput() throws {
        var old = try Self.formatOnePack().pack
        let today = try Self.compiledToday().pack
        old.formatVersion = today.formatVersion
        // Format-1 packs were written before packs named their producer.
        #expect(old.producer == nil)
        old.producer = today.producer
        #expect(old == today)
        #expect(RulePackWriter.encode(old) == RulePackWriter.encode(today))
    }

    /// Both packs give the same statuses over the same journey.
    @Test func runsAsTodaysPack() throws {
        let clock = ManualClock(now: testStart)
        let old = try TipCenter(pack: try Self.formatOnePack(), persistence: MemoryPersistence(deviceID: "a"), clock: clock)
        let today = try TipCenter(pack: try Self.compiledToday(), persistence: MemoryPersistence(deviceID: "b"), clock: clock)
        #expect(old.statuses() == today.statuses())
        for round in 0..<4 {
            for event in today.pack.events where event.fields.isEmpty {
                _ = try old.donate(event.name)
                _ = try today.donate(event.name)
            }
            clock.advance(milliseconds: oneHour * Int64(round + 1))
            #expect(old.statuses() == today.statuses())
        }
        for tip in today.pack.tips {
            try old.recordDisplay(tip.name)
            try today.recordDisplay(tip.name)
        }
        #expect(old.statuses() == today.statuses())
        #expect(old.statuses().values.contains { $0 != .pending })
    }
}
