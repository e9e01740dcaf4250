#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipRuntime

/// The compiler's front door: read sources, parse them with the right front end, check them
/// as one program. `Compile = Parse + Check → (program, diagnostics)`.
public enum Frontend {
    /// The largest source file read (bytes). Real manifests are a few hundred kilobytes at most.
    public static let maximumFileSize = 64 * 1024 * 1024

    /// The outcome of reading and checking a set of sources.
    public struct Result: Sendable {
        /// The sources read, by path (for rendering source lines under diagnostics).
        public var sources: [String: SourceFile]
        /// Parsed files, in the order given, when asked for (`keepingParsedFiles`); empty
        /// otherwise, so that their syntax trees are freed as they are checked.
        public var files: [ManifestFile]
        /// How many files were read and parsed.
        public var fileCount: Int
        /// Every problem found, in reading order.
        public var diagnostics: [Diagnostic]
        /// The checked program; nil when there are errors, or when it was not asked for
        /// (`keepingProgram`).
        public var program: CheckedProgram?
        /// Errors that suppression comments hid from the report: the program still has them
        /// (so `program` is nil), and compiling shows them.
        public var suppressedErrors: [Diagnostic] = []
    }

    /// Parses one source file with the front end its extension names. With `parsingRules`
    /// false, a YAML manifest's rules are left for the checker to parse (see `UnparsedRule`); a
    /// `.tips` file's rules are part of its syntax and always parsed.
    public static func parse(_ source: SourceFile, diagnostics: inout [Diagnostic], parsingRules: Bool = true) -> ManifestFile {
        if source.path.hasSuffix(".tips") {
            return RuleParser.parseFile(source, diagnostics: &diagnostics)
        }
        return ManifestDecoder.decode(source, diagnostics: &diagnostics, parsingRules: parsingRules)
    }

    /// Checks and lints files already parsed from `sources` as one program (`frontEndDiagnostics`
    /// are the parsers' problems): every command takes this one path, through
    /// `Frontend.check(sources:)`, which parses them with every front end. The parsed files are
    /// part of the result only when `keepingParsedFiles` (a formatter needs them, a check does
    /// not), and the checked program only when `keepingProgram` (a compiler needs it; `tipc
    /// check` does not). `configuration` sets codes' severities (a `.tipc.yml`).
    public static func check(parsed files: consuming [ManifestFile], from sources: [SourceFile],
                             frontEndDiagnostics: [Diagnostic], keepingParsedFiles: Bool = false,
                             keepingProgram: Bool = true, configuration: LintConfiguration = .none) -> Result {
        var diagnostics = frontEndDiagnostics
        let kept = keepingParsedFiles ? copy files : []
        var checkerDiagnostics: [Diagnostic] = []
        // Handed over for good, so that the checker can free each tip's syntax tree once checked.
        // The syntax errors of the rules it parses join the front end's.
        let program = Checker.check(consume files, diagnostics: &checkerDiagnostics, ruleSyntaxDiagnostics: &diagnostics)
        diagnostics += withoutFollowOns(checkerDiagnostics, after: diagnostics)
        // Constant expressions that would overflow or divide by zero are compile errors. Lints
        // only warn: the program is still returned. Both need a program without errors (a rule
        // that did not parse would look like one that can never hold), and lints' warnings are
        // dropped when there are constant errors.
        var lintsRan = false
        if let program, !diagnostics.contains(where: { $0.severity == .error }) {
            let constantErrors = RulePackCompiler.constantErrors(program)
            diagnostics += constantErrors
            if !constantErrors.contains(where: { $0.severity == .error }) {
                diagnostics += Lints.run(program)
                lintsRan = true
            }
        }
        // Suppression comments, then the configuration's severities.
        let suppression = Suppressions.apply(diagnostics, sources: sources, lintsRan: lintsRan)
        diagnostics = configuration.applySeverities(suppression.diagnostics)
        let sourceMap = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let hasErrors = diagnostics.contains { $0.severity == .error } || !suppression.suppressedErrors.isEmpty
        return Result(sources: sourceMap, files: kept, fileCount: sources.count, diagnostics: diagnostics.sortedForDisplay(),
                      program: hasErrors || !keepingProgram ? nil : program, suppressedErrors: suppression.suppressedErrors)
    }

