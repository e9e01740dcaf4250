import Foundation
import TipcCompiler
import TipcDriver
import TipKitBridge

/// The TipKit import's figures (docs/performance.md, "TipKit import"): `tipc import`'s work on a generated
/// 2,000-tip TipKit Swift file (written by `generate tipkit` from a generated manifest) — lexing,
/// reading the declarations, translating the `#Rule`s — against two floors in the same run: the
/// Swift lexer alone over the same text, and the same program's YAML manifest read by the YAML
/// front end into the same declarations. Then `tipc check`'s whole path on each.
///
/// CPU time of the process, in turns; run under `taskset -c 0`. Every timed run's result is
/// compared with the first: the counts of tips, parameters, events, rules and diagnostics.
func runImportBenchmarks() {
    Report.header("TipKit import: 2,000 tips in Swift, CPU time of the process")
    print(FrontendBench.affinity())
    var generator = ManifestGenerator(parameters: 100, events: 100, tips: 2_000, tipKit: true)
    let yaml = SourceFile(path: "bench.yaml", bytes: Array(generator.yaml().utf8))
    var diagnostics: [Diagnostic] = []
    let manifest = Frontend.parse(yaml, diagnostics: &diagnostics)
    guard diagnostics.isEmpty,
          let text = TipKitGenerator.generate([manifest], sources: [yaml.path], minimumOS: .ios26, diagnostics: &diagnostics),
          diagnostics.isEmpty else {
        print("the generated manifest cannot be written as TipKit: \(diagnostics.first.map { "\($0.range): \($0.message)" } ?? "-")")
        return
    }
    let swift = SourceFile(path: "Tips.swift", text: text)
    let expected = ImportBench.Counts(manifest)
    let imported = ImportBench.importSwift(swift)
    // The same declarations: every tip, parameter and event comes back, and every rule (split
    // at its top-level `and`s, so at least as many).
    precondition(imported.tips == expected.tips && imported.parameters == expected.parameters && imported.events == expected.events
                  && imported.rules >= expected.rules && imported.diagnostics == 0,
                  "the import does not give back the generated program: \(imported) against \(expected)")
    let tokens = TipKitImporter.tokenCount(swift)
    print("Swift: \(swift.bytes.count) bytes, \(tokens) tokens; YAML: \(yaml.bytes.count) bytes; "
          + "\(expected.tips) tips, \(expected.parameters) parameters, \(expected.events) events, "
          + "\(expected.rules) rules (\(imported.rules) #Rules)")

    // The whole check (import or YAML, then checker, constant errors, lints) of each.
    let swiftWarnings = Frontend.check(sources: [swift], keepingProgram: false).diagnostics
    let yamlWarnings = Frontend.check(sources: [yaml], keepingProgram: false).diagnostics
    precondition(swiftWarnings.errorCount == 0 && yamlWarnings.errorCount == 0, "the generated program has errors")

    // All five in turns, so that a slower stretch of the machine weighs on each alike.
    let turns = 21
    var imports: [Double] = [], lexes: [Double] = [], reads: [Double] = [], swiftChecks: [Double] = [], yamlChecks: [Double] = []
    for _ in 0..<turns {
        imports.append(FrontendBench.cpuTime { precondition(ImportBench.importSwift(swift) == imported, "the import changed its result") })
        lexes.append(FrontendBench.cpuTime { precondition(TipKitImporter.tokenCount(swift) == tokens, "the lexer changed its result") })
        reads.append(FrontendBench.cpuTime {
            var diagnostics: [Diagnostic] = []
            precondition(ImportBench.Counts(Frontend.parse(yaml, diagnostics: &diagnostics)) == expected && diagnostics.isEmpty,
                         "the YAML front end changed its result")
        })
        swiftChecks.append(FrontendBench.cpuTime {
            precondition(Frontend.check(sources: [swift], keepingProgram: false).diagnostics.count == swiftWarnings.count)
        })
        yamlChecks.append(FrontendBench.cpuTime {
            precondition(Frontend.check(sources: [yaml], keepingProgram: false).diagnostics.count == yamlWarnings.count)
        })
    }
    let importTime = Measure.median(of: imports) / 1e6
    Report.ratio("import, CPU (median of \(turns))", value: importTime, floor: Measure.median(of: lexes) / 1e6,
                 floorLabel: "Swift lexer alone", unit: "ms")
    Report.ratio("import, CPU (median of \(turns))", value: importTime, floor: Measure.median(of: reads) / 1e6,
                 floorLabel: "the same program's YAML through the YAML front end", unit: "ms")
    Report.ratio("tipc check of the Swift, CPU (median of \(turns))", value: Measure.median(of: swiftChecks) / 1e6,
                 floor: Measure.median(of: yamlChecks) / 1e6, floorLabel: "tipc check of the YAML", unit: "ms")
}

