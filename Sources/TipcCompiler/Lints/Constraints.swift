extension Lints {
    /// Something rules constrain: a parameter's value, or a number computed from donations
    /// (`e.within(3d).count`, `e.distinct(f)`).
    struct Quantity: Hashable, Sendable {
        /// The expression with its source ranges erased, so that the same query written in two
        /// rules is one quantity.
        var expression: CheckedExpression
        /// Every value the quantity can take (counts are never negative; an enum-like String
        /// parameter takes only its `values`).
        var universe: ValueSet
    }

    /// Atomic constraints that hold together: each quantity lies in its set. Built only through
    /// `adding`, which refuses a contradiction, so a `Conjunction` is always satisfiable as far as
    /// the lints can tell.
    struct Conjunction: Sendable {
        private(set) var constraints: [Quantity: ValueSet] = [:]

        /// No constraint at all: holds in every state.
        var isUnconstrained: Bool { constraints.isEmpty }

        /// This conjunction with `quantity ∈ set` added, or nil when that contradicts it.
        func adding(_ quantity: Quantity, in set: ValueSet) -> Conjunction? {
            guard let narrowed = (constraints[quantity] ?? quantity.universe).intersection(set), !narrowed.isEmpty else { return nil }
            var result = self
            result.constraints[quantity] = narrowed
            return result
        }

        /// Both conjunctions together, or nil when they contradict each other.
        func merging(_ other: Conjunction) -> Conjunction? {
            var result = self
            for (quantity, set) in other.constraints {
                guard let merged = result.adding(quantity, in: set) else { return nil }
                result = merged
            }
            return result
        }
    }

    /// A Boolean formula as a disjunction of satisfiable conjunctions. It over-approximates: every
    /// state where the formula holds satisfies one of the conjunctions, so an empty disjunction
    /// proves the formula can never hold. Whatever the lints do not understand becomes
    /// "unconstrained", which can never produce a warning.
    struct Disjunction: Sendable {
        private(set) var conjunctions: [Conjunction]

        /// The most disjuncts kept; beyond it the analysis gives up (the formula is treated as
        /// unconstrained).
        static let maximumDisjuncts = 64

        /// Holds in some state, as far as the lints know (also: "not understood").
        static let unconstrained = Disjunction(conjunctions: [Conjunction()])
        /// Never holds.
        static let never = Disjunction(conjunctions: [])

        /// Holds exactly when `quantity ∈ set`.
        static func atom(_ quantity: Quantity, in set: ValueSet) -> Disjunction {
            Conjunction().adding(quantity, in: set).map { Disjunction(conjunctions: [$0]) } ?? .never
        }

        var isUnsatisfiable: Bool { conjunctions.isEmpty }

        private static func make(_ conjunctions: [Conjunction]) -> Disjunction {
            if conjunctions.count > maximumDisjuncts || conjunctions.contains(where: \.isUnconstrained) { return .unconstrained }
            return Disjunction(conjunctions: conjunctions)
        }

        /// Holds when both hold: every pair of disjuncts that does not contradict itself.
        func and(_ other: Disjunction) -> Disjunction {
            var result: [Conjunction] = []
            for left in conjunctions {
                for right in other.conjunctions {
                    guard let merged = left.merging(right) else { continue }
                    result.append(merged)
                    if result.count > Disjunction.maximumDisjuncts { return .unconstrained }
                }
            }
            return Disjunction.make(result)
        }

        /// Holds when either holds.
        func or(_ other: Disjunction) -> Disjunction {
            Disjunction.make(conjunctions + other.conjunctions)
        }
    }
}
