import TipcCompiler

/// Writing an imported module as a manifest (`tipc import`).
extension TipKitImporter {
    /// The Swift files of `paths` (files as given, folders searched recursively for `*.swift`),
    /// in a stable order; a path that does not exist is a failure.
    public static func swiftFiles(in paths: [String]) -> (files: [String], failures: [SourceDiscovery.Failure]) {
        var files: [String] = []
        var failures: [SourceDiscovery.Failure] = []
        var seen = Set<String>()
        let found = SourceDiscovery.programs(for: paths)
        failures = found.failures
        for program in found.programs {
            for path in program where SourceDiscovery.isSwift(path) && seen.insert(path).inserted { files.append(path) }
        }
        return (files, failures)
    }

    /// The text of `module` in `format`, with a header naming the sources and what was left out
    /// of no declaration. The output is read back and must declare the same program.
    public static func write(_ module: Module, sources: [String], to format: SourceFormat) throws(AuthoringError) -> String {
        var header = ["Imported from Swift by tipc import: " + sources.joined(separator: ", ")]
        header += module.header
        let text: String
        let outputPath: String
        switch format {
        case .tips:
            text = TipsPrinter.print(module.file, header: header)
            outputPath = "imported.tips"
        case .yaml:
            text = ManifestYAMLPrinter.print(module.file, header: header)
            outputPath = "imported.yaml"
        }
        var diagnostics: [Diagnostic] = []
        let reparsed = Frontend.parse(SourceFile(path: outputPath, text: text), diagnostics: &diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }
        if let difference = ManifestDifference.first(between: module.file, and: reparsed) ?? errors.first.map({ "the program (\($0.message))" }) {
            throw AuthoringError(path: module.file.path, message: "cannot be written as \(format.rawValue) without changing \(difference)")
        }
        return text
    }
}
