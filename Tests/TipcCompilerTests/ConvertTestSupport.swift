import Foundation
import TipRuntime
@testable import TipcCompiler
import TipcDriver

/// The repository's Examples folder.
let examplesFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

/// Every source file under Examples/, as (path, source).
func exampleSources() throws -> [SourceFile] {
    let manager = FileManager.default
    let paths = (manager.subpaths(atPath: examplesFolder.path) ?? [])
        .filter { SourceDiscovery.isSource($0) && !SourceDiscovery.isTimeline($0) }
        .sorted()
    return try paths.map { relative in
        let path = examplesFolder.appendingPathComponent(relative).path
        return SourceFile(path: path, bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
    }
}

/// Parses one source with the front end its extension names; the error diagnostics.
func parseSource(_ source: SourceFile) -> (file: ManifestFile, errors: [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let file = Frontend.parse(source, diagnostics: &diagnostics)
    return (file, diagnostics.filter { $0.severity == .error })
}

/// Checks and compiles one source as a whole program; nil with the errors when it has any.
func compilePack(_ source: SourceFile) -> (pack: RulePack?, errors: [Diagnostic]) {
    let result = Frontend.check(sources: [source])
    let errors = result.diagnostics.filter { $0.severity == .error }
    guard let program = result.program, errors.isEmpty else { return (nil, errors) }
    var diagnostics: [Diagnostic] = []
    let pack = RulePackCompiler.compile(program, diagnostics: &diagnostics)
    return (pack, diagnostics)
}

extension RulePack {
    /// The pack without debug information: rules' source ranges (which hold the file name)
    /// and source maps cleared. The string table holds only constants of the rules.
    func strippingDebugInfo() -> RulePack {
        var copy = self
        copy.tips = tips.map { tip in
            var tip = tip
            tip.rules = tip.rules.map { RuleProgram(code: $0.code) }
            return tip
        }
        return copy
    }
}

/// `path` with its extension replaced.
func renamed(_ path: String, to ext: String) -> String {
    let base = path.lastIndex(of: ".").map { String(path[..<$0]) } ?? path
    return base + "." + ext
}

/// Converts `source` to `format`; the text, or the error as text.
func convert(_ source: SourceFile, to format: SourceFormat) -> Result<SourceFile, AuthoringError> {
    let parsed = parseSource(source)
    guard parsed.errors.isEmpty else {
        return .failure(AuthoringError(path: source.path, message: parsed.errors.map(\.message).joined(separator: "; ")))
    }
    do {
        let text = try ManifestConverter.convert(source, parsed: parsed.file, to: format)
        return .success(SourceFile(path: renamed(source.path, to: format.rawValue), text: text))
    } catch {
        return .failure(error)
    }
}
