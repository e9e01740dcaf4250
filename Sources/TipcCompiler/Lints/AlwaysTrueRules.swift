extension Lints {
    /// `always-true`: a rule that holds in every state, so it never affects whether its tip is
    /// displayed. Proven by showing that the rule's negation can never hold.
    enum AlwaysTrueRules {
        static func diagnostics(for tip: CheckedTip, extraction: ConstraintExtraction) -> [Diagnostic] {
            tip.rules.compactMap { rule in
                // Arithmetic may fail at run time (overflow, division by zero), which makes
                // the rule false: such a rule is not true in every state.
                guard !mayFail(rule), extraction.formula(rule, holds: false).isUnsatisfiable else { return nil }
                return Diagnostic(.alwaysTrue, "this rule of tip '\(tip.name)' holds in every state", at: rule.range,
                                  help: "it never affects whether the tip is displayed; remove it or fix the comparison")
            }
        }

        /// Whether evaluating the expression can fail at run time (walked with an explicit
        /// stack: the checker builds long `and`/`or` chains as deep trees).
        static func mayFail(_ expression: CheckedExpression) -> Bool {
            var pending = [expression]
            while let next = pending.popLast() {
                switch next.kind {
                case .constant, .now, .parameter, .field, .event:
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
