import CYAML
import TipcCompiler

/// `tipc check` on a 10,000-tip manifest, beside libyaml alone reading the same file's events.
func runFrontendBenchmarks() {
    Report.header("front end: tipc check on a generated manifest")
    var generator = ManifestGenerator()
    let text = generator.yaml()
    let bytes = Array(text.utf8)
    let source = SourceFile(path: "bench.yaml", bytes: bytes)
    print("manifest: \(bytes.count) bytes, \(generator.tips) tips, \(generator.parameters) parameters, \(generator.events) events")

    // Peak memory of one whole check, above what the process held before it.
    Measure.releaseFreedMemory()
    let before = Measure.residentBytes()
    Measure.resetPeak()
    // What `tipc check` does: the checked program is not kept.
    let result = Frontend.check(sources: [source], keepingProgram: false)
    let peak = Measure.peakResidentBytes() - before
    let errors = result.diagnostics.errorCount
    guard errors == 0 else {
        print("generated manifest has \(errors) errors; first: \(result.diagnostics.first.map { "\($0.range): \($0.message)" } ?? "-")")
        return
    }
    Report.figure("peak memory of one check", Double(peak) / 1_048_576, unit: "MiB",
                  note: "(\(Report.format(Double(peak) / Double(bytes.count), digits: 1))× the file; target < 10×)")

    // The check and libyaml alone in turns, so that a slower stretch of the machine weighs on
    // both; and each time, whether two threads run at full speed (see `CoreSharing`).
    let runs = 31
    var checks: [Double] = [], floors: [Double] = [], slowdowns: [Double] = []
    for _ in 0..<runs {
        var start = Measure.now()
        _ = Frontend.check(sources: [source], keepingProgram: false)
        checks.append(Double(Measure.now() - start))
        start = Measure.now()
        _ = libyamlEventCount(bytes)
        floors.append(Double(Measure.now() - start))
        slowdowns.append(CoreSharing.slowdown())
    }
    Report.ratio("tipc check (median of \(runs))", value: Measure.median(of: checks) / 1e6, floor: Measure.median(of: floors) / 1e6,
                 floorLabel: "libyaml events alone", unit: "ms", target: 2)
    let free = slowdowns.indices.filter { slowdowns[$0] < 1.15 }
    print("two threads at once ran \(Report.format(Measure.median(of: slowdowns), digits: 2))× slower than one (median; 1.00: two free cores); "
          + "\(free.count) of \(runs) turns had two free cores (under 1.15×)")
    if free.count >= 5 {
        Report.ratio("  those turns alone", value: Measure.median(of: free.map { checks[$0] }) / 1e6,
                     floor: Measure.median(of: free.map { floors[$0] }) / 1e6, floorLabel: "libyaml", unit: "ms", target: 2)
    }
}

/// Reads every event of `bytes` with libyaml and nothing else: the floor of any YAML front end.
func libyamlEventCount(_ bytes: [UInt8]) -> Int {
    var parser = yaml_parser_t()
    guard yaml_parser_initialize(&parser) == 1 else { return -1 }
    defer { yaml_parser_delete(&parser) }
    var count = 0
    bytes.withUnsafeBufferPointer { buffer in
        yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
        var event = yaml_event_t()
        while yaml_parser_parse(&parser, &event) == 1 {
            let type = event.type
            yaml_event_delete(&event)
            count += 1
            if type == YAML_STREAM_END_EVENT { break }
        }
    }
    return count
}
