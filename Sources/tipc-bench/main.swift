// tipc-bench: speed and memory figures, each beside a floor measured in the same run.
// Build and run in release: swift build -c release --product tipc-bench && .build/release/tipc-bench [frontend] [vm] [runtime] [vm-rule]
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if wanted("frontend") { runFrontendBenchmarks() }
if wanted("vm") { runVMBenchmarks() }
// Only the first VM figure, small enough to run under an instruction-counting profiler.
if selected.contains("vm-rule") { runVMRuleBenchmark() }
if wanted("runtime") { runRuntimeBenchmarks() }
