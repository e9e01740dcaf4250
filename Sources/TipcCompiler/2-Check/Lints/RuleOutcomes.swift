extension Lints {
    /// Whether a Bool expression can hold and whether it can be false, as far as the lints can
    /// tell: the emptiness of its two formulas, found without building them.
    ///
    /// The answer is exact when no quantity is constrained twice in the expression. Formulas are
    /// disjunctions of satisfiable conjunctions; when every atom constrains a quantity of its own,
    /// conjunctions built from different operands never contradict each other, so an `and` is empty
    /// exactly when one of its operands is and an `or` exactly when both are (the disjunct cap only
    /// ever replaces a non-empty formula by "unconstrained", which is not empty either). Then
    /// emptiness follows from the atoms alone.
    struct Outcomes: Equatable {
        /// `formula(expression, holds: true)` is not empty.
        var canHold: Bool
        /// `formula(expression, holds: false)` is not empty.
        var canBeFalse: Bool

        /// Not understood, or a constraint that may go either way.
        static let either = Outcomes(canHold: true, canBeFalse: true)

        /// The outcomes of the expression's negation.
        var negated: Outcomes { Outcomes(canHold: canBeFalse, canBeFalse: canHold) }
    }

    /// The outcomes of one rule of a tip.
    struct RuleOutcomes {
        var outcomes: Outcomes
        /// No quantity is constrained twice in the rule, so `outcomes` is exact.
        var isExact: Bool
    }
}

extension Lints.ConstraintExtraction {
    /// The outcomes of each rule of a tip, in order, into `results` (emptied first); returns
    /// whether some quantity is constrained by two different rules. Call `startTip()` first.
    mutating func outcomes(ofRules rules: [CheckedExpression], into results: inout [Lints.RuleOutcomes]) -> Bool {
        results.removeAll(keepingCapacity: true)
        var sharedAcrossRules = false
        // Rules are read in place: through an Array each one would be copied (a retain and a
        // release); through the same storage seen as a ContiguousArray (no copy), it is not.
        let rules = ContiguousArray(rules)
        for rule in rules.indices {
            var sharing = QuantitySharing()
            let outcomes = outcomes(rules[rule], rule: rule, sharing: &sharing)
            results.append(Lints.RuleOutcomes(outcomes: outcomes, isExact: !sharing.withinRule))
            sharedAcrossRules = sharedAcrossRules || sharing.acrossRules
        }
        return sharedAcrossRules
    }

    /// Quantities constrained more than once, as seen while walking one rule.
    private struct QuantitySharing {
        /// Some quantity is constrained twice within the rule.
        var withinRule = false
        /// Some quantity was constrained by an earlier rule too.
        var acrossRules = false
    }

    /// The outcomes of a Bool expression, following `formula` case by case; notes every quantity
    /// it constrains as constrained by `rule`.
    private mutating func outcomes(_ expression: borrowing CheckedExpression, rule: Int, sharing: inout QuantitySharing) -> Lints.Outcomes {
        switch expression.kind {
        case .constant(.bool(let value)):
            return Lints.Outcomes(canHold: value, canBeFalse: !value)
        case .logical(let op, _, _):
            // `a and b` can hold when both can and can be false when either can (dually for
            // `or`). Every operand is walked, to note all the quantities.
            var chain = ChainOutcomes(op: op)
            chainOutcomes(expression, into: &chain, depth: 0, rule: rule, sharing: &sharing)
            return chain.outcomes
        case .not(let operand):
            return outcomes(operand, rule: rule, sharing: &sharing).negated
        case .parameter:
            // A Bool parameter is `true` in some states and `false` in others.
            guard let quantity = quantity(expression), case .bools = quantity.universe else { return .either }
            note(quantity, rule: rule, sharing: &sharing)
            return .either
        case .compare(let op, let left, let right):
            return outcomes(comparisonTest(op, left, right), rule: rule, sharing: &sharing)
        case .inList(let value, let items):
            return outcomes(membershipTest(value, items), rule: rule, sharing: &sharing)
        default:
            return .either
        }
    }

    /// The outcomes of the operands of a chain of one logical operator, gathered so far.
    private struct ChainOutcomes {
        let op: LogicalOperator
        /// Every operand so far can hold (for `and`; can be false, for `or`).
        var all = true
        /// Some operand so far can be false (for `and`; can hold, for `or`).
        var any = false

        init(op: LogicalOperator) { self.op = op }

        mutating func add(_ operand: Lints.Outcomes) {
            all = all && (op == .and ? operand.canHold : operand.canBeFalse)
            any = any || (op == .and ? operand.canBeFalse : operand.canHold)
        }

        var outcomes: Lints.Outcomes {
            op == .and ? Lints.Outcomes(canHold: all, canBeFalse: any) : Lints.Outcomes(canHold: any, canBeFalse: all)
        }
    }

    /// Walks a chain of `chain.op` down its left spine, right operand first, as far as the
    /// chain goes. The checker builds long chains left-leaning: the spine is followed by
    /// recursion (which reads the nodes in place) for the usual short chains, and by a loop
    /// over copies beyond, so that long chains cost no stack.
    private mutating func chainOutcomes(_ node: borrowing CheckedExpression, into chain: inout ChainOutcomes, depth: Int,
                                        rule: Int, sharing: inout QuantitySharing) {
        guard case .logical(chain.op, let left, let right) = node.kind else {
            chain.add(outcomes(node, rule: rule, sharing: &sharing))
            return
        }
        chain.add(outcomes(right, rule: rule, sharing: &sharing))
        guard depth >= Self.chainRecursionLimit else {
            chainOutcomes(left, into: &chain, depth: depth + 1, rule: rule, sharing: &sharing)
            return
        }
        var spine = copy left
        while case .logical(chain.op, let left, let right) = spine.kind {
            chain.add(outcomes(right, rule: rule, sharing: &sharing))
            spine = left
        }
        chain.add(outcomes(spine, rule: rule, sharing: &sharing))
    }

    /// How deep `chainOutcomes` recurses along a chain before it loops.
    private static var chainRecursionLimit: Int { 64 }

    private mutating func outcomes(_ test: Lints.AtomicTest, rule: Int, sharing: inout QuantitySharing) -> Lints.Outcomes {
        switch test {
        case .unknown:
            return .either
        case .constant(let value):
            return Lints.Outcomes(canHold: value, canBeFalse: !value)
        case .boolean(let subject, let sense):
            let outcomes = outcomes(subject, rule: rule, sharing: &sharing)
            return sense ? outcomes : outcomes.negated
        case .quantity(let quantity, let set):
            note(quantity, rule: rule, sharing: &sharing)
            // As `formula` builds the atom: the set within the universe, and its complement
            // there (not analysed, hence unconstrained, when the kinds differ).
            return Lints.Outcomes(canHold: quantity.universe.intersects(set) ?? false,
                                  canBeFalse: set.leavesOut(of: quantity.universe) ?? true)
        }
    }

    private mutating func note(_ quantity: Lints.Quantity, rule: Int, sharing: inout QuantitySharing) {
        guard let previous = quantities.noteConstrained(quantity.id, byRule: rule) else { return }
        if previous == rule { sharing.withinRule = true } else { sharing.acrossRules = true }
    }
}
