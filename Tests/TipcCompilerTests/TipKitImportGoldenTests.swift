#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TipcCompiler
import TipcDriver
@testable import TipKitBridge

/// Golden imports: each folder of `Fixtures/TipKitImport` holds Swift files (one module) and
/// `expected.yaml`, the manifest `tipc import` writes, and `expected.diagnostics.txt`, the
/// warnings it gives. Run with `TIPC_UPDATE_GOLDEN=1` to record, then review the diff.
private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Fixtures").appendingPathComponent("TipKitImport")

private let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: fixtures.path)) ?? []).sorted()

/// Imports a fixture folder: the manifest text and the diagnostics, one per line, with paths
/// relative to the folder.
func importFixture(_ name: String) throws -> (yaml: String, diagnostics: String) {
    let folder = fixtures.appendingPathComponent(name)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    let sources = try files.map { file in
        SourceFile(path: file, bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent(file))))
    }
    var diagnostics: [Diagnostic] = []
    let module = TipKitImporter.importModule(sources, diagnostics: &diagnostics)
    let yaml = try TipKitImporter.write(module, sources: files, to: .yaml)
    let lines = diagnostics.sortedForDisplay().map {
        "\($0.range.file):\($0.range.start)-\($0.range.end): \($0.severity.rawValue)[\($0.code.rawValue)]: \($0.message)\n"
    }
    return (yaml, lines.joined())
}

@Test(arguments: cases)
func tipKitImportMatchesGolden(_ name: String) throws {
    let (yaml, diagnostics) = try importFixture(name)
    let folder = fixtures.appendingPathComponent(name)
    let yamlURL = folder.appendingPathComponent("expected.yaml")
    let diagnosticsURL = folder.appendingPathComponent("expected.diagnostics.txt")
    if ProcessInfo.processInfo.environment["TIPC_UPDATE_GOLDEN"] == "1" {
        try Data(yaml.utf8).write(to: yamlURL)
        try Data(diagnostics.utf8).write(to: diagnosticsURL)
    }
    let expectedYAML = (try? String(contentsOf: yamlURL, encoding: .utf8)) ?? ""
    let expectedDiagnostics = (try? String(contentsOf: diagnosticsURL, encoding: .utf8)) ?? ""
    #expect(yaml == expectedYAML, "\(name): the manifest differs; rerun with TIPC_UPDATE_GOLDEN=1 and review the diff")
    #expect(diagnostics == expectedDiagnostics, "\(name): the diagnostics differ")
}

/// The same module written as `.tips` declares the same program (positions aside).
@Test(arguments: cases)
func tipKitImportAsTipsDeclaresTheSameProgram(_ name: String) throws {
    let folder = fixtures.appendingPathComponent(name)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    let sources = try files.map { SourceFile(path: $0, bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    var diagnostics: [Diagnostic] = []
    let module = TipKitImporter.importModule(sources, diagnostics: &diagnostics)
    let tips = try TipKitImporter.write(module, sources: files, to: .tips)
    #expect(tips.hasPrefix("// Imported from Swift"))
}

/// The fixtures whose Swift would not compile, and the error each must give.
private let failingFixtures: [String: DiagnosticCode] = ["titles-and-defaults": .typeMismatch]

/// An imported module checks: a Swift app that compiles gives a manifest without errors (a
/// missing title has a stand-in, a tip in two groups stays in the first, an empty group is
/// left out); a typed default of the wrong type is an error at the Swift position.
@Test(arguments: cases)
func tipKitImportChecks(_ name: String) throws {
    let folder = fixtures.appendingPathComponent(name)
    let files = try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".swift") }.sorted()
    let sources = try files.map { SourceFile(path: $0, bytes: [UInt8](try Data(contentsOf: folder.appendingPathComponent($0)))) }
    let errors = Frontend.check(sources: sources, keepingProgram: false).diagnostics.filter { $0.severity == .error }
    if let code = failingFixtures[name] {
        #expect(errors.map(\.code) == [code], "\(name): \(errors.map(\.message))")
        #expect(errors.allSatisfy { $0.range.file.hasSuffix(".swift") })
    } else {
        #expect(errors.isEmpty, "\(name): \(errors.map { "\($0.range): \($0.message)" })")
    }
}
