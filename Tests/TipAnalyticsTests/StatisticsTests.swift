import Foundation
import Testing
import TipAnalytics
import TipcTestSupport

/// The figures match SciPy's and statsmodels' for the same counts, to 1e-9.
@Suite("Statistics against SciPy and statsmodels")
struct StatisticsReferenceTests {
    static func close(_ value: Double?, _ reference: Any?, tolerance: Double = 1e-9) -> Bool {
        guard let value, let reference = reference as? Double else { return false }
        return abs(value - reference) <= tolerance
    }

    @Test func wilsonIntervalsMatchStatsmodels() throws {
        let cases = [(0, 10), (10, 10), (0, 1), (1, 1), (45, 100), (523, 10_000), (3, 1_000), (999, 1_000), (50, 100),
                     (7, 13), (1, 100_000), (123_456, 1_000_000)]
        let script = """
            import json, sys
            from statsmodels.stats.proportion import proportion_confint
            print(json.dumps([list(proportion_confint(x, n, alpha=0.05, method='wilson')) for x, n in json.load(sys.stdin)]))
            """
        let expected = try #require(try SystemPython.run(script, input: cases.map { [$0.0, $0.1] }) as? [[Double]])
        for ((successes, trials), reference) in zip(cases, expected) {
            let interval = try #require(try Proportion(successes: successes, trials: trials).wilsonInterval)
            #expect(Self.close(interval.low, reference[0]) && Self.close(interval.high, reference[1]),
                    "\(successes)/\(trials): \(interval) against \(reference)")
        }
    }

    @Test func differencesAndPValuesMatchStatsmodels() throws {
        // (arm converted, arm exposed, baseline converted, baseline exposed)
        let cases = [(45, 100, 30, 100), (30, 100, 45, 100), (0, 10, 10, 10), (523, 10_000, 480, 9_800), (3, 120, 9, 118),
                     (1, 1, 0, 1), (0, 50, 1, 50), (499, 1_000, 500, 1_000), (7_000, 100_000, 7_300, 100_000), (2, 5, 90, 100)]
        let script = """
            import json, sys
            from statsmodels.stats.proportion import confint_proportions_2indep, proportions_ztest
            out = []
            for x1, n1, x2, n2 in json.load(sys.stdin):
                low, high = confint_proportions_2indep(x1, n1, x2, n2, method='newcomb', compare='diff', alpha=0.05)
                z, p = proportions_ztest([x1, x2], [n1, n2], value=0, alternative='two-sided', prop_var=False)
                out.append([x1 / n1 - x2 / n2, low, high, p])
            print(json.dumps(out))
            """
        let expected = try #require(try SystemPython.run(script, input: cases.map { [$0.0, $0.1, $0.2, $0.3] }) as? [[Double]])
        for (counts, reference) in zip(cases, expected) {
            let arm = try Proportion(successes: counts.0, trials: counts.1)
            let baseline = try Proportion(successes: counts.2, trials: counts.3)
            let difference = try #require(ProportionDifference(arm, from: baseline))
            #expect(Self.close(difference.value, reference[0]), "\(counts)")
            #expect(Self.close(difference.interval.low, reference[1]) && Self.close(difference.interval.high, reference[2]),
                    "\(counts): \(difference.interval) against \(reference[1...2])")
            #expect(Self.close(difference.pValue, reference[3]), "\(counts): p \(difference.pValue) against \(reference[3])")
        }
    }

    @Test func sampleRatioChecksMatchSciPy() throws {
        let cases: [(assigned: [Int], weights: [Int])] = [
            ([4_500, 4_480, 1_020], [45, 45, 10]), ([10_400, 9_600], [50, 50]), ([1, 2, 3], [1, 1, 1]), ([5_000, 5_000], [1, 1]),
            ([100, 0], [1, 1]), ([333, 333, 334, 1_000], [1, 1, 1, 3]), ([10_150, 9_850], [1, 1]), ([20_000, 3], [1, 1]),
            ((0..<30).map { 1_000 + ($0 * 37) % 90 }, Array(repeating: 1, count: 30)), ([52, 30, 18], [5, 3, 2]),
        ]
        let script = """
            import json, sys
            from scipy.stats import chisquare
            out = []
            for observed, weights in json.load(sys.stdin):
                total = sum(observed)
                result = chisquare(observed, [total * w / sum(weights) for w in weights])
                out.append([float(result.statistic), float(result.pvalue)])
            print(json.dumps(out))
            """
        let expected = try #require(try SystemPython.run(script, input: cases.map { [$0.assigned, $0.weights] }) as? [[Double]])
        for (testCase, reference) in zip(cases, expected) {
            let check = try SampleRatioCheck(assigned: testCase.assigned, weights: testCase.weights)
            #expect(check.degreesOfFreedom == testCase.weights.count - 1)
            let statistic = try #require(check.statistic), pValue = try #require(check.pValue)
            #expect(abs(statistic - reference[0]) <= 1e-9 * max(1, reference[0]), "\(testCase): \(statistic) against \(reference[0])")
            #expect(abs(pValue - reference[1]) <= 1e-9, "\(testCase): p \(pValue) against \(reference[1])")
            // Tiny p-values keep their relative precision too (the continued fraction's side).
            #expect(abs(pValue - reference[1]) <= 1e-9 * reference[1] || abs(pValue - reference[1]) < 1e-300,
                    "\(testCase): p \(pValue) against \(reference[1])")
        }
    }

    @Test func theIncompleteGammaFunctionMatchesSciPy() throws {
        var cases: [[Double]] = []
        for a in [0.5, 1, 1.5, 2, 3.5, 5, 10, 24.5, 50, 200] {
            for x in [0, 1e-8, 0.01, 0.5, 1, a / 2, a - 0.5, a, a + 0.999, a + 1, a + 1.001, 2 * a, 3 * a + 10, 100, 700] {
                cases.append([a, x])
            }
        }
        let script = """
            import json, sys
            from scipy.special import gammaincc
            print(json.dumps([float(gammaincc(a, x)) for a, x in json.load(sys.stdin)]))
            """
        let expected = try #require(try SystemPython.run(script, input: cases) as? [Double])
        for (pair, reference) in zip(cases, expected) {
            let value = regularizedUpperGamma(pair[0], pair[1])
            #expect(abs(value - reference) <= 1e-12, "Q(\(pair[0]), \(pair[1])) = \(value), SciPy \(reference)")
            if reference > 1e-290 {
                #expect(abs(value - reference) <= 1e-9 * reference, "Q(\(pair[0]), \(pair[1])) = \(value), SciPy \(reference)")
            }
        }
    }
}

