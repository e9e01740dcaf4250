import Foundation
import Testing
import TipcTestSupport
import TipRuntime
import TipRuntimeSQLite
import TipService

/// `tipc store merge OTHER`: the other store is opened read-only and checked whole (SQLite's
/// integrity check, then every record's own checks) before anything of it is read into this
/// store. A damaged or foreign file is refused with one line, and both files are left as they
/// were; a store of the other kind is named for what it is.
@Suite("store merge: the source is checked and left alone")
struct MergeSourceTests {
    static let manifest = """
        tipkit 1
        param plan: String = "free"
        event opened { itemID: Int }
        tip welcome {
          title "Welcome"
          rule opened.count > 0
        }
        """

    /// A folder with the compiled pack, a source store with every kind of record, and a
    /// target store with records of its own.
    struct Fixture {
        let folder: TemporaryFolder
        let pack: String
        let source: String
        let target: String

        init() throws {
            folder = try TemporaryFolder()
            let manifest = try folder.write("app.tips", MergeSourceTests.manifest)
            pack = folder.path + "/app.tippack"
            let compiled = Invocation(["compile", manifest, "-o", pack])
            #expect(compiled.status == 0, "\(compiled.stderr)")
            source = folder.path + "/phone.sqlite"
            target = folder.path + "/tablet.sqlite"
            do {
                // Small pages, so that most changed bytes land in records and indexes rather
                // than in a page's free space (which a merge rightly does not notice).
                try SQLiteConnection(path: source).withSession { session in try session.execute("PRAGMA journal_mode=DELETE; PRAGMA page_size=512; VACUUM") }
                let phone = try SQLitePersistence(path: source, deviceID: "phone")
                let start: Int64 = 1_772_355_600_000
                // Fixed ids, so that every run writes the same file.
                func id(_ number: Int) -> String { String(repeating: "0", count: 28) + String(format: "%04x", number) }
                try phone.append((0..<100).map { index in
                    DonationRecord(id: id(index), event: "opened", date: start + Int64(index) * 60_000, value: ["itemID": .int(Int64(index * 37))])
                })
                try phone.write(parameters: ["plan": ParameterRecord(value: .string("pro"), stamp: Stamp(milliseconds: start, device: "phone"))])
                try phone.add([
                    TipEventRecord(id: id(1000), tip: "welcome", stamp: Stamp(milliseconds: start + 1, device: "phone"), kind: .display(count: 1, milliseconds: 4_000)),
                    TipEventRecord(id: id(1001), tip: "welcome", stamp: Stamp(milliseconds: start + 2, device: "phone"), kind: .invalidation(.tipClosed)),
                ], latestFirstDisplay: start + 1)
                try phone.deleteDonations(of: "opened", through: start - 1)
                let tablet = try SQLitePersistence(path: target, deviceID: "tablet")
                try tablet.append([DonationRecord(id: id(2000), event: "opened", date: start, value: ["itemID": .int(1)])])
            }
            // Both closed: every write is in the main files, and no -wal or -shm is left.
            for path in [source, target] {
                #expect(!FileManager.default.fileExists(atPath: path + "-wal"))
            }
        }

        func merge(into target: String, from source: String) -> Invocation {
            Invocation(["store", "--db", target, "--pack", pack, "merge", source])
        }
    }

    static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

    /// Copies of a real store with 1–5 random bytes changed: each merge is refused with the
    /// target untouched, or merges exactly the intact store's records; either way the intact
    /// store merges afterwards. Seeded, so every run sees the same 100 damaged files.
    @Test func aDamagedSourceIsRefusedWithNothingChangedOrMergesOnlyIntactRecords() throws {
        let fixture = try Fixture()
        let original = try Self.bytes(fixture.source)
        let targetBefore = try Self.bytes(fixture.target)
        // What merging the intact store gives.
        let reference = fixture.folder.path + "/reference.sqlite"
        try targetBefore.write(to: URL(fileURLWithPath: reference))
        #expect(fixture.merge(into: reference, from: fixture.source).status == 0)
        let expected = try SQLitePersistence(path: reference).load()
        #expect(expected.donations.count == 101)

        var generator = SeededGenerator(seed: 0x7157_0425)
        var refused = 0
        let damaged = fixture.folder.path + "/damaged.sqlite", target = fixture.folder.path + "/target.sqlite"
        for trial in 0..<100 {
            var bytes = original
            var flipped: [Int] = []
            for _ in 0..<Int.random(in: 1...5, using: &generator) {
                let position = Int.random(in: 0..<bytes.count, using: &generator)
                bytes[position] ^= UInt8.random(in: 1...255, using: &generator)
                flipped.append(position)
            }
            try bytes.write(to: URL(fileURLWithPath: damaged))
            try targetBefore.write(to: URL(fileURLWithPath: target))
            let merge = fixture.merge(into: target, from: damaged)
            if merge.status == 0 {
                #expect(try SQLitePersistence(path: target, readOnly: true).load() == expected, "trial \(trial) (bytes \(flipped)) merged altered records")
                let again = fixture.merge(into: target, from: fixture.source)
                #expect(again.status == 0, "trial \(trial): the intact store no longer merges: \(again.stderr)")
                #expect(try SQLitePersistence(path: target, readOnly: true).load() == expected)
            } else {
                // The target is as it was, so the intact store merges into it as into `reference`.
                refused += 1
                #expect(merge.stderr.split(separator: "\n").count == 1, "trial \(trial): \(merge.stderr.debugDescription)")
                #expect(try Self.bytes(target) == targetBefore, "trial \(trial) (bytes \(flipped)) changed the target: \(merge.stderr)")
            }
            #expect(try Self.bytes(damaged) == bytes, "trial \(trial) changed the damaged source")
            for path in [damaged, target] {
                try? FileManager.default.removeItem(atPath: path)
                try? FileManager.default.removeItem(atPath: path + "-wal")
                try? FileManager.default.removeItem(atPath: path + "-shm")
            }
        }
        #expect(refused > 50, "most damage is found (\(refused) of 100 refused)")
    }

