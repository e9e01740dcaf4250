import TipcCompiler

/// Where the time and memory of `tipc check` go on the generated manifest, phase by phase:
/// reading the YAML tree, decoding (tree included), checking, constant errors and lints,
/// then what each phase's output holds in memory.
func runFrontendPhases() {
    Report.header("front end, phase by phase")
    var generator = ManifestGenerator()
    let source = SourceFile(path: "bench.yaml", bytes: Array(generator.yaml().utf8))
    let runs = 7
    func time(_ label: String, _ body: () -> Void) {
        Report.figure(label, Measure.median(runs: runs, body) / 1e6, unit: "ms")
    }
    var diagnostics: [Diagnostic] = []
    time("YAML tree (libyaml included)") { var d: [Diagnostic] = []; _ = YAMLReader.read(source, diagnostics: &d) }
    time("decode (YAML tree included)") { var d: [Diagnostic] = []; _ = ManifestDecoder.decode(source, diagnostics: &d) }
    let file = ManifestDecoder.decode(source, diagnostics: &diagnostics)
    time("checker") { var d: [Diagnostic] = []; _ = Checker.check([file], diagnostics: &d) }
    guard let program = Checker.check([file], diagnostics: &diagnostics) else {
        print("generated manifest does not check")
        return
    }
    time("constant errors") { _ = RulePackCompiler.constantErrors(program) }
    time("lints") { _ = Lints.run(program) }

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
    peak("decode peak") { var d: [Diagnostic] = []; _ = ManifestDecoder.decode(source, diagnostics: &d) }
    peak("check peak") { _ = Frontend.check(sources: [source]) }
    retained("YAML tree retained") { var d: [Diagnostic] = []; return YAMLReader.read(source, diagnostics: &d) }
    retained("AST retained") { var d: [Diagnostic] = []; return ManifestDecoder.decode(source, diagnostics: &d) }
    retained("checked program retained") { var d: [Diagnostic] = []; return Checker.check([file], diagnostics: &d) }
}

/// One `tipc check` of the generated manifest (for profilers).
func runOneCheck(times: Int = 1) {
    var generator = ManifestGenerator()
    let source = SourceFile(path: "bench.yaml", bytes: Array(generator.yaml().utf8))
    for _ in 0..<times {
        let start = Measure.now()
        let result = Frontend.check(sources: [source], keepingProgram: false)
        let elapsed = Double(Measure.now() - start) / 1e6
        print("checked: \(result.diagnostics.count) diagnostics in \(Report.format(elapsed, digits: 1)) ms")
    }
}
