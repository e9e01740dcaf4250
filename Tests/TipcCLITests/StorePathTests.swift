import Foundation
import Testing
@testable import TipcCLI
import TipRuntime
import TipRuntimeSQLite

/// Paths and messages of the commands that use a store: a missing store is an
/// error for every command that only reads it, and nothing is created; a damaged store exits 1
/// wherever the damage shows; every error is a sentence.
@Suite("store paths and messages")
struct StorePathTests {
    static let manifest = """
    tipkit 1
    param n: Int = 0
    param x: Double = 0.0
    param d: Duration = 0s
    event viewed { itemID: Int }
    tip upgrade {
      title "Upgrade"
      rule viewed.count >= 2 within 1d
    }
    """

    /// The files in `folder`, sorted.
    func files(_ folder: TemporaryFolder) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
    }

    /// The command lines that only read the store at `db` (`merge` reads its argument).
    func readingCommands(_ manifest: String, _ db: String, into other: String) -> [[String]] {
        [["store", "--db", db, "--manifest", manifest, "status"],
         ["store", "--db", db, "--manifest", manifest, "status", "upgrade"],
         ["store", "--db", db, "--manifest", manifest, "export"],
         ["store", "--db", other, "--manifest", manifest, "merge", db]]
    }

    @Test func aMissingStoreIsAnErrorForEveryReaderAndNothingIsCreated() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let missing = folder.path + "/missing.sqlite"
        for command in readingCommands(manifest, missing, into: folder.path + "/into.sqlite") {
            let run = Invocation(command)
            #expect(run.status == 2, "\(command): \(run.stderr)")
            #expect(run.stderr == "error: no store at '\(missing)'; only a command that writes to a store creates it\n", "\(command)")
            let listing = try files(folder)
            #expect(listing == ["app.tips"], "\(command) created \(listing)")
        }
    }

    /// `explain` of a user with no store yet explains a fresh user, and creates nothing.
    @Test func explainWithoutAStoreExplainsAFreshUserAndCreatesNothing() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let missing = folder.path + "/missing.sqlite"
        for format in ["text", "json"] {
            let run = Invocation(["explain", manifest, "--db", missing, "--tip", "upgrade", "--format", format])
            #expect(run.status == 0, "\(run.stderr)")
            #expect(run.stdout.contains("pending"), "\(run.stdout)")
            #expect(run.stderr == "note: no store at '\(missing)' yet: explained for a user with nothing recorded (nothing was created)\n")
            #expect(try files(folder) == ["app.tips"])
        }
    }

    @Test func aCommandThatWritesCreatesTheStore() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let db = folder.path + "/tips.sqlite"
        let run = Invocation(["store", "--db", db, "--manifest", manifest, "donate", "viewed", "--value", "{\"itemID\": 1}"])
        #expect(run.status == 0, "\(run.stderr)")
        let status = Invocation(["store", "--db", db, "--manifest", manifest, "status"])
        #expect(status.status == 0, "\(status.stderr)")
        #expect(status.stdout.contains("upgrade  pending"))
        #expect(Invocation(["store", "--db", folder.path, "--manifest", manifest, "status"]).stderr
                == "error: '\(folder.path)' is a folder, not a store\n")
    }

    @Test(arguments: [["status"], ["donate", "viewed"], ["set", "n", "3"]])
    func anInvalidAtIsASentenceAndCreatesNothing(_ action: [String]) throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let db = folder.path + "/tips.sqlite"
        for command in [["store", "--db", db, "--manifest", manifest, "--at", "yesterday"] + action,
                        ["explain", manifest, "--db", db, "--tip", "upgrade", "--at", "yesterday"]] {
            let run = Invocation(command)
            #expect(run.status == 2)
            #expect(run.stderr.hasPrefix("Error: 'yesterday' is not an ISO-8601 instant\nHelp: write e.g. 2026-03-01T09:00:00Z\n"), "\(run.stderr)")
            #expect(!run.stderr.contains("UsageError"))
            #expect(try files(folder) == ["app.tips"])
        }
    }

    @Test func aWrongNumberOfOperandsIsAUsageErrorAndCreatesNothing() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let base = ["store", "--db", folder.path + "/tips.sqlite", "--manifest", manifest]
        let missing = Invocation(base + ["set", "n"])
        #expect(missing.status == 2)
        #expect(missing.stderr.hasPrefix("Error: missing VALUE for 'set'\n"))
        let extra = Invocation(base + ["export", "now"])
        #expect(extra.status == 2)
        #expect(extra.stderr.hasPrefix("Error: Unexpected argument 'now'\n"))
        #expect(Invocation(base + ["donate", "viewed", "--count", "-5"]).stderr.hasPrefix("Error: --count must be a positive integer\n"))
        #expect(try files(folder) == ["app.tips"])
    }

    @Test func negativeNumbersAreOperands() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let base = ["store", "--db", folder.path + "/tips.sqlite", "--manifest", manifest]
        let int = Invocation(base + ["set", "n", "-5"])
        #expect(int.status == 0, "\(int.stderr)")
        #expect(int.stdout == "n = -5\n")
        #expect(Invocation(base + ["set", "x", "-1.5"]).stdout == "x = -1.5\n")
        #expect(Invocation(base + ["set", "x", "-.5"]).stdout == "x = -0.5\n")
        let duration = Invocation(base + ["set", "d", "-3d"])
        #expect(duration.status == 1, "a duration is never negative, as in a manifest")
        #expect(duration.stderr == "error: '-3d' is not a Duration (parameter 'd'): a duration cannot be negative; write it without '-'\n")
        let export = Invocation(base + ["export"])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [String: Any])
        let parameters = try #require(json["parameters"] as? [String: Any])
        #expect(parameters["n"] as? Int == -5)
        #expect(parameters["x"] as? Double == -0.5)
    }

    // MARK: - Damaged stores

    /// Kinds of damage, each made from a sound store of 2,000 donations.
    enum Damage: String, CaseIterable {
        /// Not SQLite at all: found when the store is opened.
        case garbage
        /// The first two pages of a store: found when it is opened.
        case truncated
        /// Pages of donations overwritten, the schema intact: found only when the store is read.
        case damagedPages
        /// An SQLite database of another application.
        case otherApplication
        /// Written by a newer tipc.
        case newerSchema
    }

    /// Writes a store damaged by `damage` at `path`.
    static func makeStore(_ damage: Damage, at path: String) throws {
        if damage == .garbage {
            try Data((0..<40_000).map { UInt8(truncatingIfNeeded: $0 &* 7919 >> 3) }).write(to: URL(fileURLWithPath: path))
            return
        }
        if damage == .otherApplication {
            let other = try SQLiteConnection(path: path)
            try other.withSession { session in
                try session.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users(name) VALUES ('ada')")
            }
            return
        }
        do {
            let store = try SQLitePersistence(path: path, deviceID: "phone")
            try store.append((0..<2_000).map { PendingDonation(event: "viewed", milliseconds: 1_772_000_000_000 + Int64($0), value: ["itemID": .int(Int64($0))]).record() })
        }
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        switch damage {
        case .truncated:
            bytes = bytes.prefix(8192)
        case .damagedPages:
            #expect(bytes.count > 40 * 4096, "the store spans enough pages")
            bytes.replaceSubrange(20 * 4096..<40 * 4096, with: Data(repeating: 0x5A, count: 20 * 4096))
        case .newerSchema:
            bytes.replaceSubrange(60..<64, with: [0, 0, 0, 99])  // the header's user_version
        case .garbage, .otherApplication:
            break
        }
        try bytes.write(to: URL(fileURLWithPath: path))
    }

    @Test(arguments: Damage.allCases)
    func aDamagedStoreExitsOneWhereverTheDamageShows(_ damage: Damage) throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let db = folder.path + "/damaged.sqlite", into = folder.path + "/into.sqlite"
        try Self.makeStore(damage, at: db)
        let original = try Data(contentsOf: URL(fileURLWithPath: db))
        let writing = ["store", "--db", db, "--manifest", manifest, "donate", "viewed", "--value", "{\"itemID\": 1}"]
        for command in readingCommands(manifest, db, into: into) + [writing] {
            let run = Invocation(command)
            #expect(run.status == 1, "\(damage) \(command): \(run.stderr)")
            #expect(run.stderr.hasPrefix("error: \(db): "), "\(damage) \(command): \(run.stderr)")
            #expect(!run.stderr.contains("internal"))
            #expect(try Data(contentsOf: URL(fileURLWithPath: db)) == original, "\(damage) \(command) changed the store")
            #expect(!FileManager.default.fileExists(atPath: into), "merge opened its --db before reading the other store")
        }
    }
}
