/// The value of one rule. A rule whose evaluation failed is false.
public enum RuleOutcome: Sendable, Hashable, CustomStringConvertible {
    /// The rule evaluated to this value.
    case value(Bool)
    /// Evaluation failed at instruction `pc` (word index in the rule's code).
    case failed(EvaluationFailure, pc: Int)

    /// Whether the rule holds (false when it failed).
    public var holds: Bool {
        if case .value(true) = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case .value(let flag): return String(flag)
        case .failed(let failure, let pc): return "failed at \(pc): \(failure)"
        }
    }
}

/// The evaluation of one tip's rules (all must hold).
package struct TipEvaluation: Sendable, Hashable {
    package var tip: Int
    /// The outcome of each rule evaluated, in order. Unless every rule was asked for, evaluation
    /// stops at the first rule that does not hold.
    package var rules: [RuleOutcome]

    /// All rules hold (a tip without rules: always).
    package var isSatisfied: Bool { rules.allSatisfy(\.holds) }

    /// The first rule that does not hold, and why.
    package var firstUnsatisfiedRule: (index: Int, outcome: RuleOutcome)? {
        guard let index = rules.firstIndex(where: { !$0.holds }) else { return nil }
        return (index, rules[index])
    }

    package static func == (a: TipEvaluation, b: TipEvaluation) -> Bool { a.tip == b.tip && a.rules == b.rules }
    package func hash(into hasher: inout Hasher) {
        hasher.combine(tip)
        hasher.combine(rules)
    }
}

/// A value observed while tracing an evaluation (for `explain`).
public enum TraceValue: Sendable, Hashable, CustomStringConvertible {
    /// A sub-expression's value.
    case value(RuntimeValue)
    /// An event collection, by its number of donations.
    case collection(count: Int)
    /// A tip's displays (`tip(X).displays`), by their number.
    case displays(count: Int)
    /// A tip's invalidations (`tip(X).invalidations`), by their number.
    case invalidations(count: Int)

    public var description: String {
        switch self {
        case .value(let value): return value.description
        case .collection(let count): return "\(count) donation(s)"
        case .displays(let count): return "\(count) display(s)"
        case .invalidations(let count): return "\(count) invalidation(s)"
        }
    }
}

/// One step of a traced evaluation: the instruction at `pc` produced `value`. Inside a `where`
/// predicate, `donation` is the index (in the event's time order) of the donation being tested.
package struct TraceEntry: Sendable, Hashable {
    package var pc: Int
    package var value: TraceValue
    package var donation: Int?
}
