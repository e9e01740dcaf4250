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
