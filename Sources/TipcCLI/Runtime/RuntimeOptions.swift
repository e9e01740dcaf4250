import TipcCompiler
import TipRuntime
import TipRuntimeSQLite

/// Options shared by the commands that open a store: which store, which pack, which instant.
enum RuntimeOptions {
    static let db = OptionDefinition.value("db", valueName: "file", help: "The SQLite store (created if missing).")
    static let pack = OptionDefinition.value("pack", valueName: "file", help: "A compiled rule pack (.tippack).")
    static let manifest = OptionDefinition.value("manifest", valueName: "path", help: "A manifest file or folder, compiled on the fly (instead of --pack).")
    static let at = OptionDefinition.value("at", valueName: "date", help: "The instant to act at (ISO-8601, e.g. 2026-03-01T09:00:00Z); default: now.")

    /// The clock for `--at` (fixed at that instant) or the system clock.
    static func clock(_ arguments: ParsedArguments) throws -> any TipClock {
        guard let text = arguments.value(at) else { return SystemClock() }
        guard let instant = ISO8601.milliseconds(from: text) else {
            throw UsageError("'\(text)' is not an ISO-8601 instant", help: "write e.g. 2026-03-01T09:00:00Z")
        }
        return ManualClock(now: Int64(instant))
    }

    /// Opens the SQLite store at `path`, turning failures into command failures.
    static func openStore(_ path: String) throws -> SQLitePersistence {
        do {
            return try SQLitePersistence(path: path)
        } catch {
            throw CommandFailure(error.kind == .corrupt || error.kind == .newerSchema ? .inputHasErrors : .usageOrIOError, "\(path): \(error)")
        }
    }

    /// A runtime for the command's pack over the store named by `--db`.
    static func openCenter(_ arguments: ParsedArguments, pack input: PackInput) throws -> TipCenter {
        guard let path = arguments.value(db) else { throw UsageError("missing '--db <file>'", help: "name the SQLite store, e.g. --db tips.sqlite") }
        let persistence = try openStore(path)
        do {
            return try TipCenter(pack: input.pack, persistence: persistence, clock: try clock(arguments))
        } catch {
            throw CommandFailure.io("\(path): \(error)")
        }
    }

    /// The pack given by `--pack` or `--manifest`.
    static func packInput(_ arguments: ParsedArguments, context: CommandContext) throws -> PackInput {
        if arguments.value(pack) != nil, arguments.value(manifest) != nil {
            throw UsageError("give either '--pack' or '--manifest', not both")
        }
        if arguments.value(pack) == nil, arguments.value(manifest) == nil {
            throw UsageError("missing '--pack <file>' or '--manifest <path>'")
        }
        return try PackInput.load(pack: arguments.value(pack), manifests: arguments.value(manifest).map { [$0] } ?? [], context: context)
    }
}

extension TipCenterError {
    /// Errors of the caller's input (exit 1) versus of the store (exit 2).
    var failure: CommandFailure {
        if case .store(let error) = self {
            return CommandFailure(error.kind == .corrupt || error.kind == .newerSchema ? .inputHasErrors : .usageOrIOError, error.description)
        }
        return CommandFailure.input(description)
    }
}
