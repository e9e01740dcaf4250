import Foundation
import Testing
@testable import TipRuntime
@testable import TipRuntimeSQLite

/// Faults of the store file: each is a thrown, typed error, the runtime's state is unchanged,
/// and nothing already stored is lost.
@Suite("Runtime: store faults")
struct StoreFaultTests {
    static let source = """
    tipkit 1
    event opened
    tip t {
      title "T"
      rule opened.count >= 1
    }
    """

    @Test func aCorruptFileIsRefusedAsCorrupt() throws {
        let path = temporaryDatabasePath()
        try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))
        #expect(throws: TipError.self) { try SQLitePersistence(path: path) }
        do {
            _ = try SQLitePersistence(path: path)
        } catch {
            #expect(storeKind(of: error) == .corrupt, "\(error)")
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(repeating: 0x5A, count: 8192), "the file is not touched")
    }

    @Test func aStoreFromANewerSchemaIsRefusedUntouched() throws {
        let path = temporaryDatabasePath()
        let center = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path))
        try center.donate("opened")
        let raw = try SQLiteConnection(path: path)
        try raw.withSession { session in try session.execute("PRAGMA user_version = 99") }
        do {
            _ = try SQLitePersistence(path: path)
            Issue.record("a store from a newer tipc opened")
        } catch {
            #expect(storeKind(of: error) == .newerSchema, "\(error)")
        }
        let count = try raw.withSession { session in try session.scalar("SELECT count(*) FROM donations") }
        #expect(count == .integer(1), "the donation is still there")
    }

    @Test func aReadOnlyStoreRefusesWritesAndChangesNothing() throws {
        let path = temporaryDatabasePath()
        let writer = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path))
        try writer.donate("opened")
        let reader = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path, readOnly: true))
        #expect(reader.donationCount(of: "opened") == 1)
        do {
            try reader.donate("opened")
            Issue.record("a read-only store accepted a donation")
        } catch {
            guard case .store(let storeError) = error else { Issue.record("unexpected \(error)"); return }
            #expect(storeError.kind == .readOnly)
        }
        #expect(reader.donationCount(of: "opened") == 1, "the runtime's state is unchanged")
        #expect(try reader.status(of: "t") == .available)
    }

    @Test func aBusyTimeoutThatIsNotANumberOrNegativeIsRefused() throws {
        let path = temporaryDatabasePath()
        for timeout in [TimeInterval.nan, -1] {
            do {
                _ = try SQLitePersistence(path: path, busyTimeout: timeout)
                Issue.record("a store opened with the busy timeout \(timeout)")
            } catch {
                #expect(error.code == "unrepresentable-time", "\(error.message)")
            }
        }
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was created")
        _ = try SQLitePersistence(path: path, busyTimeout: .infinity)
    }

    @Test func aStoreLockedByAnotherConnectionTimesOutThenRecovers() throws {
        let path = temporaryDatabasePath()
        let center = try makeCenter(Self.source, persistence: try SQLitePersistence(path: path, busyTimeout: 0.05))
        try center.donate("opened")
        let other = try SQLiteConnection(path: path)
        try other.withSession { session in try session.execute("BEGIN EXCLUSIVE") }
        do {
            try center.donate("opened")
            Issue.record("a donation went through a held lock")
        } catch {
            guard case .store(let storeError) = error else { Issue.record("unexpected \(error)"); return }
            #expect(storeError.kind == .locked)
        }
        #expect(center.donationCount(of: "opened") == 1, "the refused donation is not counted")
        try other.withSession { session in try session.execute("COMMIT") }
        try center.donate("opened")
        #expect(center.donationCount(of: "opened") == 2)
        #expect(try SQLitePersistence(path: path).load().donations.count == 2, "nothing lost")
    }
}