    /// Drops the checker's diagnostics that only repeat what a front-end error already said:
    /// a key "missing" from a file whose YAML is broken (the part that held it could not be
    /// read) or that is not a mapping, and "unused" declarations when some rule did not parse.
    private static func withoutFollowOns(_ checked: [Diagnostic], after frontEnd: [Diagnostic]) -> [Diagnostic] {
        // A file that is not a mapping (an empty file) has no keys at all: saying one is missing
        // repeats that.
        let brokenYAML = Set(frontEnd.filter {
            $0.code == .yaml || ($0.code == .invalidValue && $0.message.hasPrefix(ManifestDecoder.notAMappingMessage))
        }.map(\.range.file))
        let unparsedRules = frontEnd.contains { $0.code == .syntax || $0.code == .limit || $0.code == .yaml }
        return checked.filter { diagnostic in
            switch diagnostic.code {
            case .missingKey: return !brokenYAML.contains(diagnostic.range.file)
            case .unused, .unusedPlaceholder: return !unparsedRules
            default: return true
            }
        }
    }

    /// Reads a file from disk; a failure is an `io` (or `limit`) diagnostic.
    public static func read(path: String) -> Swift.Result<SourceFile, Diagnostic> {
        let at = SourceRange(file: path, at: SourceLocation(line: 1, column: 1))
        let manager = FileManager.default
        if let size = fileSize(atPath: path, manager), size > UInt64(maximumFileSize) {
            return .failure(Diagnostic(.limit, "'\(path)' is larger than \(maximumFileSize / (1024 * 1024)) MiB", at: at))
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            return .success(SourceFile(path: path, bytes: [UInt8](data)))
        } catch {
            return .failure(Diagnostic(.io, "cannot read '\(path)': \(ioReason(path: path))", at: at))
        }
    }

    /// Why `path` cannot be read, in the words `ls` or `cat` would use.
    public static func ioReason(path: String) -> String {
        let manager = FileManager.default
        var isDirectory = false
        guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else { return "no such file or directory" }
        if isDirectory { return "is a directory" }
        if !manager.isReadableFile(atPath: path) { return "permission denied" }
        return "the file could not be read"
    }

    /// The size of a file, whichever integer type the attribute dictionary holds it as.
    private static func fileSize(atPath path: String, _ manager: FileManager) -> UInt64? {
        guard let size = (try? manager.attributesOfItem(atPath: path))?[.size] else { return nil }
        if let size = size as? UInt64 { return size }
        if let size = size as? UInt { return UInt64(size) }
        if let size = size as? Int, size >= 0 { return UInt64(size) }
        return nil
    }
}

extension Frontend {
    /// Compiles a program already checked (with its program kept) into a rule pack; nil (with
    /// the diagnostics saying why) when there are errors.
    public static func compile(_ checked: Result) -> (result: Result, pack: RulePack?) {
        var result = checked
        guard let program = result.program else {
            if result.diagnostics.errorCount == 0 {
                let note = DiagnosticNote("suppressed by a comment, but a rule pack cannot be compiled from a program with errors")
                result.diagnostics = (result.diagnostics + result.suppressedErrors.map { error in
                    var shown = error
                    shown.notes.append(note)
                    return shown
                }).sortedForDisplay()
            }
            return (result, nil)
        }
        var diagnostics: [Diagnostic] = []
        let pack = RulePackCompiler.compile(program, diagnostics: &diagnostics)
        if !diagnostics.isEmpty {
            result.diagnostics = (result.diagnostics + diagnostics).sortedForDisplay()
        }
        return (result, diagnostics.contains { $0.severity == .error } ? nil : pack)
    }
}
