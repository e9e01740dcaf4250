extension Lints {
    /// Turns a checked Bool expression into a `Disjunction` of atomic constraints on quantities:
    /// comparisons of a parameter or a count with a constant, Bool parameters, `in` lists, and
    /// `and`/`or`/`not` over them (`not` is pushed inward). Anything else is unconstrained.
    struct ConstraintExtraction {
        let parameters: [CheckedParameter]
        /// Where quantities get their numbers (shared by every tip of the program).
        let quantities = QuantityTable()
        /// Each parameter's universe, built once.
        private let parameterUniverses: [ValueSet]
        /// Each parameter's quantity, as `quantity(_:)` makes it for a parameter expression of
        /// the parameter's own type (the only type the checker gives one).
        private let parameterQuantities: [Quantity]

        init(parameters: [CheckedParameter]) {
            self.parameters = parameters
            let universes = parameters.map(Self.universe(of:))
            parameterUniverses = universes
            let table = quantities
            parameterQuantities = parameters.indices.map { index in
                let expression = CheckedExpression(.parameter(index), type: ExpressionType(parameters[index].type),
                                                   range: SourceRange(file: "", at: SourceLocation(line: 0, column: 0)))
                return Quantity(id: table.id(of: expression), universe: universes[index])
            }
        }

        private static func universe(of parameter: CheckedParameter) -> ValueSet {
            switch parameter.type {
            case .bool: return .bools([false, true])
            case .int, .date, .duration: return .integers(.all)
            case .double: return .reals(.all)
            case .string:
                return .strings(parameter.values.map { StringSet(members: Set($0), isComplement: false) } ?? .all)
            }
        }

        /// The states in which `expression` evaluates to `holds` (over-approximated).
        func formula(_ expression: CheckedExpression, holds: Bool) -> Disjunction {
            switch expression.kind {
            case .constant(.bool(let value)):
                return value == holds ? .unconstrained : .never
            case .logical(let op, _, _):
                let operands = logicalOperands(expression, op)
                let formulas = operands.lazy.map { formula($0, holds: holds) }
                // `a and b` holds when both hold; it fails when either fails (and dually for `or`).
                if (op == .and) == holds {
                    var result = Disjunction.unconstrained
                    for operand in formulas {
                        result = result.and(operand)
                        if result.isUnsatisfiable { break }
                    }
                    return result
                }
                return formulas.reduce(Disjunction.never) { $0.or($1) }
            case .not(let operand):
                return formula(operand, holds: !holds)
            case .parameter:
                guard let quantity = quantity(expression), case .bools = quantity.universe else { return .unconstrained }
                return .atom(quantity, in: .bools([holds]))
            case .compare(let op, let left, let right):
                return comparison(op, left, right, holds: holds)
            case .inList(let value, let items):
                return membership(value, items, holds: holds)
            default:
                return .unconstrained
            }
        }

        /// The operands of a chain of one logical operator, left to right, collected without
        /// recursing along the chain (the checker builds long chains left-leaning).
        private func logicalOperands(_ expression: CheckedExpression, _ op: LogicalOperator) -> [CheckedExpression] {
            var operands: [CheckedExpression] = []
            var pending = [expression]
            while let next = pending.popLast() {
                if case .logical(op, let left, let right) = next.kind {
                    pending.append(right)
                    pending.append(left)
                } else {
                    operands.append(next)
                }
            }
            return operands
        }

        // MARK: - Atoms

        private func comparison(_ op: ComparisonOperator, _ left: CheckedExpression, _ right: CheckedExpression,
                                holds: Bool) -> Disjunction {
            if let a = constant(left), let b = constant(right) {
                guard let result = Self.evaluate(op, a, b) else { return .unconstrained }
                return result == holds ? .unconstrained : .never
            }
            var op = op, subject = left, other = right
            if constant(left) != nil {
                (subject, other) = (right, left)
                op = op.mirrored
            }
            guard let value = constant(other) else { return .unconstrained }

            // `X == true`, `X != false`, … are `X` or `not X`.
            if subject.type == .bool, case .bool(let flag) = value {
                guard op == .equal || op == .notEqual else { return .unconstrained }
                return formula(subject, holds: (op == .equal) == flag ? holds : !holds)
            }
            guard let (quantity, promoted) = comparedQuantity(subject),
                  let set = values(of: quantity, promoted: promoted, op, value) else { return .unconstrained }
            return atom(quantity, set, holds: holds)
        }

        private func membership(_ subject: CheckedExpression, _ items: [ConstantValue], holds: Bool) -> Disjunction {
            if subject.type == .bool, comparedQuantity(subject) == nil {
                var flags: Set<Bool> = []
                for item in items {
                    guard case .bool(let flag) = item else { return .unconstrained }
                    flags.insert(flag)
                }
                switch (flags.contains(true), flags.contains(false)) {
                case (true, true): return holds ? .unconstrained : .never
                case (false, false): return holds ? .never : .unconstrained
                case (true, false): return formula(subject, holds: holds)
                case (false, true): return formula(subject, holds: !holds)
                }
            }
            guard let (quantity, promoted) = comparedQuantity(subject) else { return .unconstrained }
            var members = quantity.universe.emptyOfSameKind
            for item in items {
                guard let set = values(of: quantity, promoted: promoted, .equal, item), let union = members.union(set) else {
                    return .unconstrained
                }
                members = union
            }
            return atom(quantity, members, holds: holds)
        }

        private func atom(_ quantity: Quantity, _ set: ValueSet, holds: Bool) -> Disjunction {
            if holds { return .atom(quantity, in: set) }
            guard let complement = set.complement(in: quantity.universe) else { return .unconstrained }
            return .atom(quantity, in: complement)
        }

        /// The quantity a compared expression stands for; `promoted` when it is an Int quantity
        /// converted to Double for the comparison.
        private func comparedQuantity(_ subject: CheckedExpression) -> (quantity: Quantity, promoted: Bool)? {
            if case .intToDouble(let inner) = subject.kind {
                guard let quantity = quantity(inner), case .integers = quantity.universe else { return nil }
                return (quantity, true)
            }
            return quantity(subject).map { ($0, false) }
        }

        /// The values of `quantity` for which `quantity op value` holds; nil when not analysed.
        private func values(of quantity: Quantity, promoted: Bool, _ op: ComparisonOperator, _ value: ConstantValue) -> ValueSet? {
            if promoted {
                guard case .double(let number) = value else { return nil }
                return IntegerSet.comparing(op, number).map { .integers($0) }
            }
            switch (quantity.universe, value) {
            case (.integers, .int(let number)), (.integers, .date(let number)), (.integers, .duration(let number)):
                return .integers(IntegerSet.comparing(op, number))
            case (.reals, .double(let number)):
                return .reals(RealSet.comparing(op, number))
            case (.bools, .bool(let flag)):
                guard op == .equal || op == .notEqual else { return nil }
                return .bools([op == .equal ? flag : !flag])
            case (.strings, .string(let text)):
                // Ordered comparisons of strings are not analysed.
                guard op == .equal || op == .notEqual else { return nil }
                let set = StringSet(members: [text], isComplement: false)
                return .strings(op == .equal ? set : set.complement())
            default:
                return nil
            }
        }

        // MARK: - Quantities and constants

        /// The quantity an expression denotes, if it is one the lints reason about.
        func quantity(_ expression: CheckedExpression) -> Quantity? {
            let universe: ValueSet
            switch expression.kind {
            case .parameter(let index):
                guard parameters.indices.contains(index) else { return nil }
                if expression.type == ExpressionType(parameters[index].type) { return parameterQuantities[index] }
                universe = parameterUniverses[index]
            case .count, .distinct:
                universe = .integers(.nonNegative)
            default:
                return nil
            }
            return Quantity(id: quantities.id(of: expression), universe: universe)
        }

        /// The value of a constant expression (a literal, possibly negated or promoted).
        private func constant(_ expression: CheckedExpression) -> ConstantValue? {
            switch expression.kind {
            case .constant(let value):
                return value
            case .negate(let operand):
                switch constant(operand) {
                case .int(let number)? where number != Int.min: return .int(-number)
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
        private static func evaluate(_ op: ComparisonOperator, _ a: ConstantValue, _ b: ConstantValue) -> Bool? {
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
}

private extension ComparisonOperator {
    /// The operator with its operands swapped: `3 < x` is `x > 3`.
    var mirrored: ComparisonOperator {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        }
    }

    func compare<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch self {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }
}
