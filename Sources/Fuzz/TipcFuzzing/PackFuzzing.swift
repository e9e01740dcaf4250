import TipRuntime
import TipcCLI

/// Fuzz bodies for the runtime half: any bytes are refused with a `RulePackError` or loaded
/// as a pack whose every rule evaluates without trapping, against a small store and against
/// parameters at their defaults and at extreme values.
public enum PackFuzzing {
    /// An instant inside the store's donations.
    static let now: Int64 = 1_750_000_000_000

    /// Loads `bytes`, then the same bytes with the header's body length and checksum made to
    /// match (so that the structural checks, not the checksum, must refuse damage); exercises
    /// each pack that verifies.
    public static func pack(_ bytes: [UInt8]) {
        if let verified = try? RulePackLoader.decode(bytes) { exercise(verified) }
        let resealed = PackMutation.resealed(bytes)
        if resealed != bytes, let verified = try? RulePackLoader.decode(resealed) { exercise(verified) }
    }

    /// Evaluates every rule of every tip (plainly, all rules, traced), assigns a unit in every
    /// experiment and renders the pack.
    public static func exercise(_ verified: VerifiedRulePack) {
        let pack = verified.pack
        let evaluator = RuleEvaluator(pack: verified)
        let store = smallStore(for: pack.events)
        for parameters in [ParameterValues(pack: pack), extremeParameters(for: pack)] {
            for instant in [now, 0, Int64.max, Int64.min] {
                _ = evaluator.evaluateAllTips(parameters: parameters, store: store, now: instant)
            }
            for tip in pack.tips.indices {
                _ = evaluator.evaluateTip(tip, parameters: parameters, store: store, now: now, allRules: true)
                for rule in pack.tips[tip].rules.indices {
                    _ = evaluator.trace(tip: tip, rule: rule, parameters: parameters, store: store, now: now)
                }
                // The tip's texts, filled (placeholders as names) in a few locales.
                for locale in ["de-CH", "en", "", "x-private_A@b"] {
                    _ = try? TipCenter.content(of: pack.tips[tip].name, in: pack, locale: locale, parameters: parameters.values,
                                               values: [:], keepingMissingPlaceholders: true)
                }
            }
        }
        // The loader verified every experiment's arms: each makes an assignment.
        for experiment in pack.experiments {
            guard let assignment = try? experiment.assignment() else { preconditionFailure("a verified experiment does not assign") }
            _ = assignment.arm(for: "fuzz")
        }
        let inspector = RulePackInspector(pack: pack)
        _ = inspector.text()
        _ = inspector.json()
    }

    /// A store with a few donations of every event, payloads covering ordinary and extreme values.
    package static func smallStore(for events: [PackEvent]) -> InMemoryDonationStore {
        var store = InMemoryDonationStore(events: events)
        for event in events.indices {
            for index in 0..<12 {
                let date = index == 11 ? Int64.min : now - Int64(index) * 3_600_000 * 9
                let payload = events[event].fields.map { value(of: $0.type, variant: index) }
                try? store.donate(event: event, at: date, payload: payload)
            }
        }
        return store
    }

    /// Every parameter set to an extreme value of its type.
    static func extremeParameters(for pack: RulePack) -> ParameterValues {
        var values = ParameterValues(pack: pack)
        for (index, parameter) in pack.parameters.enumerated() {
            try? values.set(index, to: value(of: parameter.type, variant: 7 + index % 5))
        }
        return values
    }

    /// A value of `type`; variants 0–6 are ordinary, 7–11 extreme.
    static func value(of type: ValueType, variant: Int) -> RuntimeValue {
        let integers: [Int64] = [0, 1, 2, 3, -1, 42, 1000, Int64.max, Int64.min, -Int64.max, Int64.max - 1, 1 << 62]
        let integer = integers[variant % integers.count]
        switch type {
        case .bool: return .bool(variant % 2 == 0)
        case .int: return .int(integer)
        case .double:
            let doubles: [Double] = [0, -0.0, 1.5, -2, 1e300, 4.5, 3, .greatestFiniteMagnitude, -.greatestFiniteMagnitude,
                                     .leastNonzeroMagnitude, 9.2e18, -9.3e18]
            return .double(doubles[variant % doubles.count])
        case .string:
            let strings = ["", "shoes", "hats", "pro", "free", "team", "é\u{301}", String(repeating: "x", count: 300), "\u{0}", "🙂", "a", "b"]
            return .string(strings[variant % strings.count])
        case .date: return .date(milliseconds: variant < 7 ? now - integer * 1000 : integer)
        case .duration: return .duration(milliseconds: integer)
        }
    }
}
