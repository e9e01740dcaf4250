extension Lints {
    /// Numbers the quantities of one tip at a time: equal quantity expressions (source ranges
    /// aside) get the same number, counting from 0 at each `startTip()`. Formulas never span two
    /// tips, so numbers need not be stable across them.
    ///
    /// A parameter read with its own type is found by its index; any other quantity (a count,
    /// a distinct count) by a cheap fingerprint, then compared without source ranges. Also
    /// records which rule last constrained each quantity, to tell when one is constrained twice.
    struct QuantityInterner {
        /// Per parameter index: the tip it was last numbered in, and its number there.
        private var parameterSlots: [(tip: Int, id: Int)]
        /// Every other quantity of the current tip: its fingerprint, expression and number (kept
        /// apart, so that scanning the fingerprints copies no expression). Only the first
        /// `queryCount` entries belong to the current tip: the arrays are not emptied between
        /// tips but overwritten, which spares destroying and rebuilding their entries per tip.
        private var queryFingerprints: [Int] = []
        private var queryExpressions: [CheckedExpression] = []
        private var queryIDs: [Int] = []
        private var queryCount = 0
        /// Per number below `idCount`: the last rule that constrained the quantity, or -1.
        private var constrainingRule: [Int] = []
        private var idCount = 0
        /// Counts the tips started, so that stale parameter slots are told apart without clearing.
        private var tip = 0

        init(parameterCount: Int) {
            parameterSlots = Array(repeating: (tip: -1, id: 0), count: parameterCount)
        }

        /// Forgets the previous tip's quantities.
        mutating func startTip() {
            tip += 1
            queryCount = 0
            idCount = 0
        }

        /// The number of a parameter read with its own type.
        mutating func id(ofParameter index: Int) -> Int {
            if parameterSlots[index].tip == tip { return parameterSlots[index].id }
            let id = newID()
            parameterSlots[index] = (tip, id)
            return id
        }

        /// The number of any other quantity expression.
        mutating func id(of expression: borrowing CheckedExpression) -> Int {
            let fingerprint = RangeFreeExpression.fingerprint(expression)
            for index in 0..<queryCount where queryFingerprints[index] == fingerprint {
                if RangeFreeExpression.equal(queryExpressions[index], expression) { return queryIDs[index] }
            }
            let id = newID()
            if queryCount < queryFingerprints.count {
                queryFingerprints[queryCount] = fingerprint
                queryExpressions[queryCount] = copy expression
                queryIDs[queryCount] = id
            } else {
                queryFingerprints.append(fingerprint)
                queryExpressions.append(copy expression)
                queryIDs.append(id)
            }
            queryCount += 1
            return id
        }

        private mutating func newID() -> Int {
            if idCount < constrainingRule.count {
                constrainingRule[idCount] = -1
            } else {
                constrainingRule.append(-1)
            }
            idCount += 1
            return idCount - 1
        }

        /// Notes that `rule` constrains the quantity numbered `id` (rules are noted in order);
        /// returns the rule that constrained it last before, or nil when this is the first time.
        mutating func noteConstrained(_ id: Int, byRule rule: Int) -> Int? {
            let previous = constrainingRule[id]
            constrainingRule[id] = rule
            return previous < 0 ? nil : previous
        }
    }
}
