import Foundation
import Testing
import TipRuntime
import TipRuntimeSQLite

/// Real `tipc` processes on one SQLite store at once: donors, merges and creators. Every write
/// a process acknowledged (printed after its commit) must be in the store afterwards, once.
@Suite("Store: concurrent processes lose nothing")
struct StoreProcessTests {
    static let manifest = """
    tipkit 1
    param note: String = ""
    event opened { n: Int }
    tip t {
      title "T"
      rule opened.count > 0
    }
    """

    /// A started `tipc` whose standard output goes to a file.
    struct Running {
        let process: Process
        let output: String

        /// Waits for the exit; the status and what it printed.
        func finish() throws -> (status: Int32, stdout: String) {
            process.waitUntilExit()
            return (process.terminationStatus, try String(contentsOfFile: output, encoding: .utf8))
        }
    }

    static func start(_ arguments: [String], in folder: TemporaryFolder) throws -> Running {
        let output = folder.path + "/out-\(UUID().uuidString)"
        for file in [output, output + ".err"] {
            guard FileManager.default.createFile(atPath: file, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        }
        let process = Process()
        process.executableURL = try ExecutableTests.executable()
        process.arguments = arguments
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: output + ".err"))
        try process.run()
        return Running(process: process, output: output)
    }

    /// The ids of `donated … id ID` lines.
    static func acknowledgedIDs(_ stdout: String) -> [String] {
        stdout.split(separator: "\n").compactMap { line in line.range(of: " id ").map { String(line[$0.upperBound...]) } }
    }

    static func donate(_ db: String, _ manifest: String, count: Int, in folder: TemporaryFolder) throws -> Running {
        try start(["store", "--db", db, "--manifest", manifest, "donate", "opened", "--value", "{\"n\": 1}", "--count", String(count)], in: folder)
    }

    @Test func donorsAndMergesIntoOneStoreAtOnceLoseNothing() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let target = folder.path + "/target.sqlite"
        // Two other devices' stores to merge in, each with its own donations.
        var expected = Set<String>()
        for name in ["b", "c"] {
            let (status, stdout) = try Self.donate(folder.path + "/\(name).sqlite", manifest, count: 40, in: folder).finish()
            #expect(status == 0)
            expected.formUnion(Self.acknowledgedIDs(stdout))
        }
        #expect(expected.count == 80)
        var running = [try Self.donate(target, manifest, count: 120, in: folder), try Self.donate(target, manifest, count: 120, in: folder)]
        for round in 0..<6 {
            let other = round % 2 == 0 ? "b" : "c"
            running.append(try Self.start(["store", "--db", target, "--manifest", manifest, "merge", folder.path + "/\(other).sqlite"], in: folder))
        }
        for process in running {
            let (status, stdout) = try process.finish()
            #expect(status == 0, "\(process.process.arguments ?? []): \((try? String(contentsOfFile: process.output + ".err", encoding: .utf8)) ?? "")")
            expected.formUnion(Self.acknowledgedIDs(stdout))
        }
        #expect(expected.count == 320)
        let stored = try SQLitePersistence(path: target).load().donations
        let lost = expected.subtracting(stored.keys)
        #expect(lost.isEmpty, "acknowledged but lost: \(lost.count)")
        #expect(stored.count == expected.count, "each exactly once, nothing invented")
    }

    @Test func aCopiedStoreMergesBackWithoutLoss() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        let original = folder.path + "/x.sqlite", copy = folder.path + "/y.sqlite"
        func tipc(_ db: String, _ arguments: [String]) throws -> String {
            let (status, stdout) = try Self.start(["store", "--db", db, "--manifest", manifest] + arguments, in: folder).finish()
            #expect(status == 0, "\(arguments)")
            return stdout
        }
        var acknowledged = Self.acknowledgedIDs(try tipc(original, ["donate", "opened", "--value", "{\"n\": 1}"]))
        try FileManager.default.copyItem(atPath: original, toPath: copy)   // a restored backup
        acknowledged += Self.acknowledgedIDs(try tipc(original, ["donate", "opened", "--value", "{\"n\": 2}"]))
        acknowledged += Self.acknowledgedIDs(try tipc(copy, ["donate", "opened", "--value", "{\"n\": 3}"]))
        _ = try tipc(copy, ["invalidate", "t", "--reason", "tipClosed"])
        _ = try tipc(original, ["merge", copy])
        let merged = try SQLitePersistence(path: original).load()
        #expect(acknowledged.count == 3)
        #expect(Set(merged.donations.keys) == Set(acknowledged))
        #expect(merged.histories[TipInstance(tip: "t")]?.currentInvalidation == .tipClosed, "the copy's invalidation came along")
        // And back the other way: both hold the same.
        _ = try tipc(copy, ["merge", original])
        #expect(try SQLitePersistence(path: copy).load() == SQLitePersistence(path: original).load())
    }

    @Test func eightProcessesCreatingOneStoreAllOpenIt() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.tips", Self.manifest)
        for attempt in 0..<3 {
            let db = folder.path + "/new-\(attempt).sqlite"
            let running = try (0..<8).map { _ in try Self.donate(db, manifest, count: 1, in: folder) }
            var acknowledged = Set<String>()
            for process in running {
                let (status, stdout) = try process.finish()
                #expect(status == 0, "\((try? String(contentsOfFile: process.output + ".err", encoding: .utf8)) ?? "")")
                acknowledged.formUnion(Self.acknowledgedIDs(stdout))
            }
            #expect(acknowledged.count == 8)
            #expect(Set(try SQLitePersistence(path: db).load().donations.keys) == acknowledged)
        }
    }
}
