/// Whether users were assigned to arms in the proportions of their weights: Pearson's
/// chi-square goodness-of-fit test of the assigned counts against the weights, with k − 1
/// degrees of freedom for k arms that can receive users. A mismatch (p < 0.001) means the
/// assignment or the recording is broken, and no comparison of the arms can be trusted.
public struct SampleRatioCheck: Sendable, Hashable {
    /// Below this p-value the ratio is a mismatch.
    public static let threshold = 0.001

    /// The chi-square statistic; infinite when an arm of weight zero received users. nil
    /// when there is nothing to test (fewer than two arms with weight, or no users).
    public let statistic: Double?
    /// k − 1, for the k arms with a positive weight.
    public let degreesOfFreedom: Int
    /// The probability of a statistic at least this large if assignment followed the weights
    /// (0 when an arm of weight zero received users); nil when there is nothing to test.
    public let pValue: Double?

    /// Whether the counts contradict the weights (p < 0.001).
    public var mismatch: Bool { pValue.map { $0 < Self.threshold } ?? false }

    /// The test of `assigned[i]` users in arm `i` against `weights[i]`.
    public init(assigned: [Int], weights: [Int]) throws(AnalyticsError) {
        guard assigned.count == weights.count else { throw .mismatchedCounts(counts: assigned.count, weights: weights.count) }
        if let negative = assigned.first(where: { $0 < 0 }) { throw .negativeCount(negative) }
        if let negative = weights.first(where: { $0 < 0 }) { throw .negativeWeight(negative) }
        let users = Double(assigned.reduce(0, +))
        let totalWeight = Double(weights.reduce(0, +))
        let weighted = weights.filter { $0 > 0 }.count
        degreesOfFreedom = max(0, weighted - 1)
        if zip(assigned, weights).contains(where: { count, weight in weight == 0 && count > 0 }) {
            statistic = .infinity
            pValue = 0
            return
        }
        guard weighted >= 2, users > 0 else {
            statistic = nil
            pValue = nil
            return
        }
        var sum = 0.0
        for (count, weight) in zip(assigned, weights) where weight > 0 {
            let expected = users * Double(weight) / totalWeight
            let deviation = Double(count) - expected
            sum += deviation * deviation / expected
        }
        statistic = sum
        pValue = chiSquareSurvival(sum, degreesOfFreedom: degreesOfFreedom)
    }
}

/// P(X ≥ statistic) for X chi-square distributed with `degreesOfFreedom` (≥ 1) degrees of freedom.
public func chiSquareSurvival(_ statistic: Double, degreesOfFreedom: Int) -> Double {
    regularizedUpperGamma(Double(degreesOfFreedom) / 2, statistic / 2)
}