enum ImportBench {
    /// What a read of the program gives, compared on every timed run.
    struct Counts: Equatable, CustomStringConvertible {
        var tips: Int
        var parameters: Int
        var events: Int
        var rules: Int
        var diagnostics = 0

        init(_ file: ManifestFile, diagnostics: Int = 0) {
            tips = file.tips.count
            parameters = file.parameters.count
            events = file.events.count
            rules = file.tips.reduce(0) { $0 + $1.rules.count }
            self.diagnostics = diagnostics
        }

        var description: String { "\(tips) tips, \(parameters) parameters, \(events) events, \(rules) rules, \(diagnostics) diagnostics" }
    }

    /// `tipc import`'s work: the Swift file to manifest declarations.
    static func importSwift(_ swift: SourceFile) -> Counts {
        var diagnostics: [Diagnostic] = []
        let module = TipKitImporter.importModule([swift], diagnostics: &diagnostics)
        return Counts(module.file, diagnostics: diagnostics.count)
    }
}

/// Importing a whole app (README-style figure in docs/performance.md): a generated folder of
/// 1,000 Swift files as an app holds them — 40 files of tips, events and parameters among 960
/// of views, models, App Intents and parsers with regex literals, about 3.5 KiB each — found,
/// read and imported as `tipc import FOLDER` does, beside the Swift lexer alone over the same
/// bytes. CPU time of the process, median of the turns; run under `taskset -c 0`.
func runAppFolderImportBenchmark() {
    Report.header("TipKit import: a 1,000-file app folder, CPU time of the process")
    print(FrontendBench.affinity())
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-bench-app-\(getpid())").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    var random = SeededRandom()
    var bytes = 0
    for index in 0..<1_000 {
        let text = AppFolderGenerator.file(index, random: &random)
        bytes += text.utf8.count
        let directory = folder + "/Feature\(index / 50)"
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        precondition(FileManager.default.createFile(atPath: directory + "/File\(index).swift", contents: Data(text.utf8)), "cannot write the app folder")
    }

    /// `tipc import FOLDER`'s work: find the files, read them, import them as one module.
    func importFolder() -> ImportBench.Counts {
        let paths = TipKitImporter.swiftFiles(in: [folder]).files
        let sources = paths.compactMap { try? Frontend.read(path: $0).get() }
        var diagnostics: [Diagnostic] = []
        let module = TipKitImporter.importModule(sources, diagnostics: &diagnostics)
        return ImportBench.Counts(module.file, diagnostics: diagnostics.count)
    }
    let sources = TipKitImporter.swiftFiles(in: [folder]).files.compactMap { try? Frontend.read(path: $0).get() }
    func lexAll() -> Int { sources.reduce(0) { $0 + TipKitImporter.tokenCount($1) } }
    let expected = importFolder()
    precondition(sources.count == 1_000 && expected.tips == 80 && expected.events == 40 && expected.parameters == 40 && expected.diagnostics == 0,
                 "the generated app does not import as generated: \(expected)")
    let tokens = lexAll()
    print("\(sources.count) files, \(bytes) bytes, \(tokens) tokens; \(expected)")

    let turns = 9
    var imports: [Double] = [], lexes: [Double] = []
    for _ in 0..<turns {
        imports.append(FrontendBench.cpuTime { precondition(importFolder() == expected, "the import changed its result") })
        lexes.append(FrontendBench.cpuTime { precondition(lexAll() == tokens, "the lexer changed its result") })
    }
    Report.ratio("import of the folder (find, read, import), CPU (median of \(turns))", value: Measure.median(of: imports) / 1e6,
                 floor: Measure.median(of: lexes) / 1e6, floorLabel: "Swift lexer alone over the same bytes", unit: "ms")
}

