import Foundation
import Testing
import TipAnalytics
import TipRuntime
import TipcTestSupport
@testable import TipService

/// The report's counts: their definition on hand-made users, and the service's SQLite store's
/// SQL against the Swift definition on random users.
@Suite("report: counts")
struct ReportCountTests {
    static let start = RandomReportData.start

    /// The plan `RandomReportData`'s users are made for.
    static func randomDataPlan(at: Int64? = nil) -> ReportPlan {
        ReportPlan(experiments: RandomReportData.experiments.map { .init(name: $0.name, tip: $0.tip, salt: $0.salt, goalEvent: $0.goalEvent,
                                                                         goalWindowMilliseconds: $0.goalWindow, arms: $0.arms) },
                   tips: RandomReportData.tips.map { .init(id: $0.id, goal: $0.goal) }, at: at)
    }

    static func display(_ tip: String, at offset: Int64, arm: String? = nil, count: Int64 = 1) -> TipEventRecord {
        TipEventRecord(tip: tip, stamp: Stamp(milliseconds: start + offset, device: "d"), kind: .display(count: count, milliseconds: 10),
                       date: start + offset, arm: arm)
    }

    static func record(_ tip: String, _ kind: TipEventRecord.Kind, at offset: Int64, arm: String? = nil) -> TipEventRecord {
        TipEventRecord(tip: tip, stamp: Stamp(milliseconds: start + offset, device: "d"), kind: kind, date: start + offset, arm: arm)
    }

