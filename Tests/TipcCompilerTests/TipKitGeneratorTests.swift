#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TipcCompiler
@testable import TipKitBridge

/// `tipc generate tipkit`: the example apps written as TipKit Swift, imported back.
private let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Examples")

private func parsed(_ app: String) throws -> [ManifestFile] {
    let path = examples.appendingPathComponent("\(app)/\(app).yaml").path
    let source = SourceFile(path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    var diagnostics: [Diagnostic] = []
    var file = Frontend.parse(source, diagnostics: &diagnostics)
    #expect(diagnostics.isEmpty)
    // TipKit has no form for a rule that reads another tip (`tip(welcome)`, format 2): the
    // round trip covers the rest (`whatTipKitCannotSayIsAnErrorAtTheManifest` the refusal).
    for index in file.tips.indices {
        file.tips[index].rules.removeAll { rule in ExpressionPrinter.print(rule).contains("tip(") }
    }
    return [file]
}

/// The declarations without what the round trip is allowed to change: rules are split at their
/// top-level `and` and a `within` suffix moves onto the events; an imported event without a
/// declared limit gets TipKit's 1,000.
private func comparable(_ file: ManifestFile) -> ManifestFile {
    var file = file
    for index in file.tips.indices { file.tips[index].rules = [] }
    for index in file.events.indices where file.events[index].donationLimit?.maximumCount?.value ?? 1000 == 1000
        && file.events[index].donationLimit?.maximumAgeSeconds == nil {
        file.events[index].donationLimit = nil
    }
    return file
}

@Test(arguments: [("backyard-birds", TipKitGenerator.MinimumOS.ios17), ("photo-privacy", .ios18), ("news", .ios26)])
func generatedTipKitImportsBackToTheSameDeclarations(_ app: String, _ minimum: TipKitGenerator.MinimumOS) throws {
    let original = try parsed(app)
    var diagnostics: [Diagnostic] = []
    let swift = try #require(TipKitGenerator.generate(original, sources: [app], minimumOS: minimum, diagnostics: &diagnostics))
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    let imported = TipKitImporter.importModule([SourceFile(path: "Tips.swift", text: swift)], diagnostics: &diagnostics)
    #expect(diagnostics.isEmpty, "\(diagnostics.map(\.message))")
    var originalFile = comparable(original[0])
    originalFile.path = "x"
    var importedFile = comparable(imported.file)
    importedFile.path = "x"
    importedFile.format = originalFile.format
    #expect(ManifestDifference.first(between: originalFile, and: importedFile) == nil,
            "\(ManifestDifference.first(between: originalFile, and: importedFile) ?? "")")
    // Every rule comes back (split at its top-level `and`s).
    #expect(imported.file.tips.map(\.rules.count).reduce(0, +) >= original[0].tips.map(\.rules.count).reduce(0, +))
}

@Test func whatTipKitCannotSayIsAnErrorAtTheManifest() throws {
    let source = SourceFile(path: "app.tips", text: """
    tipkit 1
    param a: Bool = false
    event e
    tip t {
      title "T"
      maxDisplayDuration 30s
      rule $a or e.count > 1
      rule e.count >= 2000
      rule now > date("2026-01-01T00:00:00Z")
    }
    group g ordered { t }
    """)
    var diagnostics: [Diagnostic] = []
    let file = Frontend.parse(source, diagnostics: &diagnostics)
    #expect(diagnostics.isEmpty)
    #expect(TipKitGenerator.generate([file], sources: ["app.tips"], minimumOS: .ios17, diagnostics: &diagnostics) == nil)
    let lines = diagnostics.sortedForDisplay().map { "\($0.range.start) \($0.severity.rawValue) \($0.code.rawValue)" }
    #expect(lines == ["6:22 error tipkit-unsupported", "7:14 error tipkit-unsupported", "8:8 warning tipkit-unsupported",
                      "9:8 error tipkit-unsupported", "11:1 error tipkit-unsupported"])
}
