extension Lints {
    /// `unsatisfiable`: a tip whose rules can never all hold, so it can never be displayed.
    enum UnsatisfiableTips {
        /// Whether a tip's rules are known to hold together in some state, from their outcomes
        /// (`ConstraintExtraction.outcomes(ofRules:into:)`, which also told whether some quantity
        /// is constrained by two rules): then `diagnostic(for:extraction:)` would find nothing.
        ///
        /// When no quantity is constrained twice in the tip, rules that can each hold can hold
        /// together: their formulas never contradict each other (see `Outcomes`).
        static func holdTogether(_ outcomes: [RuleOutcomes], sharesQuantities: Bool) -> Bool {
            !sharesQuantities && outcomes.allSatisfy { $0.isExact && $0.outcomes.canHold }
        }

        /// The warning for `tip`, if its rules can never all hold.
        static func diagnostic(for tip: CheckedTip, extraction: inout ConstraintExtraction) -> Diagnostic? {
            let formulas = tip.rules.map { extraction.formula($0, holds: true) }
            guard let conflicting = conflictingRules(formulas) else { return nil }
            if conflicting.count == 1 {
                let rule = conflicting[0]
                return Diagnostic(.unsatisfiable, "tip '\(tip.name)' can never be displayed: one of its rules can never hold",
                                  at: tip.range, help: "fix or remove rule \(rule + 1)",
                                  notes: [DiagnosticNote("rule \(rule + 1) can never hold", at: tip.rules[rule].range)])
            }
            let notes = conflicting.map { rule in
                DiagnosticNote("rule \(rule + 1) conflicts with \(listed(conflicting.filter { $0 != rule }))", at: tip.rules[rule].range)
            }
            return Diagnostic(.unsatisfiable, "tip '\(tip.name)' can never be displayed: its rules contradict each other",
                              at: tip.range, help: "\(listed(conflicting)) cannot hold together; relax or remove one of them",
                              notes: notes)
        }

        /// "rule 2", "rules 1 and 3", "rules 1, 2 and 4" (1-based).
        private static func listed(_ rules: [Int]) -> String {
            let numbers = rules.map { String($0 + 1) }
            guard let last = numbers.last else { return "no rule" }
            if numbers.count == 1 { return "rule \(last)" }
            return "rules \(numbers.dropLast().joined(separator: ", ")) and \(last)"
        }

        /// The indexes of rules that cannot hold together, none of them superfluous (without
        /// any one of them the others may hold), or nil when the rules may all hold.
        static func conflictingRules(_ formulas: [Disjunction]) -> [Int]? {
            var kept = Array(formulas.indices)
            guard holdTogetherNever(kept, formulas) else { return nil }
            for index in formulas.indices {
                let without = kept.filter { $0 != index }
                if holdTogetherNever(without, formulas) { kept = without }
            }
            return kept
        }

        private static func holdTogetherNever(_ indexes: [Int], _ formulas: [Disjunction]) -> Bool {
            var together = Disjunction.unconstrained
            for index in indexes {
                together = together.and(formulas[index])
                if together.isUnsatisfiable { return true }
            }
            return false
        }
    }
}
