import Testing
@testable import TipRuntime
import TipRuntimeSQLite

@Suite("Runtime: concurrency")
struct ConcurrencyTests {
    static let source = """
    tipkit 1
    param level: Int = 0
    event tapped { n: Int }
    tip t {
      title "T"
      rule tapped.count >= 100 and $level >= 0
    }
    """

    @Test(arguments: ["memory", "sqlite"])
    func manyTasksDonatingAndReadingLoseNothing(_ kind: String) async throws {
        let persistence: any TipPersistence = kind == "memory" ? MemoryPersistence(deviceID: "d") : try SQLitePersistence(path: temporaryDatabasePath())
        let center = try makeCenter(Self.source, persistence: persistence)
        let tasks = 8
        let perTask = kind == "memory" ? 200 : 25
        await withTaskGroup(of: Void.self) { group in
            for task in 0..<tasks {
                group.addTask {
                    for index in 0..<perTask {
                        _ = try? center.donate("tapped", value: ["n": .int(Int64(task * 1000 + index))])
                        try? center.setParameter("level", to: .int(Int64(index)))
                        _ = try? center.status(of: "t")
                        _ = try? center.shouldDisplay("t")
                    }
                }
            }
        }
        #expect(center.donationCount(of: "tapped") == tasks * perTask)
        let stored = try persistence.load().donations
        #expect(stored.count == tasks * perTask)
        #expect(Set(stored.values.compactMap { $0.value["n"] }).count == tasks * perTask)
        let reopened = try makeCenter(Self.source, persistence: persistence)
        #expect(reopened.donationCount(of: "tapped") == tasks * perTask)
    }
}
