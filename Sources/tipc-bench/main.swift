// tipc-bench: speed and memory figures, each beside a floor measured in the same run.
// Build and run in release: swift build -c release && taskset -c 0 .build/release/tipc-bench [frontend] [vm] [format2] [runtime] [phases]
//   … tipc-bench check-once [TIPS]        one check of the generated manifest (10,000 tips, or TIPS), for callgrind
//   … tipc-bench manifest TIPS PATH       writes the generated manifest of TIPS tips (200: the README's realistic one)
let arguments = Array(CommandLine.arguments.dropFirst())
let selected = Set(arguments)
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if arguments.first == "manifest", arguments.count == 3, let tips = Int(arguments[1]) { writeManifest(tips: tips, to: arguments[2]) }
if arguments.first == "check-once" { runOneCheck(tips: arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000) }
if wanted("frontend") { runFrontendBenchmarks() }
// Per-phase CPU time and memory of the front end, for finding where the check spends them.
if selected.contains("phases") { runFrontendPhases() }
if wanted("vm") { runVMBenchmarks() }
if wanted("format2") { runFormat2Benchmarks() }
if wanted("runtime") { runRuntimeBenchmarks() }
