import Foundation

/// The normal quantile of a two-sided 95% interval (Φ⁻¹(0.975)).
public let z95 = 1.959963984540054

/// A closed interval of fractions, `low ≤ high`; encoded as `[low, high]`.
public struct Interval: Sendable, Hashable, Codable {
    public let low: Double
    public let high: Double

    public init(low: Double, high: Double) {
        self.low = low
        self.high = high
    }

    public init(from decoder: any Decoder) throws {
        var container = try decoder.unkeyedContainer()
        low = try container.decode(Double.self)
        high = try container.decode(Double.self)
        guard container.isAtEnd else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "an interval is two numbers, [low, high]")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.unkeyedContainer()
        try container.encode(low)
        try container.encode(high)
    }

    public func contains(_ value: Double) -> Bool { low <= value && value <= high }
}

/// Counts that make a proportion: `successes` of `trials` (converted users of exposed ones).
public struct Proportion: Sendable, Hashable {
    public let successes: Int
    public let trials: Int

    /// Counts with `0 ≤ successes ≤ trials`.
    public init(successes: Int, trials: Int) throws(AnalyticsError) {
        guard trials >= 0, successes >= 0, successes <= trials else {
            throw .impossibleCounts(successes: successes, trials: trials)
        }
        self.successes = successes
        self.trials = trials
    }

    /// successes / trials; nil without trials.
    public var rate: Double? {
        trials == 0 ? nil : Double(successes) / Double(trials)
    }

    /// The Wilson score interval at 95%; nil without trials. Unlike the textbook p̂ ± z·SE,
    /// it stays inside [0, 1] and does not collapse to a point when none or all succeed.
    public var wilsonInterval: Interval? {
        guard trials > 0 else { return nil }
        let n = Double(trials)
        let p = Double(successes) / n
        let z2 = z95 * z95
        let denominator = 1 + z2 / n
        let center = (p + z2 / (2 * n)) / denominator
        let halfWidth = z95 * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot() / denominator
        return Interval(low: max(0, center - halfWidth), high: min(1, center + halfWidth))
    }
}

/// How an arm's rate differs from the baseline's.
public struct ProportionDifference: Sendable, Hashable {
    /// The arm's rate minus the baseline's.
    public let value: Double
    /// Newcombe's hybrid score interval at 95%, built from the two Wilson intervals.
    public let interval: Interval
    /// The two-sided p-value of the pooled two-proportion z-test, erfc(|z|/√2).
    public let pValue: Double

    /// The difference `arm − baseline`; nil when either has no trials.
    public init?(_ arm: Proportion, from baseline: Proportion) {
        guard let armRate = arm.rate, let baseRate = baseline.rate,
              let armInterval = arm.wilsonInterval, let baseInterval = baseline.wilsonInterval else { return nil }
        value = armRate - baseRate
        let below = ((armRate - armInterval.low) * (armRate - armInterval.low)
            + (baseInterval.high - baseRate) * (baseInterval.high - baseRate)).squareRoot()
        let above = ((armInterval.high - armRate) * (armInterval.high - armRate)
            + (baseRate - baseInterval.low) * (baseRate - baseInterval.low)).squareRoot()
        interval = Interval(low: value - below, high: value + above)
        let pooled = Double(arm.successes + baseline.successes) / Double(arm.trials + baseline.trials)
        let variance = pooled * (1 - pooled) * (1 / Double(arm.trials) + 1 / Double(baseline.trials))
        // No variance: every user of both converted, or none did; the rates are equal, and
        // nothing speaks against "no difference".
        pValue = variance > 0 ? erfc(abs(value / variance.squareRoot()) / 2.0.squareRoot()) : 1
    }

    /// Whether the difference is significant at `alpha` (two-sided).
    public func isSignificant(alpha: Double = 0.05) -> Bool { pValue < alpha }
}

/// Counts no experiment can produce.
public enum AnalyticsError: Error, Equatable, CustomStringConvertible {
    case impossibleCounts(successes: Int, trials: Int)
    case mismatchedCounts(counts: Int, weights: Int)
    case negativeCount(Int)
    case negativeWeight(Int)

    public var description: String {
        switch self {
        case .impossibleCounts(let successes, let trials):
            "\(successes) of \(trials) is not a proportion: counts are zero or more, and successes are at most the trials"
        case .mismatchedCounts(let counts, let weights):
            "\(counts) counts for \(weights) weights: one count per arm"
        case .negativeCount(let count): "the count \(count) is negative"
        case .negativeWeight(let weight): "the weight \(weight) is negative"
        }
    }
}
