/// The fuzz targets (docs/fuzzing.md), named as `scripts/fuzz.sh` and the corpus folders
/// (`Fuzz/corpus/<name>`, `Fuzz/seeds/<name>.txt`) name them.
public enum FuzzTarget: String, CaseIterable, Sendable {
    /// The YAML front end, checker, lints and pack compiler.
    case manifest = "FuzzManifest"
    /// The `.tips` front end, checker, lints and pack compiler.
    case ruleLanguage = "FuzzRuleLanguage"
    /// The pack loader, verifier and VM on raw bytes.
    case pack = "FuzzPack"
    /// The pack loader, verifier and VM on structure-aware mutations of valid packs.
    case packMutation = "FuzzPackMutation"
    /// The TipKit importer's Swift reader, then the checker, lints and pack compiler, and
    /// writing the import as YAML and `.tips`.
    case swiftImport = "FuzzSwiftImport"

    /// Runs the target's fuzz body on one input.
    public func run(_ input: [UInt8]) {
        switch self {
        case .manifest: CompilerFuzzing.manifest(input)
        case .ruleLanguage: CompilerFuzzing.ruleLanguage(input)
        case .pack: PackFuzzing.pack(input)
        case .packMutation: PackMutation.run(input)
        case .swiftImport: CompilerFuzzing.swiftImport(input)
        }
    }
}
