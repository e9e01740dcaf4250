#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipRuntime

/// The rule pack a runtime command works with: read from a `.tippack`, or compiled from
/// manifests on the fly (then the sources are kept, so `explain` can quote rules).
public struct PackInput {
    public var pack: VerifiedRulePack
    /// Source files by path (empty for a `.tippack`).
    var sources: [String: SourceFile]
    /// The parsed manifests, when asked for (`keepingParsedFiles`); empty otherwise.
    var files: [ManifestFile] = []

    /// Whether `path` names a compiled pack.
    public static func isPack(_ path: String) -> Bool { path.hasSuffix(".tippack") }

    /// Loads a `.tippack` (verified), or compiles `manifests` as one program. Compile errors
    /// are printed as text diagnostics and end the command with exit code 1.
    public static func load(pack packPath: String?, manifests: [String], keepingParsedFiles: Bool = false,
                            context: CommandContext) throws -> PackInput {
        if let packPath {
            let bytes: [UInt8]
            do {
                bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: packPath)))
            } catch {
                throw CommandFailure.io("cannot read '\(packPath)'")
            }
            do {
                return PackInput(pack: try RulePackLoader.decode(bytes), sources: [:])
            } catch {
                throw CommandFailure.input("\(packPath): \(error)")
            }
        }
        guard !manifests.isEmpty else { throw CommandFailure.io("give a rule pack (--pack) or manifests (--manifest)") }
        let (result, pack) = Frontend.compile(try SingleProgram.load(manifests, keepingParsedFiles: keepingParsedFiles, context: context))
        guard let pack else {
            let report = DiagnosticReport(diagnostics: result.diagnostics, sources: result.sources, fileCount: result.fileCount)
            context.standardError.write(TextReporter(colored: false).render(report))
            throw CommandFailure.input("the manifests have errors; nothing was run")
        }
        do {
            return PackInput(pack: try RulePackVerifier.verify(pack), sources: result.sources, files: result.files)
        } catch {
            throw CommandFailure(.internalError, "the compiled pack does not verify: \(error)")
        }
    }
}
