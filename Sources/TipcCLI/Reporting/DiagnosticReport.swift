import TipcCompiler

/// What one run found, ready for a reporter: the diagnostics to print (sorted by the caller),
/// the sources their snippets come from, and the counts of the summary.
///
/// At most `maximumShown` diagnostics are printed, errors first; the rest are only counted (`omittedCount`),
/// so that a hostile or generated input with a million findings prints a bounded report. The
/// summary's error and warning counts include the ones not printed.
public struct DiagnosticReport: Sendable {
    /// The most diagnostics one report prints. A real repository has a handful; past this
    /// many, the first ones are what a person fixes first anyway.
    public static let maximumShown = 1_000

    /// The diagnostics printed: `maximumShown` of those found at most (`shown(_:)`).
    public private(set) var diagnostics: [Diagnostic]
    /// How many diagnostics were found beyond those printed.
    public private(set) var omittedCount: Int
    /// Sources by path, for showing the lines diagnostics point at.
    public var sources: [String: SourceFile]
    public var fileCount: Int
    /// Errors and warnings found, printed or not.
    public private(set) var errorCount: Int
    public private(set) var warningCount: Int

    public init(diagnostics: [Diagnostic], sources: [SourceFile], fileCount: Int? = nil) {
        self.init(diagnostics: diagnostics, sources: Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first }),
                  fileCount: fileCount ?? sources.count)
    }

    public init(diagnostics: [Diagnostic], sources: [String: SourceFile], fileCount: Int) {
        self.diagnostics = Self.shown(diagnostics)
        self.omittedCount = diagnostics.count - self.diagnostics.count
        self.sources = sources
        self.fileCount = fileCount
        self.errorCount = diagnostics.errorCount
        self.warningCount = diagnostics.warningCount
    }

    /// The diagnostics a capped report prints: every one when they fit; otherwise errors take
    /// the places first (a thousand warnings must not hide the error that fails the build), then
    /// the rest in order, and the chosen ones keep the caller's order.
    static func shown(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard diagnostics.count > maximumShown else { return diagnostics }
        let errors = diagnostics.indices.filter { diagnostics[$0].severity == .error }.prefix(maximumShown)
        let others = diagnostics.indices.filter { diagnostics[$0].severity != .error }.prefix(maximumShown - errors.count)
        return (Array(errors) + others).sorted().map { diagnostics[$0] }
    }

    /// The line that says how many diagnostics were not printed, or nil when all were.
    public var omittedText: String? {
        omittedCount == 0 ? nil
            : "\(omittedCount) more diagnostic\(omittedCount == 1 ? "" : "s") not shown (a report prints the first \(Self.maximumShown))"
    }
}
