// tipc-bench: speed and memory figures, each beside a floor measured in the same run.
// Build and run in release: swift run -c release tipc-bench [frontend]
let selected = Set(CommandLine.arguments.dropFirst())
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if wanted("frontend") { runFrontendBenchmarks() }
if wanted("vm") { runVMBenchmarks() }
