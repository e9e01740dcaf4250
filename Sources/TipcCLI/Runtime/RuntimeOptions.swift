#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipRuntime
import TipRuntimeSQLite

/// Options shared by the commands that open a store: which store, which pack, which instant.
enum RuntimeOptions {
    /// How long a command waits for another process's lock on the store before it fails with
    /// "locked" (exit 2, nothing written). Longer than the runtime's 5 s default: scripts and CI
    /// run several `tipc store` commands on one file at once, on machines that may be busy, and
    /// a command waiting is better than one failing.
    static let busyTimeout: Int32 = 30_000

    static let db = OptionDefinition.value("db", valueName: "file", help: "The SQLite store (created if missing by a command that writes).").required
    static let pack = OptionDefinition.value("pack", valueName: "file", help: "A compiled rule pack (.tippack).")
    static let manifest = OptionDefinition.value("manifest", valueName: "path", help: "A manifest file or folder, compiled on the fly (instead of --pack).")
    static let unit = OptionDefinition.value("unit", valueName: "id",
                                             help: "Who is put in experiments' arms, as the app sets it (e.g. an account id); default: the store's device id.")
    static let at = OptionDefinition.value("at", valueName: "date", help: "The instant to act at (ISO-8601, e.g. 2026-03-01T09:00:00Z); default: now.")

    /// The clock for `--at` (fixed at that instant) or the system clock.
    static func clock(_ arguments: ParsedArguments) throws -> any TipClock {
        guard let text = arguments.value(at) else { return SystemClock() }
        guard let instant = ISO8601.milliseconds(from: text) else {
            throw UsageError("'\(text)' is not an ISO-8601 instant", help: "write e.g. 2026-03-01T09:00:00Z")
        }
        return ManualClock(now: Int64(instant))
    }

    /// How a command uses its store. Only a command that writes may create one.
    enum StoreAccess {
        /// `explain`, `status`, `export`: the store must exist; it is upgraded when it has an
        /// older schema, else opened read-only where it cannot be written.
        case read
        /// Created when missing.
        case write
        /// The other store of `merge`: it must exist, and is opened read-only even where it
        /// could be upgraded, so that a file that turns out not to be a sound store (another
        /// application's database, an empty file) is left exactly as it was.
        case mergeSource
        /// `explain`: the store as `read` when it exists; when it does not, a fresh store in
        /// memory (a user with nothing recorded), and nothing is created on disk.
        case readOrFresh
    }

    /// Whether `access` reads the store at `path` as a fresh one in memory: it is missing and
    /// the command may explain a user with no store yet.
    static func isFresh(_ path: String, access: StoreAccess) -> Bool {
        access == .readOrFresh && !FileManager.default.fileExists(atPath: path)
    }

    /// Opens the SQLite store at `path`, turning failures into command failures: a store that
    /// is missing (for reading) or cannot be opened exits 2; one that is damaged or not a tipc
    /// store exits 1, whether that shows when it is opened or when it is read.
    static func openStore(_ path: String, access: StoreAccess) throws -> SQLitePersistence {
        var isFolder = false
        let exists = FileManager.default.fileExists(atPath: path, isDirectory: &isFolder)
        if exists, isFolder { throw CommandFailure.io("'\(path)' is a folder, not a store") }
        if !exists, access != .write {
            throw CommandFailure.io("no store at '\(path)'; only a command that writes to a store creates it")
        }
        do {
            // A command that only reads still opens an existing store for writing (never
            // creating it), so that a store of an older schema is upgraded, not refused; only
            // a file it may not write is opened read-only.
            if access == .mergeSource {
                return try SQLitePersistence(path: path, readOnly: true, busyTimeoutMilliseconds: Self.busyTimeout)
            }
            do {
                return try SQLitePersistence(path: path, create: access == .write, busyTimeoutMilliseconds: Self.busyTimeout)
            } catch where error.kind == .readOnly && (access == .read || access == .readOrFresh) {
                return try SQLitePersistence(path: path, readOnly: true, busyTimeoutMilliseconds: Self.busyTimeout)
            }
        } catch {
            throw failure(error, path: path)
        }
    }

    /// A store's failure as a command failure naming the store.
    static func failure(_ error: TipStoreError, path: String) -> CommandFailure {
        CommandFailure(error.isBadData ? .inputHasErrors : .usageOrIOError, "\(path): \(error.message)")
    }

    /// A runtime for the command's pack over the store named by `--db`. `--at` is read first,
    /// so a bad instant leaves the store alone.
    static func openCenter(_ arguments: ParsedArguments, pack input: PackInput, access: StoreAccess) throws -> TipCenter {
        guard let path = arguments.value(db) else { throw UsageError("missing '--db <file>'", help: "name the SQLite store, e.g. --db tips.sqlite") }
        let clock = try clock(arguments)
        let persistence: any TipPersistence = isFresh(path, access: access) ? MemoryPersistence() : try openStore(path, access: access)
        do {
            return try TipCenter(pack: input.pack, persistence: persistence, clock: clock, assignmentUnit: arguments.value(unit))
        } catch {
            throw error.failure(store: path)
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

extension TipStoreError {
    /// The store's data is bad (damaged, not a tipc store, from a newer tipc): bad input, exit 1,
    /// as a damaged rule pack is. Other failures (locked, read-only, I/O) exit 2.
    var isBadData: Bool { kind == .corrupt || kind == .newerSchema || kind == .collision }
}

extension TipError {
    /// Errors of the caller's input (exit 1) versus of the store (see `RuntimeOptions.failure`);
    /// `store` names the store in the message.
    func failure(store path: String? = nil) -> CommandFailure {
        if case .store(let error) = self {
            return path.map { RuntimeOptions.failure(error, path: $0) }
                ?? CommandFailure(error.isBadData ? .inputHasErrors : .usageOrIOError, error.message)
        }
        return CommandFailure.input(description)
    }
}
