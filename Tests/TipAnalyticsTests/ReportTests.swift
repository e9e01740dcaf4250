import Foundation
import Testing
import TipAnalytics

@Suite("The report's figures and formats")
struct ReportTests {
    static let copyArms = [
        ArmCounts(name: "control", weight: 45, assigned: 4_500, exposed: 4_200, displays: 6_100, actions: ["favorite": 300],
                  closes: 900, converted: 210),
        ArmCounts(name: "short", weight: 45, assigned: 4_480, exposed: 4_150, displays: 5_900, actions: ["favorite": 380],
                  closes: 850, converted: 270),
        ArmCounts(name: "holdout", weight: 10, assigned: 1_020, exposed: 1_000, converted: 45),
    ]

    static func copyReport() throws -> ExperimentReport {
        try ExperimentReport(name: "favoriteCopy", tip: "favoriteBackyard", goal: "backyardFavorited within 7d", arms: copyArms)
    }

    @Test func figuresComeFromTheCounts() throws {
        let report = try Self.copyReport()
        #expect(report.sampleRatio.mismatch == false)
        #expect(report.sampleRatio.pValue == (try SampleRatioCheck(assigned: [4_500, 4_480, 1_020], weights: [45, 45, 10]).pValue))
        let control = report.arms[0], short = report.arms[1], holdout = report.arms[2]
        #expect(control.conversionRate == 0.05 && control.difference == nil && control.verdict == nil)
        #expect(control.interval == (try Proportion(successes: 210, trials: 4_200).wilsonInterval))
        let expected = try #require(ProportionDifference(try Proportion(successes: 270, trials: 4_150),
                                                         from: try Proportion(successes: 210, trials: 4_200)))
        #expect(short.difference?.value == expected.value && short.difference?.interval == expected.interval
                && short.difference?.pValue == expected.pValue)
        #expect(short.verdict == .better)
        #expect(holdout.verdict == .inconclusive && holdout.difference!.value < 0)
        #expect(!holdout.tooFewUsers)
    }

    @Test func aSampleRatioMismatchGivesNoVerdict() throws {
        var arms = Self.copyArms
        arms[0].assigned = 5_000
        let report = try ExperimentReport(name: "favoriteCopy", tip: "favoriteBackyard", goal: nil, arms: arms)
        #expect(report.sampleRatio.mismatch)
        #expect(report.arms.allSatisfy { $0.verdict == nil })
        #expect(report.arms[1].difference != nil)  // the figures stay, for diagnosis
        let text = AnalyticsReport(experiments: [report], tips: []).text()
        #expect(text.contains("SAMPLE RATIO MISMATCH"))
        #expect(text.contains("no verdict"))
        #expect(!text.contains("better"))
    }

    @Test func armsWithFewUsersAreMarked() throws {
        let report = try ExperimentReport(name: "e", tip: "t", goal: nil, arms: [
            ArmCounts(name: "a", weight: 1, assigned: 120, exposed: 99, converted: 10),
            ArmCounts(name: "b", weight: 1, assigned: 118, exposed: 100, converted: 40),
            ArmCounts(name: "c", weight: 1, assigned: 119, exposed: 0, converted: 0),
        ])
        #expect(report.arms.map(\.tooFewUsers) == [true, false, true])
        #expect(report.arms.map(\.verdict) == [nil, .tooFewUsers, .tooFewUsers])
        let empty = report.arms[2]
        #expect(empty.conversionRate == nil && empty.interval == nil && empty.difference == nil)
    }

    @Test func impossibleCountsAreRefusedNamingTheArm() {
        #expect(throws: ReportError.impossibleCounts(experiment: "e", arm: "b", "12 converted of 10 exposed")) {
            try ExperimentReport(name: "e", tip: "t", goal: nil, arms: [
                ArmCounts(name: "a", weight: 1, assigned: 10, exposed: 10, converted: 1),
                ArmCounts(name: "b", weight: 1, assigned: 10, exposed: 10, converted: 12),
            ])
        }
        #expect(throws: ReportError.impossibleCounts(experiment: "e", arm: "a", "11 exposed of 10 assigned")) {
            try ExperimentReport(name: "e", tip: "t", goal: nil, arms: [ArmCounts(name: "a", weight: 1, assigned: 10, exposed: 11, converted: 1)])
        }
        #expect(throws: ReportError.noArms(experiment: "e")) { try ExperimentReport(name: "e", tip: "t", goal: nil, arms: []) }
        #expect(ReportError.noArms(experiment: "e").description == "experiment 'e' has no arms")
    }

    static func sample() throws -> AnalyticsReport {
        let oneArm = try ExperimentReport(name: "solo", tip: "welcome", goal: nil, arms: [
            ArmCounts(name: "only", weight: 1, assigned: 0, exposed: 0, converted: 0),
        ])
        return AnalyticsReport(experiments: [try copyReport(), oneArm], tips: [
            TipReport(id: "favoriteBackyard", usersShown: 9_350, displays: 12_000, actions: ["favorite": 680], closes: 1_750,
                      invalidations: ["actionPerformed": 680, "tipClosed": 1_750], converted: 525),
            TipReport(id: "welcome", usersShown: 10, displays: 12, actions: [:], closes: 0, invalidations: [:], converted: nil),
        ])
    }

    @Test func jsonHasTheDocumentedShapeAndNoNaN() throws {
        let report = try Self.sample()
        let text = try report.json()
        #expect(!text.contains("NaN") && !text.contains("nan") && !text.contains("inf"))
        let root = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        let experiments = try #require(root["experiments"] as? [[String: Any]])
        let copy = experiments[0]
        #expect(copy["name"] as? String == "favoriteCopy" && copy["tip"] as? String == "favoriteBackyard")
        #expect(copy["goal"] as? String == "backyardFavorited within 7d")
        let sampleRatio = try #require(copy["sampleRatio"] as? [String: Any])
        #expect(sampleRatio["pValue"] is Double && sampleRatio["mismatch"] as? Bool == false)
        let arms = try #require(copy["arms"] as? [[String: Any]])
        #expect(Set(arms[0].keys) == ["name", "weight", "assigned", "exposed", "displays", "actions", "closes", "converted",
                                      "conversionRate", "interval", "tooFewUsers"])
        #expect(arms[0]["conversionRate"] as? Double == 0.05)
        #expect((arms[0]["interval"] as? [Double])?.count == 2)
        #expect((arms[0]["actions"] as? [String: Int]) == ["favorite": 300])
        let difference = try #require(arms[1]["difference"] as? [String: Any])
        #expect(difference["value"] is Double && (difference["interval"] as? [Double])?.count == 2 && difference["pValue"] is Double)
        #expect(arms[1]["verdict"] as? String == "better")
        // The arm without users: its figures are null, not 0 or NaN.
        let solo = experiments[1]
        #expect(solo["goal"] is NSNull)
        #expect((solo["sampleRatio"] as? [String: Any])?["pValue"] is NSNull)
        let only = try #require((solo["arms"] as? [[String: Any]])?.first)
        #expect(only["conversionRate"] is NSNull && only["interval"] is NSNull && only["difference"] == nil)
        let tips = try #require(root["tips"] as? [[String: Any]])
        #expect(tips[0]["converted"] as? Int == 525 && tips[1]["converted"] == nil)
        #expect((tips[0]["invalidations"] as? [String: Int]) == ["actionPerformed": 680, "tipClosed": 1_750])
        // It reads back as the same report.
        #expect(try JSONDecoder().decode(AnalyticsReport.self, from: Data(text.utf8)) == report)
    }

    @Test func csvHasOneRowPerArmNamedAsTheJSON() throws {
        let report = try Self.sample()
        let csv = report.csv()
        let lines = csv.components(separatedBy: "\r\n").dropLast()
        #expect(csv.hasSuffix("\r\n") && lines.count == 1 + 4)
        let header = lines[0].components(separatedBy: ",")
        #expect(header == ["experiment", "tip", "goal", "sampleRatio.pValue", "sampleRatio.mismatch", "arm", "weight", "assigned",
                           "exposed", "displays", "actions.favorite", "closes", "converted", "conversionRate", "interval.low",
                           "interval.high", "difference.value", "difference.interval.low", "difference.interval.high",
                           "difference.pValue", "tooFewUsers", "verdict"])
        let rows = lines.dropFirst().map { $0.components(separatedBy: ",") }
        #expect(rows.allSatisfy { $0.count == header.count })
        func cell(_ row: Int, _ name: String) -> String { rows[row][header.firstIndex(of: name)!] }
        let short = report.experiments[0].arms[1]
        #expect(cell(1, "arm") == "short" && cell(1, "actions.favorite") == "380" && cell(2, "actions.favorite") == "0")
        #expect(Double(cell(1, "difference.value")) == short.difference?.value)
        #expect(Double(cell(1, "difference.interval.low")) == short.difference?.interval.low)
        #expect(Double(cell(1, "interval.high")) == short.interval?.high)
        #expect(cell(0, "difference.value").isEmpty && cell(0, "verdict").isEmpty && cell(1, "verdict") == "better")
        #expect(cell(3, "conversionRate").isEmpty && cell(3, "sampleRatio.pValue").isEmpty && cell(3, "goal").isEmpty)
    }

    @Test func csvQuotesFieldsThatNeedIt() throws {
        let report = try ExperimentReport(name: "e", tip: "t", goal: "a, \"b\" within 1d",
                                          arms: [ArmCounts(name: "x", weight: 1, assigned: 1, exposed: 1, converted: 0)])
        let row = AnalyticsReport(experiments: [report], tips: []).csv().components(separatedBy: "\r\n")[1]
        #expect(row.hasPrefix("e,t,\"a, \"\"b\"\" within 1d\","))
    }

    @Test func textLaysOutEachExperimentAsATable() throws {
        let text = try Self.sample().text()
        let expected = """
            experiment favoriteCopy (tip favoriteBackyard, goal: backyardFavorited within 7d)
              sample ratio: as the weights give (p = 0.7831)
              arm      weight  assigned  exposed  displays  closes  converted  rate   95% interval   vs control  95% interval           p       verdict
              control  45      4500      4200     6100      900     210        5.00%  4.38% – 5.70%  –           –                      –       baseline
              short    45      4480      4150     5900      850     270        6.51%  5.80% – 7.30%  +1.51 pts   +0.51 pts – +2.51 pts  0.0031  better
              holdout  10      1020      1000     0         0       45         4.50%  3.38% – 5.97%  -0.50 pts   -1.82 pts – +1.09 pts  0.5105  no significant difference
              control actions: favorite 300
              short actions: favorite 380

            experiment solo (tip welcome)
              sample ratio: nothing to test
              arm   weight  assigned  exposed  displays  closes  converted  rate  95% interval  vs only  95% interval  p  verdict
              only  1       0         0        0         0       0          –     –             –        –             –  baseline, too few users

            tip               users shown  displays  closes  converted  actions       invalidations
            favoriteBackyard  9350         12000     1750    525        favorite 680  actionPerformed 680, tipClosed 1750
            welcome           10           12        0       –          –             –

            """
        #expect(text == expected)
    }
}
