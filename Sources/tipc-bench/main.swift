import Foundation
// tipc-bench: speed and memory figures, each beside a floor measured in the same run.
// Build and run in release: swift build -c release && taskset -c 0 .build/release/tipc-bench [frontend] [vm] [format2] [runtime] [experiments] [import] [import-app] [phases]
//   … tipc-bench check-once [TIPS] [TIMES] one check (or TIMES) of the generated manifest (10,000 tips, or TIPS),
//                                          for callgrind, or for a sampling profiler with TIMES
//   … tipc-bench serve [USERS…]           the tip service over loopback (default 1,000 and 100,000 users)
//   … tipc-bench serve-handlers [USERS…]  only the service's handlers' CPU per request, one thread, no HTTP load
//   … tipc-bench serve-postgres [USERS…]  the same on PostgreSQL: TIPC_BENCH_POSTGRES_URL names a server where
//                                          the benchmark may create (and drop) databases
//   … tipc-bench report-postgres [USERS…] tipc report over a PostgreSQL service store of USERS users in one
//                                          experiment (default 100,000 and 1,000,000), beside one hand-written
//                                          query; TIPC_BENCH_POSTGRES_URL as for serve-postgres
//   … tipc-bench serve-tips [TIPS…]       one GET …/tips listing every tip of a pack of TIPS tips (default 10,000 and 100,000)
//   … tipc-bench lsp                      tipc lsp over pipes: diagnostics after a one-character change to a
//                                          500-tip manifest, and completion (taskset -c 0 for one core)
//   … tipc-bench manifest TIPS PATH       writes the generated manifest of TIPS tips (200: a real app's size, docs/performance.md)
let arguments = Array(CommandLine.arguments.dropFirst())
let selected = Set(arguments)
func wanted(_ name: String) -> Bool { selected.isEmpty || selected.contains(name) }

if arguments.first == "manifest", arguments.count == 3, let tips = Int(arguments[1]) { writeManifest(tips: tips, to: arguments[2]) }
if arguments.first == "check-once" {
    runOneCheck(tips: arguments.count > 1 ? Int(arguments[1]) ?? 10_000 : 10_000, times: arguments.count > 2 ? Int(arguments[2]) ?? 1 : 1)
}
if wanted("frontend") { runFrontendBenchmarks() }
// Per-phase CPU time and memory of the front end, for finding where the check spends them.
if selected.contains("phases") { runFrontendPhases() }
if wanted("vm") { runVMBenchmarks() }
if wanted("format2") { runFormat2Benchmarks() }
if wanted("runtime") { runRuntimeBenchmarks() }
if wanted("experiments") { runExperimentBenchmarks() }
if wanted("import") { runImportBenchmarks() }
if wanted("import") || selected.contains("import-app") { runAppFolderImportBenchmark() }
if selected.contains("lsp") { runLanguageServerBenchmarks() }
// The tip service over loopback (many threads: not for taskset -c 0): `serve [USERS…]`.
if selected.contains("serve") { runServeBenchmarks(users: arguments.compactMap { Int($0) }) }
// Only the handlers' CPU per request on one thread (no HTTP load), for a profiler: `serve-handlers [USERS…]`.
if selected.contains("serve-handlers") { runServeBenchmarks(users: arguments.compactMap { Int($0) }, handlersOnly: true) }
if selected.contains("serve-tips") { runServeTipsListBenchmark(tips: arguments.compactMap { Int($0) }) }
if selected.contains("serve-postgres") {
    if let url = ProcessInfo.processInfo.environment["TIPC_BENCH_POSTGRES_URL"], !url.isEmpty {
        runServeBenchmarks(users: arguments.compactMap { Int($0) }, postgresURL: url)
    } else {
        print("serve-postgres: set TIPC_BENCH_POSTGRES_URL to a PostgreSQL server where the benchmark may create databases")
    }
}
if selected.contains("report-postgres") {
    if let url = ProcessInfo.processInfo.environment["TIPC_BENCH_POSTGRES_URL"], !url.isEmpty {
        runReportBenchmarks(users: arguments.compactMap { Int($0) }, postgresURL: url)
    } else {
        print("report-postgres: set TIPC_BENCH_POSTGRES_URL to a PostgreSQL server where the benchmark may create databases")
    }
}
