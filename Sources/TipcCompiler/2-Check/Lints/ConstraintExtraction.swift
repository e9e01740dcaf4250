import TipRuntime

extension Lints {
    /// Turns a checked Bool expression into a `Disjunction` of atomic constraints on quantities:
    /// comparisons of a parameter or a count with a constant, Bool parameters, `in` lists, and
    /// `and`/`or`/`not` over them (`not` is pushed inward). Anything else is unconstrained.
    ///
    /// Quantities are numbered per tip (hence the mutating methods): call `startTip()` before
    /// analysing a tip's rules.
    struct ConstraintExtraction {
        let parameters: [PackParameter]
        /// Numbers the quantities of the tip being analysed.
        var quantities: QuantityInterner
        /// Each parameter's universe, built once.
        private let parameterUniverses: [ValueSet]
        /// Each parameter's type as an expression type, to recognise a parameter read as itself.
        private let parameterTypes: [ExpressionType]

        init(parameters: [PackParameter]) {
            self.parameters = parameters
            quantities = QuantityInterner(parameterCount: parameters.count)
            parameterUniverses = parameters.map(Self.universe(of:))
            parameterTypes = parameters.map { .value($0.type) }
        }

        private static func universe(of parameter: PackParameter) -> ValueSet {
            switch parameter.type {
            case .bool: return .bools([false, true])
            case .int, .date, .duration: return .integers(.all)
            case .double: return .reals(.all)
            case .string:
                return .strings(parameter.values.map { StringSet(members: Set($0), isComplement: false) } ?? .all)
            }
        }

        /// Starts numbering the quantities of another tip.
        mutating func startTip() {
            quantities.startTip()
        }

        /// The states in which `expression` evaluates to `holds` (over-approximated).
        mutating func formula(_ expression: CheckedExpression, holds: Bool) -> Disjunction {
            switch expression.kind {
            case .constant(.bool(let value)):
                return value == holds ? .unconstrained : .never
            case .logical(let op, _, _):
                let operands = logicalOperands(expression, op)
                // `a and b` holds when both hold; it fails when either fails (and dually for `or`).
                if (op == .and) == holds {
                    var result = Disjunction.unconstrained
                    for operand in operands {
                        result = result.and(formula(operand, holds: holds))
                        if result.isUnsatisfiable { break }
                    }
                    return result
                }
                var result = Disjunction.never
                for operand in operands {
                    result = result.or(formula(operand, holds: holds))
                }
                return result
            case .not(let operand):
                return formula(operand, holds: !holds)
            case .parameter:
                guard let quantity = quantity(expression), case .bools = quantity.universe else { return .unconstrained }
                return .atom(quantity, in: .bools([holds]))
            case .compare(let op, let left, let right):
                return formula(comparisonTest(op, left, right), holds: holds)
            case .inList(let value, let items):
                return formula(membershipTest(value, items), holds: holds)
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

        private mutating func formula(_ test: AtomicTest, holds: Bool) -> Disjunction {
            switch test {
            case .unknown:
                return .unconstrained
            case .constant(let value):
                return value == holds ? .unconstrained : .never
            case .boolean(let subject, let sense):
                return formula(subject, holds: sense ? holds : !holds)
            case .quantity(let quantity, let set):
                if holds { return .atom(quantity, in: set) }
                guard let complement = set.complement(in: quantity.universe) else { return .unconstrained }
                return .atom(quantity, in: complement)
            }
        }

        // MARK: - Quantities

        /// The quantity an expression denotes, if it is one the lints reason about.
        mutating func quantity(_ expression: borrowing CheckedExpression) -> Quantity? {
            switch expression.kind {
            case .parameter(let index):
                guard parameters.indices.contains(index) else { return nil }
                if expression.type == parameterTypes[index] {
                    return Quantity(id: quantities.id(ofParameter: index), universe: parameterUniverses[index])
                }
                return Quantity(id: quantities.id(of: expression), universe: parameterUniverses[index])
            case .count, .distinct:
                return Quantity(id: quantities.id(of: expression), universe: .integers(.nonNegative))
            default:
                return nil
            }
        }
    }
}