@Suite("Statistics at the edges")
struct StatisticsEdgeTests {
    @Test func noExposedUsersMeansNoRateIntervalOrDifference() throws {
        let empty = try Proportion(successes: 0, trials: 0)
        let some = try Proportion(successes: 5, trials: 100)
        #expect(empty.rate == nil && empty.wilsonInterval == nil)
        #expect(ProportionDifference(empty, from: some) == nil)
        #expect(ProportionDifference(some, from: empty) == nil)
    }

    @Test func noneOrAllConvertedGiveFiniteFigures() throws {
        let none = try Proportion(successes: 0, trials: 40)
        let all = try Proportion(successes: 40, trials: 40)
        let noneInterval = try #require(none.wilsonInterval)
        let allInterval = try #require(all.wilsonInterval)
        #expect(noneInterval.low == 0 && noneInterval.high > 0.05 && noneInterval.high < 0.1)
        #expect(allInterval.high == 1 && allInterval.low > 0.9)
        for (arm, baseline) in [(none, none), (all, all), (none, all), (all, none)] {
            let difference = try #require(ProportionDifference(arm, from: baseline))
            #expect(difference.value.isFinite && difference.interval.low.isFinite && difference.interval.high.isFinite)
            #expect(difference.pValue.isFinite && (0...1).contains(difference.pValue))
            #expect(difference.interval.contains(difference.value))
        }
        // No variance in either arm, no difference: nothing speaks against equality.
        #expect(ProportionDifference(none, from: none)?.pValue == 1)
        #expect(ProportionDifference(all, from: all)?.pValue == 1)
        #expect(try #require(ProportionDifference(all, from: none)).pValue < 1e-10)
    }

