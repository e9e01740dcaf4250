extension Lints {
    /// Checked expressions compared without their source ranges: the same query written in
    /// two rules is one quantity.
    enum RangeFreeExpression {
        /// Whether the two expressions are the same but for their source ranges.
        static func equal(_ a: CheckedExpression, _ b: CheckedExpression) -> Bool {
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
            default: return false
            }
        }

        /// A cheap number that equal expressions share (unequal ones usually differ): the shape
        /// and numbers along the expression's spine, from the top down to its event or
        /// parameter. Filter predicates, operands of operators and constants are left out.
        static func fingerprint(_ expression: CheckedExpression) -> Int {
            // Recursion (the spine is as deep as the query is long) reads each node in place.
            func mix(_ kind: Int, _ number: Int, _ rest: Int = 0) -> Int { (kind &* 31 &+ number) &* 31 &+ rest }
            switch expression.kind {
            case .parameter(let index): return mix(1, index)
            case .event(let index): return mix(2, index)
            case .within(let base, let window): return mix(3, window, fingerprint(base))
            case .filter(let base, _): return mix(4, 0, fingerprint(base))
            case .largestSubset(let base, let field): return mix(5, field, fingerprint(base))
            case .smallestSubset(let base, let field): return mix(6, field, fingerprint(base))
            case .count(let base): return mix(7, 0, fingerprint(base))
            case .distinct(let base, let field): return mix(8, field, fingerprint(base))
            default: return 9
            }
        }
    }
}
