/// A sum of the current instant, parameters and a constant, each with an integer coefficient:
/// the value of an Int, Date or Duration expression that is linear in `now`, as the rule's
/// bytecode computes it (`now - $installedAt`, `date("2026-12-24T00:00:00Z")`, `$trialEnds + 7d`).
package struct LinearForm: Sendable, Hashable {
    /// The coefficient of `now` (0: the value does not depend on time).
    package var now: Int64 = 0
    /// Coefficients by parameter index.
    package var parameters: [Int: Int64] = [:]
    package var constant: Int64 = 0

    static func constant(_ value: Int64) -> LinearForm { LinearForm(constant: value) }

    /// `self + factor × other`; nil when a coefficient or the constant overflows.
    func adding(_ other: LinearForm, times factor: Int64 = 1) -> LinearForm? {
        guard let now = Self.sum(now, other.now, factor), let constant = Self.sum(constant, other.constant, factor) else { return nil }
        var result = LinearForm(now: now, parameters: parameters, constant: constant)
        for (parameter, coefficient) in other.parameters {
            guard let sum = Self.sum(result.parameters[parameter] ?? 0, coefficient, factor) else { return nil }
            result.parameters[parameter] = sum == 0 ? nil : sum
        }
        return result
    }

    /// `factor × self`; nil on overflow.
    func scaled(by factor: Int64) -> LinearForm? { LinearForm().adding(self, times: factor) }

    var isConstant: Bool { now == 0 && parameters.isEmpty }

    /// `a + b × factor`, nil on overflow.
    private static func sum(_ a: Int64, _ b: Int64, _ factor: Int64) -> Int64? {
        let (product, overflow) = b.multipliedReportingOverflow(by: factor)
        let (result, overflow2) = a.addingReportingOverflow(product)
        return overflow || overflow2 ? nil : result
    }
}

/// One comparison of a rule whose outcome depends on `now`: `difference OP 0`, where
/// `difference` is the left operand minus the right one (`now >= date(…)` is
/// `now - date(…) >= 0`).
package struct NowComparison: Sendable, Hashable {
    package var difference: LinearForm
    package var comparison: ComparisonCode

    /// The first instant after `now` at which the comparison's outcome changes, with the
    /// parameters' current slots (Int, Date and Duration parameters hold their number); nil
    /// when it never changes (or a value overflows, where the rule fails at any instant).
    package func nextChange(parameterSlots slots: [Int64], now: Int64) -> Int64? {
        var offset = difference.constant
        for (parameter, coefficient) in difference.parameters {
            guard slots.indices.contains(parameter) else { return nil }
            let (term, overflow) = slots[parameter].multipliedReportingOverflow(by: coefficient)
            let (sum, overflow2) = offset.addingReportingOverflow(term)
            if overflow || overflow2 { return nil }
            offset = sum
        }
        let slope = difference.now
        guard slope != 0, offset != .min else { return nil }
        // The value `slope × t + offset` crosses 0 at t = -offset / slope: the outcome can change
        // only at the instants around it (an equality holds at one instant and stops after it).
        let (quotient, remainder) = (-offset).quotientAndRemainder(dividingBy: slope)
        let crossing = remainder != 0 && (remainder < 0) != (slope < 0) ? quotient - 1 : quotient
        var next: Int64?
        for step: Int64 in -1...2 {
            let (instant, overflow) = crossing.addingReportingOverflow(step)
            guard !overflow, instant > now, let after = holds(at: instant, slope, offset),
                  let before = holds(at: instant - 1, slope, offset), after != before else { continue }
            next = min(next ?? instant, instant)
        }
        return next
    }

    private func holds(at instant: Int64, _ slope: Int64, _ offset: Int64) -> Bool? {
        let (product, overflow) = instant.multipliedReportingOverflow(by: slope)
        let (value, overflow2) = product.addingReportingOverflow(offset)
        return overflow || overflow2 ? nil : comparison.holds(value, 0)
    }
}