    static func user(assigned arm: String?, salt: String = "copy-2", records: [TipEventRecord] = [], donations: [Int64] = []) -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        if let arm {
            let assignment = AssignmentRecord(experiment: "copy", salt: salt, arm: arm, date: start)
            snapshot.assignments[assignment.key] = assignment
        }
        for record in records { snapshot.tipRecords[record.id] = record }
        for offset in donations {
            let donation = DonationRecord(id: RecordID.random(), event: "used", date: start + offset)
            snapshot.donations[donation.id] = donation
        }
        return snapshot
    }

    /// Hand-made users whose every count is known.
    static let handMade: [StoreSnapshot] = [
        // Exposed at +100, converts at +1,000 (within 2 s); taps and closes.
        user(assigned: "control", records: [display("hint", at: 100, arm: "control"), display("hint", at: 200, arm: "control"),
                                            display("hint", at: 210, arm: "control", count: 0),
                                            record("hint", .action("ok"), at: 300), record("hint", .invalidation(.tipClosed), at: 400)],
             donations: [1_000]),
        // Donated only before the first exposure, and after the window: not converted.
        user(assigned: "control", records: [display("hint", at: 5_000, arm: "control")], donations: [4_000, 7_001]),
        // Assigned, never exposed (a display carrying another arm does not expose).
        user(assigned: "short", records: [display("hint", at: 100, arm: "control")], donations: [200]),
        // Converts at the very instant of the first exposure.
        user(assigned: "short", records: [display("hint", at: 300, arm: "short")], donations: [300]),
        // A hidden arm's exposure record exposes; converts at exactly the window's end.
        user(assigned: "holdout", records: [record("hint", .exposure(experiment: "copy"), at: 0, arm: "holdout")], donations: [2_000]),
        // An old salt and an arm the pack no longer has count nowhere.
        user(assigned: "short", salt: "copy-1", records: [display("hint", at: 0, arm: "short")], donations: [10]),
        user(assigned: "gone", records: [display("hint", at: 0, arm: "gone")], donations: [10]),
        // The plain tip: shown twice, converted within 500 ms of the first display.
        user(assigned: nil, records: [display("plain", at: 0), display("plain", at: 100), record("plain", .invalidation(.actionPerformed), at: 150),
                                      record("plain", .action("ok"), at: 150)], donations: [400]),
    ]

    static func handMadePlan(at: Int64? = nil) -> ReportPlan {
        ReportPlan(experiments: [.init(name: "copy", tip: "hint", salt: "copy-2", goalEvent: "used", goalWindowMilliseconds: 2_000,
                                       arms: [("control", 2), ("short", 2), ("holdout", 1)])],
                   tips: [.init(id: "plain", goal: ("used", 500)), .init(id: "bare", goal: nil)], at: at)
    }

    static let handMadeTallies = ReportTallies(
        experiments: ["copy": ["control": ArmTally(assigned: 2, exposed: 2, displays: 3, actions: ["ok": 1], closes: 1, converted: 1),
                               "short": ArmTally(assigned: 2, exposed: 1, displays: 1, converted: 1),
                               "holdout": ArmTally(assigned: 1, exposed: 1, converted: 1)]],
        tips: ["plain": TipTally(usersShown: 1, displays: 2, actions: ["ok": 1], invalidations: ["actionPerformed": 1], converted: 1),
               "bare": TipTally()])

    @Test func theDefinitionCountsHandMadeUsers() throws {
        let plan = Self.handMadePlan()
        #expect(try plan.report(plan.tallies(users: Self.handMade)) == plan.report(Self.handMadeTallies))
    }

    @Test func theSQLiteStoreCountsHandMadeUsersAsTheDefinitionDoes() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        try Self.write(Self.handMade.enumerated().map { ("u\($0.offset)", $0.element) }, to: store)
        let plan = Self.handMadePlan()
        #expect(try plan.report(store.reportTallies(plan)) == plan.report(Self.handMadeTallies))
        // At +150 ms: the first control user's exposure, tap and close are dated later or not.
        let early = Self.handMadePlan(at: Self.start + 150)
        let expected = try early.report(early.tallies(users: Self.handMade))
        #expect(try early.report(store.reportTallies(early)) == expected)
        #expect(expected.experiments[0].arms[0].displays == 1)
        #expect(expected.experiments[0].arms[0].converted == 0)
    }

    /// The SQL and the Swift definition give the same report on random users, at every instant.
    @Test(arguments: [1, 2, 3] as [UInt64])
    func theSQLiteStoreAgreesWithTheDefinitionOnRandomUsers(seed: UInt64) throws {
        var g = SeededGenerator(seed: seed)
        let users = RandomReportData.users(150, &g)
        let folder = try TemporaryFolder()
        let store = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        try Self.write(users, to: store)
        for at in [nil, RandomReportData.cutoff] {
            let plan = Self.randomDataPlan(at: at)
            let expected = try plan.report(plan.tallies(users: users.map(\.snapshot)))
            #expect(try plan.report(store.reportTallies(plan)) == expected)
            // Not vacuous: every kind of count is non-zero somewhere.
            let arms = expected.experiments.flatMap(\.arms)
            #expect(arms.contains { $0.converted > 0 } && arms.contains { $0.closes > 0 } && arms.contains { !$0.actions.isEmpty })
            #expect(expected.tips.contains { ($0.converted ?? 0) > 0 } && expected.tips.contains { !$0.invalidations.isEmpty })
        }
    }

    static func write(_ users: [(id: String, snapshot: StoreSnapshot)], to store: any ServiceStore) throws {
        for (id, snapshot) in users {
            try store.transaction(user: id) { persistence in try persistence.merge(snapshot) }
        }
    }

    @Test func aPlanNamesTheExperimentItDoesNotFind() throws {
        let error = ReportPlanError(experiment: "copyy", known: ["copy"])
        #expect(error.description == "no experiment 'copyy' in the pack; its experiments: copy")
    }
}

/// `GET /v1/report` through the server's handler: an admin route, answering the plan's report.
@Suite("report: the service's route")
struct ReportRouteTests {
    @Test func onlyAnAdminKeyReadsTheReport() throws {
        let folder = try TemporaryFolder()
        let store = try SQLiteServiceStore(path: folder.path + "/serve.sqlite")
        let server = TipServer(pack: try ServeHandlerTests.pack(), store: store, keys: try ServiceKeys(text: ServiceKeysTests.file("\n")))
        let client = server.handle(HTTPRequest(method: "GET", path: "/v1/report", headers: ["authorization": "Bearer client-token"]))
        #expect(client.status == 403)
        let admin = server.handle(HTTPRequest(method: "GET", path: "/v1/report", headers: ["authorization": "Bearer admin-token"]))
        #expect(admin.status == 200)
        let plan = try ReportPlan(pack: server.pack.pack)
        #expect(String(decoding: admin.body, as: UTF8.self) == (try plan.report(store.reportTallies(plan)).json()) + "\n")
        let post = server.handle(HTTPRequest(method: "POST", path: "/v1/report", headers: ["authorization": "Bearer admin-token"]))
        #expect(post.status == 405)
    }
}
