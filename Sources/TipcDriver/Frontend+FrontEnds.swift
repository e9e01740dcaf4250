#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipKitBridge
import TipRuntime

/// The compiler's stages run over every front end: YAML manifests and `.tips` files each by
/// itself, Swift sources together through the TipKit bridge (one module, one manifest). The
/// commands, the language server and the benchmarks come in here.
extension Frontend {
    /// Parses `sources`: the Swift files together through `TipKitImporter`, the others one by one.
    /// With `parsingRules` false, a YAML manifest's rules are left for the checker to parse
    /// (see `UnparsedRule`).
    public static func parseAll(_ sources: [SourceFile], diagnostics: inout [Diagnostic], parsingRules: Bool = true) -> [ManifestFile] {
        var files: [ManifestFile] = []
        var swift: [SourceFile] = []
        for source in sources {
            if SourceDiscovery.isSwift(source.path) {
                swift.append(source)
            } else {
                files.append(parse(source, diagnostics: &diagnostics, parsingRules: parsingRules))
            }
        }
        if !swift.isEmpty {
            files.append(TipKitImporter.importModule(swift, diagnostics: &diagnostics).file)
        }
        return files
    }

    /// Parses, checks and lints sources already in memory as one program: every command takes
    /// this one path. The parsed files are part of the result only when `keepingParsedFiles`
    /// (a formatter needs them, a check does not), and the checked program only when
    /// `keepingProgram` (a compiler needs it; `tipc check` does not).
    /// `configuration` sets codes' severities (a `.tipc.yml`).
    public static func check(sources: [SourceFile], keepingParsedFiles: Bool = false, keepingProgram: Bool = true,
                             configuration: LintConfiguration = .none) -> Result {
        var diagnostics: [Diagnostic] = []
        // Files that are not kept leave their YAML rules to the checker, which parses each as it
        // checks it (see `UnparsedRule`); kept files are whole syntax trees.
        let files = parseAll(sources, diagnostics: &diagnostics, parsingRules: keepingParsedFiles)
        return check(parsed: consume files, from: sources, frontEndDiagnostics: diagnostics, keepingParsedFiles: keepingParsedFiles,
                     keepingProgram: keepingProgram, configuration: configuration)
    }

    /// Parses, checks and compiles sources already in memory into a rule pack; nil (with the
    /// diagnostics saying why) when there are errors.
    public static func compile(sources: [SourceFile]) -> (result: Result, pack: RulePack?) {
        compile(check(sources: sources))
    }

    /// What `load(paths:)` found: one result per program, the paths that could not be read
    /// (usage or I/O problems, as `io`/`limit` diagnostics), and the YAML files skipped while
    /// walking folders because they are not manifests.
    public struct Loaded: Sendable {
        public var programs: [Result]
        public var unreadable: [Diagnostic]
        public var skipped: [String] = []
    }

    /// Discovers the programs `paths` name (see `SourceDiscovery`: every command groups files
    /// this one way), reads and checks each (keeping the parsed files when `keepingParsedFiles`
    /// and the checked programs when `keepingPrograms`, see `check`). A path that cannot be
    /// read is reported in `unreadable` and the other programs are still checked.
    /// `-` among the paths is `standardInput`, a program of its own. `configuration` decides
    /// which files a folder walk takes and the codes' severities.
    public static func load(paths: [String], keepingParsedFiles: Bool = false, keepingPrograms: Bool = true,
                            standardInput: SourceFile? = nil, configuration: LintConfiguration = .none) -> Loaded {
        let discovered = SourceDiscovery.discover(paths, includeFound: configuration.takes)
        var unreadable = discovered.failures.map {
            Diagnostic(.io, "cannot read '\($0.path)': \($0.message)", at: SourceRange(file: $0.path, at: SourceLocation(line: 1, column: 1)))
        }
        var programs: [Result] = []
        for files in discovered.programs {
            var sources: [SourceFile] = []
            for path in files {
                switch read(path: path) {
                case .success(let source): sources.append(source)
                case .failure(let diagnostic): unreadable.append(diagnostic)
                }
            }
            if !sources.isEmpty {
                programs.append(check(sources: sources, keepingParsedFiles: keepingParsedFiles, keepingProgram: keepingPrograms,
                                      configuration: configuration))
            }
        }
        if discovered.readsStandardInput, let standardInput {
            programs.append(check(sources: [standardInput], keepingParsedFiles: keepingParsedFiles, keepingProgram: keepingPrograms,
                                  configuration: configuration))
        }
        return Loaded(programs: programs, unreadable: unreadable, skipped: discovered.skipped)
    }
}
