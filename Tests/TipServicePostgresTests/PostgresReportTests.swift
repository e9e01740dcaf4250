import Foundation
import Testing
import TipAnalytics
import TipRuntime
import TipService
import TipcTestSupport
@testable import TipServicePostgres

extension PostgresTests {
    /// The report's counts on PostgreSQL: the same SQL as the SQLite store's, run by another
    /// engine, against the Swift definition on random users.
    @Suite("Report")
    struct Report {
        static func plan(at: Int64?) -> ReportPlan {
            ReportPlan(experiments: RandomReportData.experiments.map { .init(name: $0.name, tip: $0.tip, salt: $0.salt, goalEvent: $0.goalEvent,
                                                                             goalWindowMilliseconds: $0.goalWindow, arms: $0.arms) },
                       tips: RandomReportData.tips.map { .init(id: $0.id, goal: $0.goal) }, at: at)
        }

        @Test func theCountsAgreeWithTheDefinitionOnRandomUsers() throws {
            let store = try PostgresServiceStore(url: try TestCluster.freshDatabase())
            var g = SeededGenerator(seed: 7)
            let users = RandomReportData.users(200, &g)
            for (id, snapshot) in users {
                try store.transaction(user: id) { persistence in try persistence.merge(snapshot) }
            }
            for at in [nil, RandomReportData.cutoff] {
                let plan = Self.plan(at: at)
                let expected = try plan.report(plan.tallies(users: users.map(\.snapshot)))
                #expect(try plan.report(store.reportTallies(plan)) == expected)
                #expect(expected.experiments.flatMap(\.arms).contains { $0.converted > 0 })
            }
        }

        @Test func anEmptyStoreReportsZeroes() throws {
            let store = try PostgresServiceStore(url: try TestCluster.freshDatabase())
            let plan = Self.plan(at: nil)
            let report = try plan.report(store.reportTallies(plan))
            #expect(report.experiments.flatMap(\.arms).allSatisfy { $0.assigned == 0 && $0.conversionRate == nil })
            #expect(report.tips.map(\.usersShown) == [0, 0])
        }
    }
}
