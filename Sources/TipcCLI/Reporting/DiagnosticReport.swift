import TipcCompiler

/// What a reporter renders: the diagnostics of one run, the sources they point into, and
/// how many files were checked.
public struct DiagnosticReport: Sendable {
    public var diagnostics: [Diagnostic]
    /// Sources by path, for showing the lines diagnostics point at.
    public var sources: [String: SourceFile]
    public var fileCount: Int

    public init(diagnostics: [Diagnostic], sources: [SourceFile], fileCount: Int? = nil) {
        self.diagnostics = diagnostics
        self.sources = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        self.fileCount = fileCount ?? sources.count
    }

    public init(diagnostics: [Diagnostic], sources: [String: SourceFile], fileCount: Int) {
        self.diagnostics = diagnostics
        self.sources = sources
        self.fileCount = fileCount
    }

    public var errorCount: Int { diagnostics.errorCount }
    public var warningCount: Int { diagnostics.warningCount }
}
