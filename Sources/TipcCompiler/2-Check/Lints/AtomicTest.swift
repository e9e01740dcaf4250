import TipRuntime

extension Lints {
    /// What one comparison or `in` test says about the state, read once and then turned into a
    /// formula (`ConstraintExtraction.formula`) or into outcomes (`ConstraintExtraction.outcomes`).
    enum AtomicTest {
        /// Not analysed: may hold and may fail.
        case unknown
        /// The same in every state.
        case constant(Bool)
        /// Holds exactly when the Bool expression evaluates to `sense` (`X == true`, `X in [false]`).
        case boolean(CheckedExpression, sense: Bool)
        /// Holds exactly when the quantity's value lies in the set.
        case quantity(Quantity, ValueSet)
    }
}

extension Lints.ConstraintExtraction {
    /// `left op right`.
    mutating func comparisonTest(_ op: ComparisonOperator, _ left: borrowing CheckedExpression, _ right: borrowing CheckedExpression) -> Lints.AtomicTest {
        let leftConstant = constant(left), rightConstant = constant(right)
        if let a = leftConstant, let b = rightConstant {
            return Self.evaluate(op, a, b).map { .constant($0) } ?? .unknown
        }
        if let a = leftConstant { return comparisonTest(right, op.mirrored, a) }
        guard let b = rightConstant else { return .unknown }
        return comparisonTest(left, op, b)
    }

    /// `subject op value`.
    private mutating func comparisonTest(_ subject: borrowing CheckedExpression, _ op: ComparisonOperator, _ value: RuntimeValue) -> Lints.AtomicTest {
        // `X == true`, `X != false`, … are `X` or `not X`.
        if subject.type == .value(.bool), case .bool(let flag) = value {
            guard op == .equal || op == .notEqual else { return .unknown }
            return .boolean(copy subject, sense: (op == .equal) == flag)
        }
        guard let (quantity, promoted) = comparedQuantity(subject),
              let set = values(of: quantity, promoted: promoted, op, value) else { return .unknown }
        return .quantity(quantity, set)
    }

    /// `subject in [items]`.
    mutating func membershipTest(_ subject: borrowing CheckedExpression, _ items: [RuntimeValue]) -> Lints.AtomicTest {
        if subject.type == .value(.bool), comparedQuantity(subject) == nil {
            var listsTrue = false, listsFalse = false
            for item in items {
                guard case .bool(let flag) = item else { return .unknown }
                if flag { listsTrue = true } else { listsFalse = true }
            }
            switch (listsTrue, listsFalse) {
            case (true, true): return .constant(true)
            case (false, false): return .constant(false)
            case (true, false): return .boolean(copy subject, sense: true)
            case (false, true): return .boolean(copy subject, sense: false)
            }
        }
        guard let (quantity, promoted) = comparedQuantity(subject) else { return .unknown }
        if case .strings = quantity.universe {
            // The union of the items one by one, built at once.
            var texts = Set<String>(minimumCapacity: items.count)
            for item in items {
                guard case .string(let text) = item else { return .unknown }
                texts.insert(text)
            }
            return .quantity(quantity, .strings(Lints.StringSet(members: texts, isComplement: false)))
        }
        var members = quantity.universe.emptyOfSameKind
        for item in items {
            guard let set = values(of: quantity, promoted: promoted, .equal, item), let union = members.union(set) else {
                return .unknown
            }
            members = union
        }
        return .quantity(quantity, members)
    }

    /// The quantity a compared expression stands for; `promoted` when it is an Int quantity
    /// converted to Double for the comparison.
    private mutating func comparedQuantity(_ subject: borrowing CheckedExpression) -> (quantity: Lints.Quantity, promoted: Bool)? {
        if case .intToDouble(let inner) = subject.kind {
            guard let quantity = quantity(inner), case .integers = quantity.universe else { return nil }
            return (quantity, true)
        }
        return quantity(subject).map { ($0, false) }
    }

    /// The values of `quantity` for which `quantity op value` holds; nil when not analysed.
    private func values(of quantity: Lints.Quantity, promoted: Bool, _ op: ComparisonOperator, _ value: RuntimeValue) -> Lints.ValueSet? {
        if promoted {
            guard case .double(let number) = value else { return nil }
            return Lints.IntegerSet.comparing(op, number).map { .integers($0) }
        }
        switch (quantity.universe, value) {
        case (.integers, .int(let number)), (.integers, .date(let number)), (.integers, .duration(let number)):
            return .integers(Lints.IntegerSet.comparing(op, Int(number)))
        case (.reals, .double(let number)):
            return .reals(Lints.RealSet.comparing(op, number))
        case (.bools, .bool(let flag)):
            guard op == .equal || op == .notEqual else { return nil }
            return .bools([op == .equal ? flag : !flag])
        case (.strings, .string(let text)):
            // Ordered comparisons of strings are not analysed.
            guard op == .equal || op == .notEqual else { return nil }
            let set = Lints.StringSet(members: [text], isComplement: false)
            return .strings(op == .equal ? set : set.complement())
        default:
            return nil
        }
    }

    /// The value of a constant expression (a literal, possibly negated or promoted).
    private func constant(_ expression: borrowing CheckedExpression) -> RuntimeValue? {
        switch expression.kind {
        case .constant(let value):
            return value
        case .negate(let operand):
            switch constant(operand) {
            case .int(let number)? where number != .min: return .int(-number)
            case .double(let number)?: return .double(-number)
            case .duration(let number)? where number != Int.min: return .duration(milliseconds: -number)
            default: return nil
            }
        case .intToDouble(let operand):
            guard case .int(let number)? = constant(operand) else { return nil }
            return .double(Double(number))
        default:
            return nil
        }
    }

    /// `a op b` for two constants of the same kind; nil when not analysed.
    private static func evaluate(_ op: ComparisonOperator, _ a: RuntimeValue, _ b: RuntimeValue) -> Bool? {
        switch (a, b) {
        case (.int(let x), .int(let y)), (.date(let x), .date(let y)), (.duration(let x), .duration(let y)):
            return op.compare(x, y)
        case (.double(let x), .double(let y)):
            return op.compare(x, y)
        case (.bool(let x), .bool(let y)) where op == .equal || op == .notEqual:
            return (x == y) == (op == .equal)
        case (.string(let x), .string(let y)) where op == .equal || op == .notEqual:
            return (x == y) == (op == .equal)
        default:
            return nil
        }
    }
}

private extension ComparisonOperator {
    /// The operator with its operands swapped: `3 < x` is `x > 3` (the bytecode's
    /// `ComparisonCode.mirrored`, whose symbols are these operators' raw values).
    var mirrored: ComparisonOperator {
        guard let mirrored = ComparisonOperator(rawValue: code.mirrored.symbol) else { preconditionFailure("no operator \(code.mirrored.symbol)") }
        return mirrored
    }
}
