extension Lints {
    /// A checked expression compared and hashed without its source ranges: the same query
    /// written in two rules is one key. Walks the tree in place instead of copying it.
    struct RangeFreeExpression: Hashable {
        let expression: CheckedExpression

        static func == (a: RangeFreeExpression, b: RangeFreeExpression) -> Bool {
            equal(a.expression, b.expression)
        }

        func hash(into hasher: inout Hasher) {
            Self.hash(expression, into: &hasher)
        }

        private static func equal(_ a: CheckedExpression, _ b: CheckedExpression) -> Bool {
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

        private static func hash(_ expression: CheckedExpression, into hasher: inout Hasher) {
            hasher.combine(expression.type)
            switch expression.kind {
            case .constant(let value): hasher.combine(0); hasher.combine(value)
            case .now: hasher.combine(1)
            case .parameter(let index): hasher.combine(2); hasher.combine(index)
            case .field(let index): hasher.combine(3); hasher.combine(index)
            case .event(let index): hasher.combine(4); hasher.combine(index)
            case .within(let base, let window): hasher.combine(5); hasher.combine(window); hash(base, into: &hasher)
            case .filter(let base, let predicate): hasher.combine(6); hash(base, into: &hasher); hash(predicate, into: &hasher)
            case .largestSubset(let base, let field): hasher.combine(7); hasher.combine(field); hash(base, into: &hasher)
            case .smallestSubset(let base, let field): hasher.combine(8); hasher.combine(field); hash(base, into: &hasher)
            case .count(let base): hasher.combine(9); hash(base, into: &hasher)
            case .distinct(let base, let field): hasher.combine(10); hasher.combine(field); hash(base, into: &hasher)
            case .not(let operand): hasher.combine(11); hash(operand, into: &hasher)
            case .negate(let operand): hasher.combine(12); hash(operand, into: &hasher)
            case .intToDouble(let operand): hasher.combine(13); hash(operand, into: &hasher)
            case .logical(let op, let left, let right):
                hasher.combine(14); hasher.combine(op); hash(left, into: &hasher); hash(right, into: &hasher)
            case .compare(let op, let left, let right):
                hasher.combine(15); hasher.combine(op); hash(left, into: &hasher); hash(right, into: &hasher)
            case .arithmetic(let op, let left, let right):
                hasher.combine(16); hasher.combine(op); hash(left, into: &hasher); hash(right, into: &hasher)
            case .inList(let value, let items): hasher.combine(17); hasher.combine(items); hash(value, into: &hasher)
            }
        }
    }
}
