import Foundation
import Testing
import TipRuntime
import TipService

/// One version, reported alike everywhere: `tipc --version`, the producer of a compiled pack,
/// the service's `/healthz`, and the newest release in CHANGELOG.md, all from `TipcVersion`.
@Suite("Version", .serialized)
struct VersionTests {
    @Test func everyPlaceReportsTheOneVersion() throws {
        let version = TipcVersion.current
        #expect(version.split(separator: ".").count == 3 && version.split(separator: ".").allSatisfy { UInt($0) != nil })

        let printed = try ExecutableTests.run(["--version"])
        #expect(printed.stdout == "tipc \(version)\n")

        let (folder, manifest, store) = try ServeFixture.folder()
        let pack = folder.path + "/app.tippack"
        #expect(try ExecutableTests.run(["compile", manifest, "-o", pack]).status == 0)
        let loaded = try RulePackLoader.decodeModel(Array(try Data(contentsOf: URL(fileURLWithPath: pack))))
        #expect(loaded.producer == "tipc \(version)")
        let inspected = try ExecutableTests.run(["inspect", pack])
        #expect(inspected.stdout.contains("\nproducer: tipc \(version)\n"))

        let server = try ServerProcess(pack: pack, store: store)
        let health = try server.request("GET", "/healthz")
        #expect(health.status == 200)
        #expect(health.json?["version"] == .string(version))

        let changelog = try String(contentsOf: ReadmeTests.root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = changelog.split(separator: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(newest?.hasPrefix("## [\(version)]") == true, "\(newest ?? "no release in CHANGELOG.md")")
    }

    /// The producer table is optional: a pack without one loads, one with it round-trips, and
    /// a repeated or over-long one is refused.
    @Test func theProducerTableRoundTripsAndIsChecked() throws {
        var pack = RulePack(strings: [], displayFrequencyMilliseconds: 0, parameters: [], events: [], tips: [], groups: [])
        #expect(try RulePackLoader.decodeModel(RulePackWriter.encode(pack)).producer == nil)
        pack.producer = "tipc 9.9.9"
        #expect(try RulePackLoader.decodeModel(RulePackWriter.encode(pack)).producer == "tipc 9.9.9")
        pack.producer = String(repeating: "x", count: PackFormat.maximumProducerLength + 1)
        #expect(throws: RulePackError.self) { try RulePackLoader.decodeModel(RulePackWriter.encode(pack)) }
    }
}
