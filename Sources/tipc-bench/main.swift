// tipc-bench: speed and memory figures, each beside a floor measured in the same run.
// Build and run in release: swift build -c release --product tipc-bench && .build/release/tipc-bench [frontend] [vm] [runtime]
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if wanted("frontend") { runFrontendBenchmarks() }
if wanted("vm") { runVMBenchmarks() }
if wanted("runtime") { runRuntimeBenchmarks() }
