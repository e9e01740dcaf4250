#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipRuntime
import TipRuntimeSQLite

/// The runtime on SQLite: durable donations, opening a large store, and evaluating every tip,
/// each beside its floor (raw SQLite doing the same I/O; the same runtime in memory).
func runRuntimeBenchmarks() {
    Report.header("runtime on SQLite")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-bench-\(UUID().uuidString)").path
    try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: folder) }

    do {
        let pack = try benchmarkPack(tips: 1_000)
        try durableDonations(pack, folder)
        try largeStore(pack, folder)
        try statusOfEveryTip(pack, folder)
    } catch {
        print("runtime benchmark failed: \(error)")
    }
}

/// A 1,000-tip pack from the front-end generator.
private func benchmarkPack(tips: Int) throws -> VerifiedRulePack {
    var generator = ManifestGenerator(parameters: 50, events: 50, tips: tips)
    let (result, pack) = Frontend.compile(sources: [SourceFile(path: "bench.yaml", text: generator.yaml())])
    guard let pack else { throw BenchmarkError("generated manifest does not compile: \(result.diagnostics.first?.message ?? "?")") }
    return try RulePackVerifier.verify(pack)
}

private struct BenchmarkError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

private let start: Int64 = 1_772_355_600_000

private func durableDonations(_ pack: VerifiedRulePack, _ folder: String) throws {
    let singles = 300
    let center = try TipCenter(pack: pack, persistence: try SQLitePersistence(path: folder + "/single.sqlite"), clock: ManualClock(now: start))
    let single = Measure.median(runs: 3) {
        for index in 0..<singles { _ = try? center.donate("event0", at: start + Int64(index)) }
    } / Double(singles)
    let raw = try SQLiteConnection(path: folder + "/raw-single.sqlite")
    try raw.withSession { session in try session.execute("CREATE TABLE d(id TEXT PRIMARY KEY, event TEXT, date INTEGER, value TEXT)") }
    var rowID = 0
    let rawSingle = Measure.median(runs: 3) {
        for _ in 0..<singles {
            rowID += 1
            let id = rowID
            try? raw.withSession { session in
                try session.run("INSERT INTO d VALUES (?1, 'event0', ?2, '')", [.text("x:\(id)"), .integer(id)])
            }
        }
    } / Double(singles)
    Report.ratio("durable single donations", value: 1e9 / single, floor: 1e9 / rawSingle,
                 floorLabel: "raw SQLite insert+commit", unit: "donations/s")

    let batchSize = 10_000
    let batch = (0..<batchSize).map { PendingDonation(event: "event1", date: start + Int64($0), value: ["itemID": .int(Int64($0 % 97)), "category": .string("shoes")]) }
    let batched = Measure.median(runs: 3) { _ = try? center.donate(batch) } / Double(batchSize)
    let rawBatched = Measure.median(runs: 3) {
        try? raw.withSession { session in
            try session.transaction { tx in
                for _ in 0..<batchSize {
                    rowID += 1
                    try tx.run("INSERT INTO d VALUES (?1, 'event1', ?2, ?3)", [.text("x:\(rowID)"), .integer(rowID), .text("category=s:shoes;itemID=i:3")])
                }
            }
        }
    } / Double(batchSize)
    Report.ratio("batched donations (10,000 per transaction)", value: 1e9 / batched, floor: 1e9 / rawBatched,
                 floorLabel: "raw SQLite batch", unit: "donations/s")
}

private func largeStore(_ pack: VerifiedRulePack, _ folder: String) throws {
    let path = folder + "/large.sqlite"
    let total = 1_000_000
    let persistence = try SQLitePersistence(path: path)
    for chunk in 0..<(total / 100_000) {
        let donations = (0..<100_000).map { index in
            PendingDonation(event: "event\((chunk * 100_000 + index) % 50)", date: start + Int64(chunk * 100_000 + index) * 1000)
        }
        try persistence.append(donations.map { $0.record() })
    }
    Measure.releaseFreedMemory()
    let before = Measure.residentBytes()
    Measure.resetPeak()
    var opened: TipCenter?
    let open = Measure.median(runs: 1) {
        opened = try? TipCenter(pack: pack, persistence: try! SQLitePersistence(path: path), clock: ManualClock(now: start))
    }
    let memory = Measure.peakResidentBytes() - before
    Measure.releaseFreedMemory()
    let retained = Measure.residentBytes() - before
    guard let opened, opened.donationCount(of: "event0") == total / 50 else { throw BenchmarkError("the large store did not open fully") }
    let scan = Measure.median(runs: 1) {
        var count = 0
        _ = try? persistence.read { _ in count += 1 }
        precondition(count == total)
    }
    Report.ratio("open a store of 1,000,000 donations", value: open / 1e6, floor: scan / 1e6,
                 floorLabel: "reading its rows alone", unit: "ms")
    Report.figure("memory while opening it (peak above baseline)", Double(memory) / 1_048_576, unit: "MiB",
                  note: "(held afterwards: \(Report.format(Double(retained) / 1_048_576)) MiB, \(Report.format(Double(retained) / Double(total), digits: 1)) bytes/donation)")
}

private func statusOfEveryTip(_ pack: VerifiedRulePack, _ folder: String) throws {
    let memory = try TipCenter(pack: pack, persistence: MemoryPersistence(), clock: ManualClock(now: start + 1000))
    let sqlite = try TipCenter(pack: pack, persistence: try SQLitePersistence(path: folder + "/status.sqlite"), clock: ManualClock(now: start + 1000))
    var donations: [PendingDonation] = []
    for index in 0..<5_000 {
        let event = index % 50
        var value: [String: RuntimeValue] = [:]
        if event % 2 == 1 { value = ["itemID": .int(Int64(index % 7)), "category": .string("shoes")] }
        donations.append(PendingDonation(event: "event\(event)", date: start + Int64(index % 1000), value: value))
    }
    for center in [memory, sqlite] { _ = try center.donate(donations) }
    let names = pack.pack.tips.map(\.name)
    func perTip(_ center: TipCenter) -> Double {
        Measure.median(runs: 7) {
            for name in names { _ = try? center.status(of: name) }
        } / Double(names.count)
    }
    let inMemory = perTip(memory)
    let onSQLite = perTip(sqlite)
    Report.ratio("status of every tip of a 1,000-tip pack, SQLite-backed", value: onSQLite, floor: inMemory,
                 floorLabel: "same runtime in memory", unit: "ns/tip", target: 1.2)
}
