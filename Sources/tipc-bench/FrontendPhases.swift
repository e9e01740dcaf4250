import TipcCompiler
import TipcDriver

/// Where the CPU time and memory of `tipc check` go on the generated manifest, phase by phase,
/// on its path: reading the YAML tree, decoding (tree included, rules left as text), checking
/// (each rule parsed there), constant errors and lints, then what each phase's output holds in
/// memory. Every timed result is checked.
func runFrontendPhases() {
    Report.header("front end, phase by phase (CPU time, medians of 7)")
    var generator = ManifestGenerator()
    let source = SourceFile(path: "bench.yaml", bytes: Array(generator.yaml().utf8))
    func time(_ label: String, _ body: () -> Void) {
        var samples: [Double] = []
        for _ in 0..<7 { samples.append(FrontendBench.cpuTime(body)) }
        Report.figure(label, Measure.median(of: samples) / 1e6, unit: "ms")
    }
    func decode() -> ManifestFile {
        var diagnostics: [Diagnostic] = []
        let file = ManifestDecoder.decode(source, diagnostics: &diagnostics, parsingRules: false)
        precondition(diagnostics.isEmpty && file.tips.count == generator.tips, "the generated manifest does not decode")
        return file
    }
    func check(_ file: ManifestFile) -> CheckedProgram {
        var diagnostics: [Diagnostic] = []
        guard let program = Checker.check([file], diagnostics: &diagnostics) else { preconditionFailure("the generated manifest does not check") }
        return program
    }
    time("YAML tree (libyaml included)") {
        var diagnostics: [Diagnostic] = []
        precondition(YAMLReader.read(source, diagnostics: &diagnostics) != nil && diagnostics.isEmpty)
    }
    time("YAML entries streamed, not decoded (libyaml included)") {
        var diagnostics: [Diagnostic] = []
        var entries = 0
        _ = YAMLReader.read(source, diagnostics: &diagnostics, streaming: ["parameters", "events", "tips", "groups"]) { _, _, _ in entries += 1 }
        precondition(diagnostics.isEmpty && entries == generator.parameters + generator.events + generator.tips)
    }
    time("libyaml events alone") { precondition(libyamlEventCount(source.bytes) > 0) }
    time("decode (YAML tree included, rules left as text)") { _ = decode() }
    let file = decode()
    time("checker (rules parsed there)") { _ = check(file) }
    let program = check(file)
    time("constant errors") { precondition(RulePackCompiler.constantErrors(program).isEmpty) }
    let warnings = Lints.run(program).count
    time("lints") { precondition(Lints.run(program).count == warnings) }

    func retained<Value>(_ label: String, _ make: () -> Value) {
        Measure.releaseFreedMemory()
        let before = Measure.residentBytes()
        let value = make()
        Measure.releaseFreedMemory()
        Report.figure(label, Double(Measure.residentBytes() - before) / 1_048_576, unit: "MiB")
        withExtendedLifetime(value) {}
    }
    func peak(_ label: String, _ body: () -> Void) {
        Measure.releaseFreedMemory()
        let before = Measure.residentBytes()
        Measure.resetPeak()
        body()
        Report.figure(label, Double(Measure.peakResidentBytes() - before) / 1_048_576, unit: "MiB")
    }
    peak("decode peak") { _ = decode() }
    peak("check peak (program kept)") { precondition(Frontend.check(sources: [source]).program != nil) }
    retained("YAML tree retained") { var d: [Diagnostic] = []; return YAMLReader.read(source, diagnostics: &d) }
    retained("AST retained (rules as text)") { decode() }
    retained("checked program retained") { check(file) }
}

/// One `tipc check` of the generated manifest of `tips` tips, then libyaml alone reading it,
/// and nothing else: small enough to run under an instruction-counting profiler, e.g.
/// `valgrind --tool=callgrind --collect-atstart=no --toggle-collect='$s10tipc_bench11runOneCheck4tips5timesySi_SitFyyXEfU_'
/// tipc-bench check-once 200` counts the check alone (the closure that times it; `…U0_`, the next
/// closure, for libyaml alone). With `times` above 1 the check runs that many times in one
/// process, as `frontend` times it, for a sampling profiler (`perf record`).
func runOneCheck(tips: Int, times: Int = 1) {
    var generator = tips == 200 ? FrontendBench.realisticGenerator : ManifestGenerator(tips: tips)
    let bytes = Array(generator.yaml().utf8)
    let source = SourceFile(path: "bench.yaml", bytes: bytes)
    let elapsed = FrontendBench.cpuTime {
        for _ in 0..<max(times, 1) {
            let result = Frontend.check(sources: [source], keepingProgram: false)
            print("checked: \(result.diagnostics.errorCount) errors, \(result.diagnostics.count) diagnostics")
        }
    }
    let floor = FrontendBench.cpuTime { print("libyaml: \(libyamlEventCount(bytes)) events") }
    print("in \(Report.format(elapsed / 1e6, digits: 2)) ms of CPU; libyaml alone \(Report.format(floor / 1e6, digits: 2)) ms")
}

/// Writes the generated manifest of `tips` tips (200: the realistic one) to `path`, for timing
/// `tipc check` itself (`hyperfine`, `perf`).
func writeManifest(tips: Int, to path: String) {
    var generator = tips == 200 ? FrontendBench.realisticGenerator : ManifestGenerator(tips: tips)
    let bytes = Array(generator.yaml().utf8)
    guard ProcessTiming.write(bytes, to: path) else {
        print("cannot write \(path)")
        return
    }
    print("wrote \(path): \(bytes.count) bytes, \(generator.tips) tips, \(generator.parameters) parameters, \(generator.events) events")
}
