#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipAnalytics
import TipRuntime
import TipRuntimeSQLite
import TipService

/// `tipc report`: each experiment's arms (assigned, exposed, displays, actions, closes,
/// conversions, with intervals and tests) and each other tip's figures, counted from device
/// stores or from the service's store.
///
/// `tipc` links no libpq: with a `postgres://` store it runs `tipc-serve report …`, which
/// runs this command with `openPostgres` (as `tipc serve` runs `tipc-serve`).
public enum ReportCommand: TipcCommand {
    enum Format: String, CaseIterable { case text, json, csv }

    /// `tipc-serve report`: this command with the PostgreSQL store linked in.
    static let serviceReport = ExternalCommand(name: "report", abstract: "", executable: TipcCommandLine.serve.executable)

    static let db = OptionDefinition.value("db", valueName: "file",
                                           help: "A device's SQLite store; repeatable. Each store is one user, but stores with the same device id are one (merged).")
    static let store = OptionDefinition.value("store", valueName: "store", help: "The service's store: sqlite:PATH or postgres://… (instead of --db).")
    static let manifest = OptionDefinition.value("manifest", valueName: "path", help: "A manifest file or folder, compiled on the fly (instead of --pack); repeatable.")
    static let experiment = OptionDefinition.value("experiment", valueName: "name", help: "Report this experiment only (and no tips).")
    static let at = OptionDefinition.value("at", valueName: "date",
                                           help: "Count what is dated up to this instant (ISO-8601, e.g. 2026-03-01T09:00:00Z); default: everything.")
    static let format = OptionDefinition.choice("format", of: Format.self, default: .text,
                                                help: "Text for people, JSON for tools, CSV (one row per arm) for spreadsheets.")

    public static var signature: CommandSignature {
        CommandSignature(
            name: "report",
            abstract: "Report experiments (per arm, with intervals and tests) and tips' figures from device or service stores.",
            discussion: """
            Counts what the stores recorded (docs/experiments.md): per experiment and arm the users assigned and exposed, \
            displays, action taps, closes and conversions, the conversion rate with its 95% interval, the difference \
            from the first arm with its interval and p-value, and a sample ratio check; per other tip its users shown, \
            displays, actions, invalidations and conversions. Give device stores (--db, repeatable) or the service's \
            store (--store), and the pack (--pack or --manifest).
            """,
            positionals: [],
            options: [db, store, RuntimeOptions.pack, manifest, experiment, at, format, ReportOptions.outputFile])
    }

    public static func run(_ arguments: ParsedArguments, context: CommandContext) throws -> ExitCode {
        try run(arguments, context: context, openPostgres: nil)
    }

    /// Runs the command; `openPostgres` opens a `postgres://` store (nil in `tipc`, which then
    /// hands the command to `tipc-serve report`).
    public static func run(_ arguments: ParsedArguments, context: CommandContext,
                           openPostgres: ((String) throws(TipStoreError) -> any ServiceStore)?) throws -> ExitCode {
        let devices = arguments.values(db)
        let service = arguments.value(store)
        switch (devices.isEmpty, service) {
        case (false, _?): throw UsageError("give either '--db' (device stores) or '--store' (the service's store), not both")
        case (true, nil): throw UsageError("missing '--db <file>' or '--store <store>'", help: "e.g. --db phone.sqlite, or --store sqlite:tipc-serve.sqlite")
        default: break
        }
        if let service, isPostgres(service), openPostgres == nil {
            return serviceReport.launch(["report"] + commandLine(arguments), programName: TipcCommandLine.application.name, context: context)
        }
        var instant: Int64?
        if let text = arguments.value(at) {
            guard let parsed = ISO8601.milliseconds(from: text) else {
                throw UsageError("'\(text)' is not an ISO-8601 instant", help: "write e.g. 2026-03-01T09:00:00Z")
            }
            instant = Int64(parsed)
        }
        let input = try packInput(arguments, context: context)
        let plan: ReportPlan
        do {
            plan = try ReportPlan(pack: input.pack.pack, experiment: arguments.value(experiment), at: instant)
        } catch {
            throw UsageError(error.description)
        }
        let tallies: ReportTallies
        if let service {
            let opened = try openServiceStore(service, context: context, openPostgres: openPostgres)
            do {
                tallies = try opened.reportTallies(plan)
            } catch {
                throw RuntimeOptions.failure(error, path: service)
            }
        } else {
            tallies = plan.tallies(users: try users(devices))
        }
        let report: AnalyticsReport
        do {
            report = try plan.report(tallies)
        } catch {
            throw CommandFailure.input("the stores hold impossible counts: \(error)")
        }
        let text: String
        switch arguments.choice(format, as: Format.self) ?? .text {
        case .text: text = report.text()
        case .json: text = try report.json() + "\n"
        case .csv: text = report.csv()
        }
        try ReportOptions.write(text, arguments, context: context)
        return .success
    }

