import TipcCompiler

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