    @Test func impossibleCountsAreRefused() {
        #expect(throws: AnalyticsError.impossibleCounts(successes: 11, trials: 10)) { try Proportion(successes: 11, trials: 10) }
        #expect(throws: AnalyticsError.impossibleCounts(successes: -1, trials: 10)) { try Proportion(successes: -1, trials: 10) }
        #expect(throws: AnalyticsError.mismatchedCounts(counts: 2, weights: 3)) { try SampleRatioCheck(assigned: [1, 2], weights: [1, 1, 1]) }
        #expect(throws: AnalyticsError.negativeCount(-4)) { try SampleRatioCheck(assigned: [1, -4], weights: [1, 1]) }
        #expect(throws: AnalyticsError.negativeWeight(-1)) { try SampleRatioCheck(assigned: [1, 4], weights: [1, -1]) }
    }

    @Test func sampleRatioWithNothingToTest() throws {
        for check in [try SampleRatioCheck(assigned: [500], weights: [1]),
                      try SampleRatioCheck(assigned: [0, 0], weights: [1, 1]),
                      try SampleRatioCheck(assigned: [500, 0], weights: [3, 0])] {
            #expect(check.pValue == nil && check.statistic == nil && !check.mismatch)
        }
    }

    @Test func usersInAnArmOfWeightZeroAreAMismatch() throws {
        let check = try SampleRatioCheck(assigned: [500, 498, 1], weights: [1, 1, 0])
        #expect(check.pValue == 0 && check.mismatch && check.degreesOfFreedom == 1)
    }

    @Test func theIncompleteGammaFunctionRefusesWhatItIsNotDefinedFor() {
        #expect(regularizedUpperGamma(0, 1).isNaN)
        #expect(regularizedUpperGamma(1, -1).isNaN)
        #expect(regularizedUpperGamma(2, .infinity) == 0)
        #expect(regularizedUpperGamma(2, 0) == 1)
    }
}

/// The statistics do what they promise on data with known truth, from a seeded generator.
@Suite("Statistics on simulated experiments")
struct StatisticsSimulationTests {
    static func converted(_ users: Int, rate: Double, using generator: inout SeededGenerator) -> Int {
        var count = 0
        for _ in 0..<users where Double.random(in: 0..<1, using: &generator) < rate { count += 1 }
        return count
    }

    @Test func wilsonIntervalsCoverThePlantedRateAboutNinetyFivePercentOfTheTime() throws {
        var generator = SeededGenerator(seed: 11)
        let experiments = 400
        var covered = 0
        for _ in 0..<experiments {
            let rate = Double.random(in: 0.02...0.6, using: &generator)
            let users = Int.random(in: 100...1_000, using: &generator)
            let proportion = try Proportion(successes: Self.converted(users, rate: rate, using: &generator), trials: users)
            if try #require(proportion.wilsonInterval).contains(rate) { covered += 1 }
        }
        let coverage = Double(covered) / Double(experiments)
        #expect((0.93...0.97).contains(coverage), "coverage \(coverage)")
    }

    @Test func aaExperimentsAreSignificantAboutFivePercentOfTheTime() throws {
        var generator = SeededGenerator(seed: 12)
        let experiments = 400
        var significant = 0
        for _ in 0..<experiments {
            let rate = Double.random(in: 0.05...0.5, using: &generator)
            let users = 1_000
            let arm = try Proportion(successes: Self.converted(users, rate: rate, using: &generator), trials: users)
            let baseline = try Proportion(successes: Self.converted(users, rate: rate, using: &generator), trials: users)
            if try #require(ProportionDifference(arm, from: baseline)).isSignificant(alpha: 0.05) { significant += 1 }
        }
        let share = Double(significant) / Double(experiments)
        #expect((0.02...0.08).contains(share), "\(significant) of \(experiments) A/A experiments significant")
    }

    @Test func aFiftyTwoFortyEightSplitTripsTheRatioGate() throws {
        #expect(try SampleRatioCheck(assigned: [10_400, 9_600], weights: [50, 50]).mismatch)
        #expect(try SampleRatioCheck(assigned: [9_600, 10_400], weights: [50, 50]).mismatch)
        // A split as uneven as chance makes does not.
        #expect(try !SampleRatioCheck(assigned: [10_100, 9_900], weights: [50, 50]).mismatch)
        var generator = SeededGenerator(seed: 13)
        let first = Self.converted(20_000, rate: 0.5, using: &generator)
        #expect(try !SampleRatioCheck(assigned: [first, 20_000 - first], weights: [50, 50]).mismatch)
    }
}
