// swift-tools-version: 6.0
import PackageDescription

// The pipeline, front to back:
//   TipRuntime    pack loader, verifier, VM, donation stores, experiment assignment — embeddable alone (no libyaml, no compiler)
//   TipcCompiler  discover → parse (YAML, .tips) → check → lower: checked program → rule pack
//   TipKitBridge  TipKit's Swift → manifests (import), manifests → Swift (generate)
//   TipcDriver    the stages over every front end: what commands call
//   TipAnalytics  the statistics of experiments and tips, for reports
//   TipcCLI       the `tipc` commands on top of both halves
let package = Package(
    name: "tipc",
    // What `TipRuntime` (and `TipRuntimeSQLite`) support when an app embeds them: TipKit needs
    // iOS 17, and apps that want tips on older systems are the runtime's best users. Nothing here
    // is built for Apple platforms by this project's CI (docs/apple-platforms.md).
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8), .visionOS(.v1)],
    products: [
        .executable(name: "tipc", targets: ["tipc"]),
        .executable(name: "tipc-serve", targets: ["tipc-serve"]),
        .executable(name: "tipc-bench", targets: ["tipc-bench"]),
        .library(name: "TipRuntime", targets: ["TipRuntime"]),
        .library(name: "TipRuntimeSQLite", targets: ["TipRuntimeSQLite"]),
        .library(name: "TipcCompiler", targets: ["TipcCompiler"]),
        .plugin(name: "TipcPlugin", targets: ["TipcPlugin"]),
    ],
    targets: [
        .systemLibrary(name: "CYAML", pkgConfig: "yaml-0.1", providers: [.apt(["libyaml-dev"])]),
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CLibPQ", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),

        // Runtime half: must never depend on the compiler half or on libyaml. The SQLite store
        // is a module of its own, so an app that keeps tips in memory links no SQLite.
        .target(name: "TipRuntime"),
        .target(name: "TipRuntimeSQLite", dependencies: ["TipRuntime", "CSQLite"]),
        // Experiments' and tips' statistics (intervals, tests, the report's figures), for both
        // `tipc report` and the service; depends on nothing of the project's.
        .target(name: "TipAnalytics"),

        // JSON (a document type, its reader and writer) and values in JSON: shared by the
        // compiler (the manifest's schema), the CLI's reports and language server, and the
        // service. Apart from the runtime, which renders no JSON.
        .target(name: "TipcJSON", dependencies: ["TipRuntime"]),

        // Compiler half: the stages (discover, parse, check, lower) over manifests and `.tips`;
        // the TipKit bridge (Swift reader, importer, generators) on top of them; the driver runs
        // the stages over every front end (what the commands call).
        .target(name: "TipcCompiler", dependencies: ["CYAML", "TipRuntime", "TipcJSON"]),
        .target(name: "TipKitBridge", dependencies: ["TipcCompiler", "TipRuntime"]),
        .target(name: "TipcDriver", dependencies: ["TipcCompiler", "TipKitBridge", "TipRuntime"]),
        // The tip service: its API over HTTP messages, many users' state in a
        // `ServiceStore` (SQLite here; PostgreSQL in its own module). No libmicrohttpd: `tipc`
        // uses its documents and stores.
        .target(name: "TipService", dependencies: ["TipRuntime", "TipRuntimeSQLite", "TipcJSON", "TipAnalytics"]),
        // The service's HTTP server over libmicrohttpd, linked only by `tipc-serve`.
        .target(name: "TipServiceHTTP", dependencies: ["TipService", "TipRuntime", "CMicroHTTPD"]),
        // The service's store for more than one machine: PostgreSQL through libpq.
        .target(name: "TipServicePostgres", dependencies: ["TipService", "TipRuntime", "CLibPQ"]),
        // `tipc` links neither libmicrohttpd nor libpq: `tipc serve` runs `tipc-serve`, installed
        // beside it (docs/install.md).
        .target(name: "TipcCLI", dependencies: ["TipcCompiler", "TipKitBridge", "TipcDriver", "TipRuntime", "TipRuntimeSQLite", "TipcJSON", "TipService", "TipAnalytics"]),
        .executableTarget(name: "tipc", dependencies: ["TipcCLI"]),
        .executableTarget(name: "tipc-serve", dependencies: ["TipcCLI", "TipRuntime", "TipService", "TipServiceHTTP", "TipServicePostgres"]),
        .executableTarget(name: "tipc-bench", dependencies: ["TipcCompiler", "TipKitBridge", "TipcDriver", "TipRuntime", "TipRuntimeSQLite", "TipcJSON", "TipService", "TipServiceHTTP", "TipServicePostgres", "CYAML"]),

        // The build tool plugin (docs/build-plugin.md): an app target's manifests, checked and
        // compiled by `tipc` at build time, become its pack (a resource) and typed accessors.
        .plugin(name: "TipcPlugin", capability: .buildTool(), dependencies: ["tipc"]),

        // Fuzzing (scripts/fuzz.sh; docs/fuzzing.md): the fuzz bodies live in a library so that
        // tests can replay the inputs the fuzzers found; one executable runs the target its
        // environment names, and its `@main` (replaying files) is compiled out under `-DFUZZING`,
        // where libFuzzer provides `main`.
        .target(name: "TipcFuzzing", dependencies: ["TipcCompiler", "TipKitBridge", "TipcDriver", "TipRuntime", "TipcCLI"], path: "Sources/Fuzz/TipcFuzzing"),
        .executableTarget(name: "tipc-fuzz", dependencies: ["TipcFuzzing"], path: "Sources/Fuzz/tipc-fuzz"),

        // The tests' seeded random generator, shared by every test target.
        .target(name: "TipcTestSupport", dependencies: ["TipRuntime"], path: "Tests/TipcTestSupport"),
        .testTarget(name: "TipAnalyticsTests", dependencies: ["TipAnalytics", "TipcTestSupport"]),
        .testTarget(name: "TipcCompilerTests", dependencies: ["TipcCompiler", "TipKitBridge", "TipcDriver", "TipcFuzzing", "TipcTestSupport"], exclude: ["Fixtures"]),
        .testTarget(name: "TipRuntimeTests", dependencies: ["TipRuntime", "TipRuntimeSQLite", "TipcCompiler", "TipcDriver", "TipcCLI", "TipcFuzzing", "TipcTestSupport"], exclude: ["Fixtures"]),
        // Needs a running PostgreSQL: scripts/test.sh starts a throw-away cluster and exports
        // TIPC_TEST_POSTGRES_URL.
        .testTarget(name: "TipServicePostgresTests", dependencies: ["TipServicePostgres", "TipService", "TipAnalytics", "TipRuntime", "TipRuntimeSQLite", "TipcTestSupport"]),
        // Every store (memory, the device's SQLite file, the service's SQLite and PostgreSQL
        // stores) through the same cases, each compared with `StoreOperation`'s definition. The
        // PostgreSQL cases need TIPC_TEST_POSTGRES_URL (scripts/test.sh).
        .testTarget(name: "StoreConformanceTests", dependencies: ["TipRuntime", "TipRuntimeSQLite", "TipService", "TipServicePostgres", "TipcTestSupport"]),
        // The service's own types, called directly (no `tipc` process).
        .testTarget(name: "TipServiceTests", dependencies: ["TipService", "TipAnalytics", "TipRuntime", "TipRuntimeSQLite", "TipcJSON", "TipcCompiler", "TipcDriver", "TipcTestSupport"]),
        .testTarget(name: "TipcCLITests", dependencies: ["TipcCLI", "TipAnalytics", "TipcCompiler", "TipKitBridge", "TipcDriver", "TipRuntimeSQLite", "TipcJSON", "TipService", "TipServiceHTTP", "TipServicePostgres", "TipcTestSupport"],
                    exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
