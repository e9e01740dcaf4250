import CYAML
import TipcCompiler
import TipcDriver

/// The front end's figures (docs/performance.md, "Front end"):
/// - `tipc check`'s whole path (YAML, rules, checker, constant errors, lints) on the generated
///   10,000-tip manifest, in CPU time, against libyaml alone reading the same bytes;
/// - the same on a 200-tip manifest, the size of a large real app;
/// - the whole `tipc check` process on that 200-tip manifest against `tipc --version`.
///
/// CPU time is the process's, every thread's, so no work can hide on another core. Run under
/// `taskset -c 0` so that the check and its floor share one core, turn by turn.
func runFrontendBenchmarks() {
    Report.header("front end: tipc check against libyaml alone, CPU time of the process")
    print(FrontendBench.affinity())

    var large = ManifestGenerator()
    let largeBytes = Array(large.yaml().utf8)
    print("large manifest: \(largeBytes.count) bytes, \(large.tips) tips, \(large.parameters) parameters, \(large.events) events")
    guard let largeCheck = FrontendBench.Workload(bytes: largeBytes) else { return }
    FrontendBench.peakMemory(of: largeCheck)
    FrontendBench.compare(largeCheck, turns: 31, target: 3.5)

    var small = FrontendBench.realisticGenerator
    let smallBytes = Array(small.yaml().utf8)
    print("\n200-tip manifest: \(smallBytes.count) bytes, \(small.tips) tips, \(small.parameters) parameters, \(small.events) events")
    guard let smallCheck = FrontendBench.Workload(bytes: smallBytes) else { return }
    FrontendBench.compare(smallCheck, turns: 301, target: nil)
    ProcessTiming.checkAgainstVersion(manifest: smallBytes, expectedDiagnostics: smallCheck.diagnosticCount, runs: 41)
}

enum FrontendBench {
    /// A manifest of the size of a large real app's (dozens of tips is usual).
    static var realisticGenerator: ManifestGenerator { ManifestGenerator(parameters: 40, events: 40, tips: 200) }

    /// A generated manifest and what checking it and reading it with libyaml must give: every
    /// timed run is compared with these, so that no run can be skipped or cut short unseen.
    struct Workload {
        let source: SourceFile
        let bytes: [UInt8]
        let diagnosticCount: Int
        let eventCount: Int

        /// Nil, with the reason printed, when the manifest has errors.
        init?(bytes: [UInt8]) {
            self.bytes = bytes
            source = SourceFile(path: "bench.yaml", bytes: bytes)
            let result = Frontend.check(sources: [source], keepingProgram: false)
            let errors = result.diagnostics.errorCount
            guard errors == 0 else {
                print("generated manifest has \(errors) errors; first: \(result.diagnostics.first.map { "\($0.range): \($0.message)" } ?? "-")")
                return nil
            }
            diagnosticCount = result.diagnostics.count
            eventCount = libyamlEventCount(bytes)
            print("checked: 0 errors, \(diagnosticCount) warnings; libyaml: \(eventCount) events")
        }

        /// One check, as `tipc check` makes it (the checked program is not kept), its result checked.
        func check() {
            let result = Frontend.check(sources: [source], keepingProgram: false)
            precondition(result.diagnostics.count == diagnosticCount && result.program == nil, "the check changed its result")
        }

        /// libyaml alone reading every event, its result checked.
        func readEvents() {
            precondition(libyamlEventCount(bytes) == eventCount, "libyaml read a different number of events")
        }
    }

    /// The check and libyaml alone in turns, so that a slower stretch of the machine weighs on
    /// both; medians of each.
    static func compare(_ workload: Workload, turns: Int, target: Double?) {
        var checks: [Double] = [], floors: [Double] = []
        checks.reserveCapacity(turns)
        floors.reserveCapacity(turns)
        for _ in 0..<turns {
            checks.append(cpuTime(workload.check))
            floors.append(cpuTime(workload.readEvents))
        }
        let check = Measure.median(of: checks), floor = Measure.median(of: floors)
        let milliseconds = check >= 1e7
        Report.ratio("tipc check, CPU (median of \(turns))", value: check / (milliseconds ? 1e6 : 1e3),
                     floor: floor / (milliseconds ? 1e6 : 1e3), floorLabel: "libyaml events alone", unit: milliseconds ? "ms" : "µs",
                     target: target)
    }

    /// Peak memory of one whole check, above what the process held before it.
    static func peakMemory(of workload: Workload) {
        Measure.releaseFreedMemory()
        let before = Measure.residentBytes()
        Measure.resetPeak()
        workload.check()
        let peak = Measure.peakResidentBytes() - before
        Report.figure("peak memory of one check", Double(peak) / 1_048_576, unit: "MiB",
                      note: "(\(Report.format(Double(peak) / Double(workload.bytes.count), digits: 1))× the file; target < 10×)")
    }

    /// The CPU time `body` took, in nanoseconds: every thread of the process.
    static func cpuTime(_ body: () -> Void) -> Double {
        let start = Measure.processCPUNanoseconds()
        body()
        return Double(Measure.processCPUNanoseconds() - start)
    }

    /// The CPUs this process may run on, with a reminder when it is more than one.
    static func affinity() -> String {
        let allowed = Measure.statusField("Cpus_allowed_list:") ?? "?"
        let note = allowed.contains(where: { $0 == "," || $0 == "-" }) ? " (several: run under `taskset -c 0` for one core)" : ""
        return "CPUs allowed: \(allowed)\(note)"
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
