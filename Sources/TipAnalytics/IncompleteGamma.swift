import Foundation

/// Q(a, x) = Γ(a, x) / Γ(a), the regularized upper incomplete gamma function, for a > 0 and
/// x ≥ 0 (0 for x = +∞; NaN for other arguments).
///
/// Below x = a + 1 the series of the lower function P converges fast and Q = 1 − P loses
/// nothing (Q is not small there); above it, the continued fraction of Q itself converges
/// fast and keeps Q's relative precision however small Q gets. The continued fraction is
/// evaluated by the modified Lentz method.
public func regularizedUpperGamma(_ a: Double, _ x: Double) -> Double {
    guard a > 0, x >= 0 else { return .nan }
    if x == 0 { return 1 }
    if x == .infinity { return 0 }
    // x^a e^(−x) / Γ(a), in logarithms so that neither factor overflows. lgamma_r, not
    // lgamma, which writes the sign of Γ to a global (Γ(a) > 0 here anyway).
    var sign: Int32 = 0
    let logPrefactor = a * log(x) - x - lgamma_r(a, &sign)
    if x < a + 1 {
        return 1 - exp(logPrefactor) * lowerGammaSeries(a, x)
    }
    return exp(logPrefactor) * upperGammaFraction(a, x)
}

private let relativeTolerance = Double.ulpOfOne
private let maximumTerms = 100_000

/// Σₙ xⁿ / (a (a+1) … (a+n)), so that P(a, x) = x^a e^(−x) / Γ(a) times it.
private func lowerGammaSeries(_ a: Double, _ x: Double) -> Double {
    var denominator = a
    var term = 1 / a
    var sum = term
    for _ in 0..<maximumTerms {
        denominator += 1
        term *= x / denominator
        sum += term
        if abs(term) < abs(sum) * relativeTolerance { break }
    }
    return sum
}

/// The continued fraction 1/(x+1−a− 1·(1−a)/(x+3−a− 2·(2−a)/(x+5−a− …))), so that
/// Q(a, x) = x^a e^(−x) / Γ(a) times it.
private func upperGammaFraction(_ a: Double, _ x: Double) -> Double {
    let tiny = Double.leastNormalMagnitude / Double.ulpOfOne
    var b = x + 1 - a
    var c = 1 / tiny
    var d = 1 / b
    var result = d
    for step in 1...maximumTerms {
        let n = Double(step)
        let numerator = -n * (n - a)
        b += 2
        d = numerator * d + b
        if abs(d) < tiny { d = tiny }
        c = b + numerator / c
        if abs(c) < tiny { c = tiny }
        d = 1 / d
        let factor = d * c
        result *= factor
        if abs(factor - 1) < relativeTolerance { break }
    }
    return result
}
