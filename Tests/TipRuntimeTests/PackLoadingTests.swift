import Foundation
import Testing
@testable import TipRuntime
import TipcCompiler
import TipcDriver

/// Loading a pack as an app does: from a file URL (a bundled resource) or bytes, with every
/// failure one `TipError` carrying a code and a message.
@Suite("Runtime: loading a pack from a file")
struct PackLoadingTests {
    static func packBytes() throws -> [UInt8] {
        let (_, pack) = Frontend.compile(sources: [SourceFile(path: "app.tips", text: "tipkit 1\ntip welcome {\n  title \"Welcome\"\n}\n")])
        return RulePackWriter.encode(try #require(pack))
    }

    @Test func aPackLoadsFromAFileURL() throws {
        let url = URL(fileURLWithPath: temporaryDatabasePath("pack") + ".tippack")
        try Data(try Self.packBytes()).write(to: url)
        let pack = try RulePackLoader.load(contentsOf: url)
        #expect(pack.pack.tips.map(\.name) == ["welcome"])
    }

    @Test func aMissingFileAndDamagedBytesAreTipErrorsWithCodes() throws {
        let missing = URL(fileURLWithPath: temporaryDatabasePath("missing") + ".tippack")
        do {
            _ = try RulePackLoader.load(contentsOf: missing)
            Issue.record("a missing file loaded")
        } catch {
            #expect(error.code == "unreadable-pack")
            #expect(error.message.contains(missing.path))
        }
        var damaged = try Self.packBytes()
        damaged[damaged.count - 1] ^= 0xFF
        let url = URL(fileURLWithPath: temporaryDatabasePath("damaged") + ".tippack")
        try Data(damaged).write(to: url)
        do {
            _ = try RulePackLoader.load(contentsOf: url)
            Issue.record("a damaged pack loaded")
        } catch {
            guard case .invalidPack(let detail) = error else { Issue.record("expected invalidPack, got \(error)"); return }
            #expect(error.code == "invalid-pack")
            #expect(detail.kind == .checksumMismatch)
            #expect(error.message == detail.description)
        }
    }

    @Test func everyErrorHasAStableCodeAndAMessage() {
        let errors: [TipError] = [.unknownTip("welcom"), .unknownParameter("isPro"), .invalidAction("empty id"),
                                  .unreadableKey(tip: "trail", text: "abc", expected: .int)]
        #expect(errors.map(\.code) == ["unknown-tip", "unknown-parameter", "invalid-action", "wrong-key-type"])
        #expect(errors.allSatisfy { !$0.message.isEmpty && $0.message == $0.description })
    }
}
