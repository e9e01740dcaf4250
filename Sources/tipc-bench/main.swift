// tipc-bench: speed and memory figures, each beside a floor measured in the same run.
// Build and run in release: swift build -c release --product tipc-bench && .build/release/tipc-bench [frontend] [vm] [runtime] [vm-rule] [vm-subset] [phases] [check-once]
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if wanted("frontend") { runFrontendBenchmarks() }
// Per-phase times and memory of the front end, for finding where the check spends them.
if selected.contains("phases") { runFrontendPhases() }
// One check of the generated manifest and nothing else, small enough to run under an instruction-counting profiler.
if selected.contains("check-once") { runOneCheck() }
// Forty checks of the generated manifest, for a sampling profiler.
if selected.contains("check-loop") { runOneCheck(times: 40) }
if wanted("vm") { runVMBenchmarks() }
// Only the first VM figure, small enough to run under an instruction-counting profiler.
if selected.contains("vm-rule") { runVMRuleBenchmark() }
// Only the largestSubset figure, for the same purpose.
if selected.contains("vm-subset") { runVMSubsetBenchmark() }
if wanted("runtime") { runRuntimeBenchmarks() }
