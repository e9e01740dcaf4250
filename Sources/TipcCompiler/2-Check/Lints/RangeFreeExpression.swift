extension Lints {
    /// Checked expressions compared without their source ranges: the same query written in
    /// two rules is one quantity.
    enum RangeFreeExpression {
        /// Whether the two expressions are the same but for their source ranges.
        static func equal(_ a: borrowing CheckedExpression, _ b: borrowing CheckedExpression) -> Bool {
            guard a.type == b.type else { return false }
            switch (a.kind, b.kind) {
            case (.constant(let x), .constant(let y)): return x == y
            case (.now, .now): return true
            case (.parameter(let x), .parameter(let y)): return x == y
            case (.field(let x), .field(let y)): return x == y
            case (.event(let x), .event(let y)): return x == y
            case (.within(let x, let wx), .within(let y, let wy)): return wx == wy && equal(x, y)
            case (.filter(let x, let px), .filter(let y, let py)): return equal(x, y) && equal(px, py)
            case (.largestSubset(let x, let fx), .largestSubset(let y, let fy)): return fx == fy && equal(x, y)
            case (.smallestSubset(let x, let fx), .smallestSubset(let y, let fy)): return fx == fy && equal(x, y)
            case (.count(let x), .count(let y)): return equal(x, y)
            case (.distinct(let x, let fx), .distinct(let y, let fy)): return fx == fy && equal(x, y)
            case (.not(let x), .not(let y)): return equal(x, y)
            case (.negate(let x), .negate(let y)): return equal(x, y)
            case (.intToDouble(let x), .intToDouble(let y)): return equal(x, y)
            case (.logical(let ox, let lx, let rx), .logical(let oy, let ly, let ry)):
                return ox == oy && equal(lx, ly) && equal(rx, ry)
            case (.compare(let ox, let lx, let rx), .compare(let oy, let ly, let ry)):
                return ox == oy && equal(lx, ly) && equal(rx, ry)
            case (.arithmetic(let ox, let lx, let rx), .arithmetic(let oy, let ly, let ry)):
                return ox == oy && equal(lx, ly) && equal(rx, ry)
            case (.inList(let x, let ix), .inList(let y, let iy)): return ix == iy && equal(x, y)
            case (.instanceKey, .instanceKey): return true
            case (.tipState(let x), .tipState(let y)):
                guard x.tip == y.tip, x.member == y.member else { return false }
                switch (x.key, y.key) {
                case (nil, nil): return true
                case (let kx?, let ky?): return equal(kx, ky)
                default: return false
                }
            default: return false
            }
        }

        /// A cheap number that equal quantity expressions share (unequal ones usually differ),
        /// read from the top node alone: the kind, its field or parameter index, and the event
        /// its operand's type names. Deeper nodes are not visited: reading them is what costs.
        static func fingerprint(_ expression: borrowing CheckedExpression) -> Int {
            func mix(_ kind: Int, _ a: Int, _ b: Int = 0) -> Int { (kind &* 31 &+ a) &* 31 &+ b }
            func event(_ type: ExpressionType) -> Int {
                if case .collection(let event) = type { return event }
                return -1
            }
            switch expression.kind {
            case .parameter(let index): return mix(1, index)
            case .count(let base): return mix(2, event(base.type))
            case .distinct(let base, let field): return mix(3, field, event(base.type))
            default: return 0
            }
        }
    }
}
