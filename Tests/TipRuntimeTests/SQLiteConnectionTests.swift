#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TipRuntime
@testable import TipRuntimeSQLite

/// A fresh database path in a temporary folder.
func temporaryDatabasePath(_ name: String = "store") -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-tests-\(UUID().uuidString)")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder.appendingPathComponent("\(name).sqlite").path
}

@Suite("SQLite connection")
struct SQLiteConnectionTests {
    @Test func opensInWALModeWithFullSync() throws {
        let connection = try SQLiteConnection(path: temporaryDatabasePath())
        let mode = try connection.withSession { session in try session.scalar("PRAGMA journal_mode") }
        let sync = try connection.withSession { session in try session.scalar("PRAGMA synchronous") }
        #expect(mode == .text("wal"))
        #expect(sync == .integer(2))
    }

    @Test func migrationsRunOnceAndRecordTheVersion() throws {
        let path = temporaryDatabasePath()
        let migrations = SQLiteMigrations(["CREATE TABLE a(x INTEGER)", "ALTER TABLE a ADD COLUMN y TEXT"])
        try migrations.apply(to: SQLiteConnection(path: path))
        let reopened = try SQLiteConnection(path: path)
        try migrations.apply(to: reopened)
        let version = try reopened.withSession { session in try session.scalar("PRAGMA user_version") }
        #expect(version == .integer(2))
        try reopened.withSession { session in try session.run("INSERT INTO a(x, y) VALUES (?1, ?2)", [.integer(1), .text("ok")]) }
    }

    @Test func aNewerSchemaIsRefusedUntouched() throws {
        let path = temporaryDatabasePath()
        try SQLiteMigrations(["CREATE TABLE a(x)", "CREATE TABLE b(x)", "CREATE TABLE c(x)"]).apply(to: SQLiteConnection(path: path))
        #expect(throws: SQLiteMigrations.Failure.newerSchema(found: 3, supported: 1)) {
            try SQLiteMigrations(["CREATE TABLE a(x)"]).apply(to: SQLiteConnection(path: path))
        }
    }

    @Test func anotherApplicationsDatabaseIsRefusedUntouched() throws {
        let path = temporaryDatabasePath()
        try SQLiteConnection(path: path).withSession { session in
            try session.execute("CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users(name) VALUES ('ada')")
        }
        #expect(throws: SQLiteMigrations.Failure.foreignDatabase) {
            try SQLiteMigrations(["CREATE TABLE a(x)"]).apply(to: SQLiteConnection(path: path))
        }
        let tables = try SQLiteConnection(path: path).withSession { session in try session.scalar("SELECT group_concat(name) FROM sqlite_master") }
        #expect(tables == .text("users"), "no table was added")
        do {
            _ = try SQLitePersistence(path: path)
            Issue.record("another application's database opened as a store")
        } catch {
            #expect(storeKind(of: error) == .corrupt, "\(error)")
        }
    }

    @Test func aReadOnlyOpenChecksTheSchemaWithoutWriting() throws {
        let empty = temporaryDatabasePath()
        try Data().write(to: URL(fileURLWithPath: empty))
        #expect(throws: SQLiteMigrations.Failure.notMigrated(found: 0, supported: 1)) {
            try SQLiteMigrations(["CREATE TABLE a(x)"]).check(SQLiteConnection(path: empty, readOnly: true))
        }
        do {
            _ = try SQLitePersistence(path: empty, readOnly: true)
            Issue.record("an empty file opened as a store")
        } catch {
            #expect(storeKind(of: error) == .corrupt, "\(error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: empty)).isEmpty)
        let store = temporaryDatabasePath()
        _ = try SQLitePersistence(path: store, deviceID: "phone")
        #expect(try SQLitePersistence(path: store, readOnly: true).deviceID == "phone")
    }

    @Test func aFailedTransactionChangesNothing() throws {
        let connection = try SQLiteConnection(path: temporaryDatabasePath())
        try connection.withSession { session in try session.execute("CREATE TABLE t(x INTEGER PRIMARY KEY)") }
        #expect(throws: SQLiteError.self) {
            try connection.withSession { session in
                try session.transaction { tx in
                    try tx.run("INSERT INTO t(x) VALUES (1)")
                    try tx.run("INSERT INTO t(x) VALUES (1)")
                }
            }
        }
        let count = try connection.withSession { session in try session.scalar("SELECT count(*) FROM t") }
        #expect(count == .integer(0))
    }

    @Test func aFileThatIsNotADatabaseIsReportedAsCorrupt() throws {
        let path = temporaryDatabasePath()
        try Data(repeating: 0x41, count: 4096).write(to: URL(fileURLWithPath: path))
        do {
            let connection = try SQLiteConnection(path: path)
            try SQLiteMigrations(["CREATE TABLE a(x)"]).apply(to: connection)
            Issue.record("a garbage file opened as a database")
        } catch let error as SQLiteError {
            #expect(error.isCorrupt)
        } catch SQLiteMigrations.Failure.sqlite(let error) {
            #expect(error.isCorrupt)
        }
    }
}
