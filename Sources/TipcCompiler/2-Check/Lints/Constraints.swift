extension Lints {
    /// Atomic constraints that hold together: each quantity lies in its set. Built only through
    /// `adding`, which refuses a contradiction, so a `Conjunction` is always satisfiable as far as
    /// the lints can tell. Rules constrain few quantities each: a short list beats a hash table.
    struct Conjunction: Sendable {
        private(set) var constraints: [(quantity: Quantity, set: ValueSet)] = []

        /// No constraint at all: holds in every state.
        var isUnconstrained: Bool { constraints.isEmpty }

        /// This conjunction with `quantity ∈ set` added, or nil when that contradicts it.
        func adding(_ quantity: Quantity, in set: ValueSet) -> Conjunction? {
            var result = self
            return result.add(quantity, in: set) ? result : nil
        }

        /// Adds `quantity ∈ set`; false when that contradicts the conjunction (which is then
        /// left in an unspecified state).
        private mutating func add(_ quantity: Quantity, in set: ValueSet) -> Bool {
            if let index = constraints.firstIndex(where: { $0.quantity.id == quantity.id }) {
                guard let narrowed = constraints[index].set.intersection(set), !narrowed.isEmpty else { return false }
                constraints[index].set = narrowed
                return true
            }
            guard let narrowed = quantity.universe.intersection(set), !narrowed.isEmpty else { return false }
            constraints.append((quantity, narrowed))
            return true
        }

        /// Both conjunctions together, or nil when they contradict each other.
        func merging(_ other: Conjunction) -> Conjunction? {
            var result = self
            for (quantity, set) in other.constraints {
                guard result.add(quantity, in: set) else { return nil }
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
