extension Lints {
    /// `always-true`: a rule that holds in every state, so it never affects whether its tip is
    /// displayed. Proven by showing that the rule's negation can never hold.
    enum AlwaysTrueRules {
        /// Whether some rule with these outcomes may hold in every state: otherwise
        /// `diagnose` would find nothing.
        static func mayApply(to outcomes: [RuleOutcomes]) -> Bool {
            outcomes.contains { !$0.isExact || !$0.outcomes.canBeFalse }
        }

        /// Appends a warning for each rule of `tip` that holds in every state. `outcomes` has
        /// one entry per rule, from `ConstraintExtraction.outcomes(ofRules:into:)`.
        static func diagnose(_ tip: CheckedTip, outcomes: [RuleOutcomes], extraction: inout ConstraintExtraction,
                             into diagnostics: inout [Diagnostic]) {
            for (index, outcome) in outcomes.enumerated() {
                let neverFalse = outcome.isExact
                    ? !outcome.outcomes.canBeFalse : extraction.formula(tip.rules[index], holds: false).isUnsatisfiable
                // Arithmetic may fail at run time (overflow, division by zero), which makes
                // the rule false: such a rule is not true in every state.
                guard neverFalse, !mayFail(tip.rules[index]) else { continue }
                diagnostics.append(Diagnostic(.alwaysTrue, "this rule of tip '\(tip.name)' holds in every state",
                                              at: tip.rules[index].range,
                                              help: "it never affects whether the tip is displayed; remove it or fix the comparison"))
            }
        }

        /// Whether evaluating the expression can fail at run time (walked with an explicit
        /// stack: the checker builds long `and`/`or` chains as deep trees).
        static func mayFail(_ expression: CheckedExpression) -> Bool {
            var pending = [expression]
            while let next = pending.popLast() {
                switch next.kind {
                case .constant, .now, .parameter, .field, .event, .instanceKey, .tipState:
                    continue
                case .negate(let operand):
                    guard case .constant = operand.kind else { return true }
                case .arithmetic:
                    return true
                case .within(let operand, _), .largestSubset(let operand, _), .smallestSubset(let operand, _),
                     .count(let operand), .distinct(let operand, _), .not(let operand), .intToDouble(let operand),
                     .inList(let operand, _):
                    pending.append(operand)
                case .filter(let first, let second), .logical(_, let first, let second), .compare(_, let first, let second):
                    pending.append(first)
                    pending.append(second)
                }
            }
            return false
        }
    }
}