/// Finds the comparisons of verified rule bytecode whose outcome depends on `now`, so that the
/// runtime can wake observers at the instant a dated rule changes (`now >= date(…)`,
/// `now < $trialEnds`, `now - $installedAt > 7d`), as it does for sliding windows.
///
/// An abstract run over the code: each stack slot is a `LinearForm` when it is built from
/// `now`, parameters and constants by `+`, `-`, unary minus and multiplication by a constant,
/// and unknown otherwise (a count, a payload field, a quotient). A `CMP_INT`, `CMP_INT_K` or
/// `IN_INTS` whose operand depends on `now` is recorded. Comparisons with payload fields (inside
/// `where`) are not: their instants depend on each donation.
package enum DatedWakeups {
    /// The comparisons of `code` (one rule) that depend on `now`, in program order without
    /// duplicates.
    package static func comparisons(in code: [UInt32]) -> [NowComparison] {
        comparisons(inRules: [code])
    }

    /// The comparisons of several rules (a tip's), in order without duplicates.
    package static func comparisons(inRules rules: [[UInt32]]) -> [NowComparison] {
        var found = Found()
        for code in rules { analyse(code, from: 0, to: code.count, into: &found) }
        return found.comparisons
    }

    /// What the analysis found so far; a set keeps it linear however long an `IN_INTS` list is.
    private struct Found {
        var comparisons: [NowComparison] = []
        var seen = Set<NowComparison>()

        mutating func record(_ difference: LinearForm?, _ comparison: ComparisonCode) {
            guard let difference, difference.now != 0 else { return }
            let found = NowComparison(difference: difference, comparison: comparison)
            if seen.insert(found).inserted { comparisons.append(found) }
        }
    }

    /// Runs over `code[start..<end]` with an empty stack (a rule, or a `where` predicate, which
    /// the verifier nests at most `PackFormat.maximumPredicateNesting` deep).
    private static func analyse(_ code: [UInt32], from start: Int, to end: Int, into result: inout Found) {
        var stack: [LinearForm?] = []
        func pop() -> LinearForm? { stack.popLast() ?? nil }
        func record(_ difference: LinearForm?, _ comparison: ComparisonCode) { result.record(difference, comparison) }
        var pc = start
        while pc < end {
            let word = code[pc]
            guard let opcode = Opcode(rawValue: Instruction.opcodeByte(word)) else { return }
            let a = word >> 8, info = opcode.info
            let next = pc + 1 + info.extra.count(operand: a)
            guard next <= end else { return }
            func immediate(_ index: Int = 0) -> Int64 { Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index]) }
            switch opcode {
            case .ret:
                return
            case .loadNow:
                stack.append(LinearForm(now: 1))
            case .add, .subtract:
                let right = pop(), left = pop()
                if let left, let right { stack.append(left.adding(right, times: opcode == .add ? 1 : -1)) } else { stack.append(nil) }
            case .negate:
                stack.append(pop()?.scaled(by: -1))
            case .multiply:
                let right = pop(), left = pop()
                if let left, let right, left.isConstant || right.isConstant {
                    stack.append(left.isConstant ? right.scaled(by: left.constant) : left.scaled(by: right.constant))
                } else {
                    stack.append(nil)
                }
            case _ where info.operand == .blockLength:
                // A `WHERE`: the predicate runs once per donation, on a stack of its own.
                _ = pop()
                stack.append(nil)
                analyse(code, from: pc + 1, to: min(end, pc + 1 + Int(a)), into: &result)
                pc = min(end, pc + 1 + Int(a))
                continue
            default:
                // Every other instruction by what the table says of it. `popped[0]` is the top.
                let popped = (0..<info.pops).map { _ in pop() }
                switch (info.operand, info.extra) {
                case (.comparison, .none) where info.popped == .number:
                    if let left = popped[1], let right = popped[0] { record(left.adding(right, times: -1), ComparisonCode(verified: Int(a))) }
                case (.comparison, .int):
                    record(popped[0]?.adding(.constant(immediate()), times: -1), ComparisonCode(verified: Int(a)))
                case (.listLength, .ints):
                    for index in 0..<Int(a) { record(popped[0]?.adding(.constant(immediate(index)), times: -1), .equal) }
                default: break
                }
                switch info.result {
                case .own: break // the jumps: the fall-through path pops the condition; the other joins with a Bool in place
                case .parameterType: stack.append(LinearForm(parameters: [Int(a): 1]))
                case .value where info.pops == 0 && [.int, .date, .duration].contains(info.extra): stack.append(.constant(immediate()))
                default: stack.append(nil)
                }
            }
            pc = next
        }
    }
}