    /// The pack from `--pack` or every `--manifest`.
    private static func packInput(_ arguments: ParsedArguments, context: CommandContext) throws -> PackInput {
        let manifests = arguments.values(manifest)
        switch (arguments.value(RuntimeOptions.pack), manifests.isEmpty) {
        case (_?, false): throw UsageError("give either '--pack' or '--manifest', not both")
        case (nil, true): throw UsageError("missing '--pack <file>' or '--manifest <path>'")
        default: return try PackInput.load(pack: arguments.value(RuntimeOptions.pack), manifests: manifests, context: context)
        }
    }

    /// One snapshot per user: the stores read (each must exist and be sound), those with the
    /// same device id merged by the stores' merge laws (as syncing them would).
    private static func users(_ paths: [String]) throws -> [StoreSnapshot] {
        var order: [String] = []
        var byDevice: [String: StoreSnapshot] = [:]
        for path in paths {
            let store = try RuntimeOptions.openStore(path, access: .mergeSource)
            do {
                let snapshot = try store.verifiedSnapshot()
                if let earlier = byDevice[store.deviceID] {
                    byDevice[store.deviceID] = try earlier.merged(with: snapshot)
                } else {
                    order.append(store.deviceID)
                    byDevice[store.deviceID] = snapshot
                }
            } catch {
                throw RuntimeOptions.failure(error, path: path)
            }
        }
        return order.compactMap { byDevice[$0] }
    }

    private static func isPostgres(_ text: String) -> Bool { text.hasPrefix("postgres://") || text.hasPrefix("postgresql://") }

    /// `sqlite:PATH` (or a bare path; it must exist) or a `postgres://` URL.
    private static func openServiceStore(_ text: String, context: CommandContext,
                                         openPostgres: ((String) throws(TipStoreError) -> any ServiceStore)?) throws -> any ServiceStore {
        if isPostgres(text), let openPostgres {
            do {
                return try openPostgres(text)
            } catch {
                throw CommandFailure.io("cannot open the PostgreSQL service store: \(error.message)")
            }
        }
        let path = text.hasPrefix("sqlite:") ? String(text.dropFirst("sqlite:".count)) : text
        guard !path.isEmpty else { throw UsageError("--store sqlite: needs a path", help: "e.g. --store sqlite:tipc-serve.sqlite") }
        let resolved = path.hasPrefix("/") ? path : context.workingDirectory + "/" + path
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: resolved, isDirectory: &isFolder)
        guard exists, !isFolder else { throw CommandFailure.io("no service store at '\(path)'") }
        do {
            return try SQLiteServiceStore(path: resolved)
        } catch {
            throw RuntimeOptions.failure(error, path: path)
        }
    }

    /// The parsed options again as arguments, for `tipc-serve report`.
    private static func commandLine(_ arguments: ParsedArguments) -> [String] {
        signature.options.flatMap { option in arguments.values(option).flatMap { [option.longSpelling, $0] } }
    }
}