    /// A store whose records SQLite finds sound but which hold what no store may (a date
    /// tens of thousands of years off): refused by the records' own checks.
    @Test func aSourceWithARecordOutOfBoundsIsRefused() throws {
        let fixture = try Fixture()
        let id = try #require(try SQLitePersistence(path: fixture.source).load().donations.keys.min())
        try SQLiteConnection(path: fixture.source).withSession { session in
            try session.run("UPDATE donations SET date = -136742139646690 WHERE id = ?1", [.text(id)])
        }
        let targetBefore = try Self.bytes(fixture.target)
        let merge = fixture.merge(into: fixture.target, from: fixture.source)
        #expect(merge.status == 1)
        #expect(merge.stderr == "error: \(fixture.source): donation '\(id)' has the date -136742139646690 ms, outside 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z; nothing was merged\n")
        #expect(try Self.bytes(fixture.target) == targetBefore)
    }

    /// Another application's database and an empty file are refused and left byte for byte
    /// as they were: never switched to WAL, never given a schema.
    @Test(arguments: ["foreign", "empty"])
    func aFileThatIsNotAStoreIsRefusedAndLeftAlone(_ kind: String) throws {
        let fixture = try Fixture()
        let other = fixture.folder.path + "/\(kind).sqlite"
        if kind == "foreign" {
            try SQLiteConnection(path: other, readOnly: false).withSession { session in
                try session.execute("PRAGMA journal_mode=DELETE; CREATE TABLE users(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO users(name) VALUES ('ada')")
            }
        } else {
            #expect(FileManager.default.createFile(atPath: other, contents: Data()))
        }
        let before = try Self.bytes(other), targetBefore = try Self.bytes(fixture.target)
        let merge = fixture.merge(into: fixture.target, from: other)
        #expect(merge.status == 1)
        #expect(merge.stderr.split(separator: "\n").count == 1, "\(merge.stderr)")
        #expect(merge.stderr.contains(kind == "foreign" ? "another application" : "not a tipc store"), "\(merge.stderr)")
        #expect(try Self.bytes(other) == before, "the file is byte for byte as it was")
        #expect(!FileManager.default.fileExists(atPath: other + "-wal") && !FileManager.default.fileExists(atPath: other + "-shm"))
        #expect(try Self.bytes(fixture.target) == targetBefore)
    }

    /// A service store given where a device store is expected, and the reverse: one line that
    /// says which kind of store the file is.
    @Test func aStoreOfTheOtherKindIsNamedInOneLine() throws {
        let fixture = try Fixture()
        let service = fixture.folder.path + "/serve.sqlite"
        _ = try SQLiteServiceStore(path: service)
        let kinds = "the file is a tipc service store (the kind `tipc serve --store sqlite:…` opens), not a tipc device store (the kind `tipc store --db` opens)"
        let status = Invocation(["store", "--db", service, "--pack", fixture.pack, "status"])
        #expect(status.status == 1)
        #expect(status.stderr == "error: \(service): \(kinds)\n")
        let merge = fixture.merge(into: fixture.target, from: service)
        #expect(merge.stderr == "error: \(service): \(kinds)\n")

        let serve = try ExecutableTests.run(["serve", "--pack", fixture.pack, "--store", "sqlite:" + fixture.source, "--listen", "127.0.0.1:0"])
        #expect(serve.status != 0)
        #expect(serve.stderr.split(separator: "\n").count == 1, "\(serve.stderr)")
        #expect(serve.stderr.contains("the file is a tipc device store (the kind `tipc store --db` opens), not a tipc service store"), "\(serve.stderr)")
    }
}
