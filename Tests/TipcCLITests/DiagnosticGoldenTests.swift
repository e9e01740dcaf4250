import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipcDriver

/// Golden fixtures: each input in Fixtures/diagnostics is checked on its own, and its JSON
/// diagnostics must equal `<input>.expected.json` (and, where present, the text rendering
/// `<input>.expected.txt`). Run with `TIPC_UPDATE_GOLDEN=1` to record new expectations, then
/// review them.
@Suite("Diagnostic golden fixtures")
struct DiagnosticGoldenTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/diagnostics")

    static let inputs: [String] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { SourceDiscovery.isSource($0) || $0.hasSuffix(".swift") }.sorted()
    }()

    /// Inputs whose text rendering is also pinned.
    static let textRendered: Set<String> = ["unknown-event.yaml", "duplicate-key.yaml", "syntax-errors.tips", "unsatisfiable.yaml",
                                            "import-approximated.swift", "unknown-locale.yaml", "unknown-locale-default.tips",
                                            "invalidation-reason.tips", "help-lines.yaml", "help-lines.tips", "unknown-goal-event.yaml",
                                            "experiments.yaml"]

    static func report(for input: String) throws -> DiagnosticReport {
        let bytes = [UInt8](try Data(contentsOf: folder.appendingPathComponent(input)))
        let result = Frontend.check(sources: [SourceFile(path: input, bytes: bytes)])
        return DiagnosticReport(diagnostics: result.diagnostics, sources: result.sources, fileCount: 1)
    }

    static func compare(_ actual: String, toGolden name: String) throws {
        let url = folder.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["TIPC_UPDATE_GOLDEN"] == "1" {
            try Data(actual.utf8).write(to: url)
            return
        }
        let expected = try String(contentsOf: url, encoding: .utf8)
        #expect(actual == expected, "\(name) differs; rerun with TIPC_UPDATE_GOLDEN=1 and review the diff")
    }

    @Test func everyDiagnosticCodeHasAFixture() {
        let covered = Set(Self.inputs.compactMap { input -> String? in
            guard let report = try? Self.report(for: input) else { return nil }
            return report.diagnostics.map(\.code.rawValue).joined(separator: ",")
        }.flatMap { $0.split(separator: ",").map(String.init) })
        // `io` cannot come from a file's contents and `tipkit-unsupported` only from `tipc generate
        // tipkit` (pinned by GenerateCommandTests); every other code must be pinned by a fixture.
        for code in DiagnosticCode.allCases where code != .io && code != .tipkitUnsupported {
            #expect(covered.contains(code.rawValue), "no fixture produces '\(code.rawValue)'")
        }
    }

    @Test(arguments: inputs)
    func jsonDiagnostics(_ input: String) throws {
        let report = try Self.report(for: input)
        #expect(!report.diagnostics.isEmpty, "a fixture must produce diagnostics")
        try Self.compare(JSONReporter().render(report), toGolden: input + ".expected.json")
    }

    @Test(arguments: inputs.filter { textRendered.contains($0) })
    func textRendering(_ input: String) throws {
        try Self.compare(TextReporter(colored: false).render(try Self.report(for: input)), toGolden: input + ".expected.txt")
    }
}
