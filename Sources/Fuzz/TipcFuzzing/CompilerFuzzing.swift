import TipRuntime
import TipcCompiler
import TipcDriver
import TipKitBridge

/// Fuzz bodies for the compiler half: any bytes given as a source file must yield diagnostics,
/// never a crash, a hang or unbounded memory; and a program the checker accepts must compile to
/// a pack that the runtime's loader accepts and can evaluate.
public enum CompilerFuzzing {
    /// The YAML front end, checker, lints and pack compiler on `bytes` read as a manifest.
    public static func manifest(_ bytes: [UInt8]) {
        checkAndCompile(SourceFile(path: "fuzz.yaml", bytes: bytes))
    }

    /// The `.tips` front end, checker, lints and pack compiler on `bytes` read as a rule file.
    public static func ruleLanguage(_ bytes: [UInt8]) {
        checkAndCompile(SourceFile(path: "fuzz.tips", bytes: bytes))
    }

    /// The TipKit importer (Swift reader), checker, lints and pack compiler on `bytes` read as
    /// a Swift file; an import the checker accepts must also be writable as YAML and `.tips`
    /// declaring the same program.
    public static func swiftImport(_ bytes: [UInt8]) {
        let source = SourceFile(path: "fuzz.swift", bytes: bytes)
        checkAndCompile(source)
        var diagnostics: [Diagnostic] = []
        let module = TipKitImporter.importModule([source], diagnostics: &diagnostics)
        var checkerDiagnostics: [Diagnostic] = []
        guard !diagnostics.contains(where: { $0.severity == .error }),
              Checker.check([module.file], diagnostics: &checkerDiagnostics) != nil,
              !checkerDiagnostics.contains(where: { $0.severity == .error }) else { return }
        for format in [SourceFormat.yaml, .tips] {
            do {
                _ = try TipKitImporter.write(module, sources: ["fuzz.swift"], to: format)
            } catch {
                preconditionFailure("an import without errors cannot be written as \(format.rawValue): \(error)")
            }
        }
    }

    /// Checks one source; when it has no errors, compiles it and requires the pack to load.
    static func checkAndCompile(_ source: SourceFile) {
        let result = Frontend.check(sources: [source])
        let hasErrors = result.diagnostics.contains { $0.severity == .error }
        guard let program = result.program else {
            precondition(hasErrors, "the checker returned no program and no error")
            return
        }
        var diagnostics: [Diagnostic] = []
        guard let bytes = RulePackCompiler.compileToBytes(program, diagnostics: &diagnostics) else {
            // A constant that would fail at run time is a compile error: allowed, but it must say so.
            precondition(diagnostics.contains { $0.severity == .error }, "compilation failed without a diagnostic")
            return
        }
        do {
            let verified = try RulePackLoader.decode(bytes)
            PackFuzzing.exercise(verified)
        } catch {
            preconditionFailure("the compiler wrote a pack the loader refuses: \(error)")
        }
    }
}
