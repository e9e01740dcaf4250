#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipRuntime
import TipRuntimeSQLite
import TipcDriver

/// The runtime on SQLite: durable donations, opening a large store, and evaluating every tip,
/// each beside its floor (raw SQLite doing the same I/O; the same runtime in memory), timed in
/// turns. One thread: run it under `taskset -c 0`. Donations are timed on the wall clock (their
/// cost is waiting for fsync); opening and evaluating, which never wait on a hot page cache, on
/// the thread's CPU time.
func runRuntimeBenchmarks() {
    Report.header("runtime on SQLite (one thread: run under taskset -c 0; donations wall time, the rest CPU time; medians, the runtime and its floor in turns)")
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tipc-bench-\(UUID().uuidString)").path
    defer { try? FileManager.default.removeItem(atPath: folder) }
    // As for the VM's memory figure: large blocks mapped on their own, returned when freed.
    Measure.fixMmapThreshold(128 * 1024)
    do {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let pack = try benchmarkPack(tips: 1_000)
        try durableDonations(pack, folder)
        try largeStore(pack, folder)
        try statusOfEveryTip(pack, folder)
    } catch {
        fatalError("runtime benchmark failed: \(error)")
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
    let raw = try SQLiteConnection(path: folder + "/raw-single.sqlite")
    try raw.withSession { session in try session.execute("CREATE TABLE d(id TEXT PRIMARY KEY, event TEXT, date INTEGER, value TEXT)") }
    var rowID = 0
    // Each call returns 1 when its donation was stored as asked.
    let single = try PairedTiming(clock: .wall, samples: 5, iterations: singles, measured: { index in
        try center.donate("event0", at: start + Int64(index)).date == start + Int64(index) ? 1 : 0
    }, floor: { _ in
        rowID += 1
        return try raw.withSession { session in
            try session.run("INSERT INTO d VALUES (?1, 'event0', ?2, '')", [.text("x:\(rowID)"), .integer(rowID)])
            return session.changes
        }
    })
    precondition(single.measuredSum == singles && single.floorSum == singles)
    Report.ratio("durable single donations", value: 1e9 / single.measured, floor: 1e9 / single.floor,
                 floorLabel: "raw SQLite insert+commit", unit: "donations/s")

    let batchSize = 10_000
    let batch = (0..<batchSize).map { PendingDonation(event: "event1", milliseconds: start + Int64($0), value: ["itemID": .int(Int64($0 % 97)), "category": .string("shoes")]) }
    let batched = try PairedTiming(clock: .wall, samples: 5, iterations: 1, measured: { _ in
        try center.donate(batch).count
    }, floor: { _ in
        try raw.withSession { session in
            try session.transaction { transaction in
                var inserted = 0
                for _ in 0..<batchSize {
                    rowID += 1
                    try transaction.run("INSERT INTO d VALUES (?1, 'event1', ?2, ?3)", [.text("x:\(rowID)"), .integer(rowID), .text("category=s:shoes;itemID=i:3")])
                    inserted += transaction.changes
                }
                return inserted
            }
        }
    })
    precondition(batched.measuredSum == batchSize && batched.floorSum == batchSize)
    Report.ratio("batched donations (10,000 per transaction)", value: 1e9 * Double(batchSize) / batched.measured,
                 floor: 1e9 * Double(batchSize) / batched.floor, floorLabel: "raw SQLite batch", unit: "donations/s")
}

private func largeStore(_ pack: VerifiedRulePack, _ folder: String) throws {
    let path = folder + "/large.sqlite"
    let total = 1_000_000
    let persistence = try SQLitePersistence(path: path)
    for chunk in 0..<(total / 100_000) {
        let donations = (0..<100_000).map { index in
            // The 25 valueless events (even numbers), which have no donation limit: all are kept.
            PendingDonation(event: "event\((chunk * 100_000 + index) % 25 * 2)", milliseconds: start + Int64(chunk * 100_000 + index) * 1000)
        }
        try persistence.append(donations.map { $0.record() })
    }
    func open() throws -> Int {
        let center = try TipCenter(pack: pack, persistence: try SQLitePersistence(path: path), clock: ManualClock(now: start))
        return (0..<25).reduce(0) { $0 + (center.donationCount(of: "event\($1 * 2)") ?? 0) }
    }

    // Memory: one opening, the peak and what the opened store holds, above what was resident.
    Measure.releaseFreedMemory()
    let before = Measure.residentBytes()
    Measure.resetPeak()
    let center = try TipCenter(pack: pack, persistence: try SQLitePersistence(path: path), clock: ManualClock(now: start))
    let peak = Measure.peakResidentBytes() - before
    Measure.releaseFreedMemory()
    let held = Measure.residentBytes() - before
    precondition(center.donationCount(of: "event0") == total / 25, "the large store did not open fully")

    let timing = try PairedTiming(clock: .threadCPU, samples: 3, iterations: 1, measured: { _ in try open() }, floor: { _ in
        var count = 0
        _ = try persistence.read { _ in count += 1 }
        return count
    })
    precondition(timing.measuredSum == total && timing.floorSum == total)
    Report.ratio("open a store of 1,000,000 donations", value: timing.measured / 1e6, floor: timing.floor / 1e6,
                 floorLabel: "reading its rows alone", unit: "ms")
    Report.figure("memory while opening it (peak above baseline)", Double(peak) / 1_048_576, unit: "MiB",
                  note: "(held by the open store: \(Report.format(Double(held) / 1_048_576)) MiB, \(Report.format(Double(held) / Double(total))) bytes/donation)")
    withExtendedLifetime(center) {}
}

private func statusOfEveryTip(_ pack: VerifiedRulePack, _ folder: String) throws {
    let memory = try TipCenter(pack: pack, persistence: MemoryPersistence(), clock: ManualClock(now: start + 1000))
    let sqlite = try TipCenter(pack: pack, persistence: try SQLitePersistence(path: folder + "/status.sqlite"), clock: ManualClock(now: start + 1000))
    var donations: [PendingDonation] = []
    for index in 0..<5_000 {
        let event = index % 50
        var value: [String: RuntimeValue] = [:]
        if event % 2 == 1 { value = ["itemID": .int(Int64(index % 7)), "category": .string("shoes")] }
        donations.append(PendingDonation(event: "event\(event)", milliseconds: start + Int64(index % 1000), value: value))
    }
    for center in [memory, sqlite] {
        let donated = try center.donate(donations).count
        precondition(donated == donations.count)
    }
    let names = pack.pack.tips.map(\.name)
    func code(_ status: TipStatus) -> Int {
        switch status {
        case .pending: return 0
        case .available: return 1
        case .invalidated: return 2
        }
    }
    let timing = try PairedTiming(clock: .threadCPU, samples: 7, iterations: names.count, measured: { index in
        code(try sqlite.status(of: names[index]))
    }, floor: { index in
        code(try memory.status(of: names[index]))
    })
    precondition(timing.measuredSum == timing.floorSum, "the SQLite-backed runtime and the in-memory one disagree")
    Report.ratio("status of every tip of a 1,000-tip pack, SQLite-backed", value: timing.measured, floor: timing.floor,
                 floorLabel: "same runtime in memory", unit: "ns/tip", target: 1.2)
    let available = try names.filter { try memory.status(of: $0) == .available }.count
    print("    available: \(available) of \(names.count) tips, pending: the others")
}
