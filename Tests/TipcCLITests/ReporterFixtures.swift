import TipcCompiler
@testable import TipcCLI

/// Hand-made sources and diagnostics shared by the reporter tests.
enum ReporterFixtures {
    static let shopLines = [
        "tipkit: 1",
        "displayFrequency: daily",
        "",
        "events:",
        "  searchPerformed: {}",
        "  itemViewed: {}",
        "",
        "parameters:",
        "  isLoggedIn: { type: bool, default: false }",
        "",
        "tips:",
        "  advancedSearch:",
        "    rules:",
        "      - serchPerformed.count >= 3 within 3d",
    ]

    static let shop = SourceFile(path: "Examples/shop.yaml", text: shopLines.joined(separator: "\n") + "\n")

    static func range(_ file: String, _ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> SourceRange {
        SourceRange(file: file, start: SourceLocation(line: line, column: column),
                    end: SourceLocation(line: endLine, column: endColumn))
    }

    /// The README's diagnostic example.
    static let unknownEvent = Diagnostic(
        .unknownEvent, "no event named 'serchPerformed'", at: range("Examples/shop.yaml", 14, 9, 14, 23),
        help: "did you mean 'searchPerformed'?")

    /// A warning with a note pointing at another line.
    static let unusedEvent = Diagnostic(
        .unused, "event 'itemViewed' is never used", at: range("Examples/shop.yaml", 6, 3, 6, 13),
        notes: [DiagnosticNote("declared as an event here", at: range("Examples/shop.yaml", 14, 9, 14, 23)),
                DiagnosticNote("remove it or use it in a rule")])

    static var report: DiagnosticReport {
        DiagnosticReport(diagnostics: [unusedEvent, unknownEvent], sources: [shop], fileCount: 3)
    }
}