/// The files of a generated app: every 25th declares two tips, an event and a parameter; the
/// others are the Swift an app holds besides.
enum AppFolderGenerator {
    static func file(_ index: Int, random: inout SeededRandom) -> String {
        if index % 25 == 0 { return tips(index) }
        var text = "import SwiftUI\nimport AppIntents\nimport RegexBuilder\n\n"
        for part in 0..<8 {
            let name = "Type\(index)x\(part)"
            switch Int.random(in: 0..<4, using: &random) {
            case 0:
                text += """
                    struct \(name): View {
                        @State private var query = ""
                        @State private var count = \(Int.random(in: 0..<100, using: &random))
                        let items: [String]

                        var body: some View {
                            NavigationStack {
                                List(items.filter { $0.contains(query) }, id: \\.self) { item in
                                    HStack(alignment: .firstTextBaseline) {
                                        Text("Item \\(item) of \\(items.count)").font(.headline)
                                        Spacer()
                                        Text(verbatim: "{\\(count / 2)}").foregroundStyle(.secondary)
                                    }
                                }
                                .searchable(text: $query)
                                .navigationTitle("Items")
                            }
                        }
                    }


                    """
            case 1:
                text += """
                    struct \(name): AppIntent {
                        static let title: LocalizedStringResource = "Open \(name)"
                        @Parameter(title: "Name", default: "home") var name: String
                        @Parameter(title: "Count", default: 3) var count: Int

                        func perform() async throws -> some IntentResult {
                            guard count > 0 else { throw CancellationError() }
                            return .result()
                        }
                    }


                    """
            case 2:
                text += """
                    struct \(name) {
                        let quoted = /"(?<value>[^"]*)"/
                        let extended = #/(?<key>[a-z]+) = "(?<value>.*)"/#
                        let builder = Regex {
                            "id:"
                            OneOrMore(.digit)
                        }

                        func parse(_ line: String) -> (String, String)? {
                            guard let match = line.firstMatch(of: extended) else { return nil }
                            let ratio = Double(line.count) / 2.0
                            return (String(match.key), String(match.value) + #" raw "\\#(ratio)""#)
                        }
                    }


                    """
            default:
                text += """
                    /// A model of the app: \(name).
                    @Observable
                    final class \(name): Identifiable {
                        let id = UUID()
                        var title: String
                        var tags: [String: Int] = [:]
                        #if DEBUG
                        var debugNote = "debug {"
                        #endif

                        init(title: String) { self.title = title }

                        func score(_ weights: [Double]) -> Double {
                            weights.reduce(0) { $0 + $1 } / Double(max(weights.count, 1))
                        }
                    }


                    """
            }
        }
        return text
    }

    static func tips(_ index: Int) -> String {
        """
        import TipKit

        enum Feature\(index)Events {
            static let opened = Tips.Event(id: "feature\(index).opened")
        }

        struct Feature\(index)Tip: Tip {
            @Parameter static var isEnabled\(index): Bool = false
            var id: String { "feature\(index)" }
            var title: Text { Text("Try feature \(index)") }
            var message: Text? { Text(String(localized: "feature\(index).message", defaultValue: "It saves time")) }
            var image: Image? { Image(systemName: "star") }
            var rules: [Rule] {
                #Rule(Self.$isEnabled\(index)) { $0 == true }
                #Rule(Feature\(index)Events.opened) { $0.donations.donatedWithin(.days(7)).count >= 3 }
            }
        }

        struct Feature\(index)DetailTip: Tip {
            var title: Text { Text("More about feature \(index)") }
            var rules: [Rule] {
                #Rule(Feature\(index)Events.opened) { $0.donations.count >= 5 }
            }
        }

        """
    }
}
