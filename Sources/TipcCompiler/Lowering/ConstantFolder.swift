import TipRuntime

/// Folds constant sub-expressions with the reference evaluator's semantics, so a folded rule
/// means exactly what it meant before. A constant that overflows or divides by zero is a
/// compile error (`invalid-value` at the expression).
struct ConstantFolder {
    var diagnostics: [Diagnostic] = []

    mutating func fold(_ expression: CheckedExpression) -> CheckedExpression {
        var result = expression
        switch expression.kind {
        case .constant, .now, .parameter, .field, .event:
            return expression
        case .within(let inner, let window):
            result.kind = .within(fold(inner), windowMilliseconds: window)
            return result
        case .filter(let inner, let predicate):
            result.kind = .filter(fold(inner), predicate: fold(predicate))
            return result
        case .largestSubset(let inner, let field):
            result.kind = .largestSubset(fold(inner), field: field)
            return result
        case .smallestSubset(let inner, let field):
            result.kind = .smallestSubset(fold(inner), field: field)
            return result
        case .count(let inner):
            result.kind = .count(fold(inner))
            return result
        case .distinct(let inner, let field):
            result.kind = .distinct(fold(inner), field: field)
            return result
        case .not(let inner):
            result.kind = .not(fold(inner))
        case .negate(let inner):
            result.kind = .negate(fold(inner))
        case .intToDouble(let inner):
            result.kind = .intToDouble(fold(inner))
        case .inList(let inner, let list):
            result.kind = .inList(fold(inner), list)
        case .compare(let op, let left, let right):
            result.kind = .compare(op, fold(left), fold(right))
        case .arithmetic(let op, let left, let right):
            result.kind = .arithmetic(op, fold(left), fold(right))
        case .logical(let op, let left, let right):
            let first = fold(left)
            // Only a constant left operand decides: with a constant right operand the left one
            // must still run (it may fail at run time, which makes the rule false). A right
            // operand that is never evaluated is not folded (nor reported).
            if case .constant(.bool(let flag)) = first.kind {
                if (op == .and && !flag) || (op == .or && flag) {
                    result.kind = .constant(.bool(flag))
                    return result
                }
                let second = fold(right)
                return CheckedExpression(second.kind, type: second.type, range: expression.range)
            }
            result.kind = .logical(op, first, fold(right))
            return result
        }
        guard Self.childrenAreConstant(result) else { return result }
        let evaluator = ReferenceEvaluator(parameters: [], donations: [], now: 0)
        do {
            guard case .value(let value) = try evaluator.evaluate(result, donation: nil) else { return result }
            if case .double(let number) = value, !number.isFinite { return result }
            result.kind = .constant(ReferenceEvaluator.constantValue(value))
        } catch {
            let message: String
            switch error {
            case .integerOverflow: message = "this constant expression overflows"
            case .divisionByZero: message = "this constant expression divides by zero"
            case .nonFiniteDouble: message = "this constant expression is not a finite number"
            }
            diagnostics.append(Diagnostic(.invalidValue, message, at: expression.range,
                                          help: "a rule that fails at run time is false; fix the constant"))
        }
        return result
    }

    private static func childrenAreConstant(_ expression: CheckedExpression) -> Bool {
        func constant(_ child: CheckedExpression) -> Bool {
            if case .constant = child.kind { return true }
            return false
        }
        switch expression.kind {
        case .not(let inner), .negate(let inner), .intToDouble(let inner), .inList(let inner, _): return constant(inner)
        case .compare(_, let left, let right), .arithmetic(_, let left, let right): return constant(left) && constant(right)
        default: return false
        }
    }
}
