import TipRuntime

/// Folds constant sub-expressions with the reference evaluator's semantics, so a folded rule
/// means exactly what it meant before. A constant that overflows or divides by zero is a
/// compile error (`invalid-value` at the expression).
///
/// Most rules have nothing to fold: the folder only reads them, and rebuilds a node only when
/// something below it was folded.
struct ConstantFolder {
    var diagnostics: [Diagnostic] = []

    /// Reports the errors of `tip`'s constant sub-expressions, folding nothing for keeps.
    mutating func reportErrors(in tip: CheckedTip) {
        guard tip.rulesMayFold else { return }
        // Rules are read in place: iterating an Array would copy (retain) each one.
        let rules = ContiguousArray(tip.rules)
        for index in rules.indices where Self.mayFold(rules[index]) { _ = folded(rules[index]) }
    }

    /// `expression` with its constant sub-expressions folded.
    mutating func fold(_ expression: CheckedExpression) -> CheckedExpression {
        guard Self.mayFold(expression) else { return expression }
        return folded(expression) ?? expression
    }

    /// Whether folding may change `expression` or report an error in it: whether some operator
    /// in it has only constant operands, or some `and`/`or` a constant left operand. Without
    /// such a node nothing below any node folds (by induction from the leaves), so `folded`
    /// returns nil and reports nothing: this read, which copies no node, stands in for it.
    private static func mayFold(_ expression: borrowing CheckedExpression) -> Bool {
        switch expression.kind {
        case .constant, .now, .parameter, .field, .event, .instanceKey, .tipState:
            return false
        case .within(let inner, _), .largestSubset(let inner, _), .smallestSubset(let inner, _), .count(let inner), .distinct(let inner, _):
            return mayFold(inner)
        case .filter(let inner, let predicate):
            return mayFold(inner) || mayFold(predicate)
        case .not(let inner), .negate(let inner), .intToDouble(let inner), .inList(let inner, _):
            return inner.isConstant || mayFold(inner)
        case .compare(_, let left, let right), .arithmetic(_, let left, let right):
            return (left.isConstant && right.isConstant) || mayFold(left) || mayFold(right)
        case .logical(_, let left, let right):
            return left.isConstant || mayFold(left) || mayFold(right)
        }
    }

    /// `expression` folded, or nil when folding changes nothing (its errors are still reported).
    private mutating func folded(_ expression: CheckedExpression) -> CheckedExpression? {
        // A node is only copied (`with`) when something in it changed.
        func with(_ kind: CheckedExpression.Kind) -> CheckedExpression {
            CheckedExpression(kind, type: expression.type, range: expression.range)
        }
        let node: CheckedExpression
        switch expression.kind {
        case .constant, .now, .parameter, .field, .event, .instanceKey, .tipState:
            return nil
        case .within(let inner, let window):
            return folded(inner).map { with(.within($0, windowMilliseconds: window)) }
        case .filter(let inner, let predicate):
            let foldedInner = folded(inner)
            let foldedPredicate = folded(predicate)
            if foldedInner == nil && foldedPredicate == nil { return nil }
            return with(.filter(foldedInner ?? inner, predicate: foldedPredicate ?? predicate))
        case .largestSubset(let inner, let field):
            return folded(inner).map { with(.largestSubset($0, field: field)) }
        case .smallestSubset(let inner, let field):
            return folded(inner).map { with(.smallestSubset($0, field: field)) }
        case .count(let inner):
            return folded(inner).map { with(.count($0)) }
        case .distinct(let inner, let field):
            return folded(inner).map { with(.distinct($0, field: field)) }
        case .not(let inner):
            guard let inner = foldedOrConstant(inner) else { return nil }
            node = with(.not(inner))
        case .negate(let inner):
            guard let inner = foldedOrConstant(inner) else { return nil }
            node = with(.negate(inner))
        case .intToDouble(let inner):
            guard let inner = foldedOrConstant(inner) else { return nil }
            node = with(.intToDouble(inner))
        case .inList(let inner, let list):
            guard let inner = foldedOrConstant(inner) else { return nil }
            node = with(.inList(inner, list))
        case .compare(let op, let left, let right):
            guard let (left, right) = foldedOrConstant(left, right) else { return nil }
            node = with(.compare(op, left, right))
        case .arithmetic(let op, let left, let right):
            guard let (left, right) = foldedOrConstant(left, right) else { return nil }
            node = with(.arithmetic(op, left, right))
        case .logical(let op, let left, let right):
            let first = folded(left)
            // Only a constant left operand decides: with a constant right operand the left one
            // must still run (it may fail at run time, which makes the rule false). A right
            // operand that is never evaluated is not folded (nor reported).
            if case .constant(.bool(let flag)) = (first ?? left).kind {
                if (op == .and && !flag) || (op == .or && flag) {
                    return with(.constant(.bool(flag)))
                }
                let second = fold(right)
                return CheckedExpression(second.kind, type: second.type, range: expression.range)
            }
            let second = folded(right)
            if first == nil && second == nil { return nil }
            return with(.logical(op, first ?? left, second ?? right))
        }
        // An operator over (folded) operands, which may all be constant.
        return evaluated(node) ?? node
    }

    /// The operand folded, when it was folded or is a constant: the two cases where its
    /// parent may change (it changes when an operand does, and folds when all are constant).
    /// Nil otherwise, the operand's errors reported.
    private mutating func foldedOrConstant(_ operand: CheckedExpression) -> CheckedExpression? {
        folded(operand) ?? (operand.isConstant ? operand : nil)
    }

    /// Both operands (folded where they fold) when the node over them may change: one of them
    /// was folded, or both are constant.
    private mutating func foldedOrConstant(_ left: CheckedExpression, _ right: CheckedExpression) -> (CheckedExpression, CheckedExpression)? {
        let foldedLeft = folded(left)
        let foldedRight = folded(right)
        if foldedLeft == nil && foldedRight == nil && !(left.isConstant && right.isConstant) { return nil }
        return (foldedLeft ?? left, foldedRight ?? right)
    }

    /// The constant `node` evaluates to, when its operands are all constant and it has a finite
    /// value; nil otherwise. A run-time failure (overflow, division by zero) is reported.
    private mutating func evaluated(_ node: CheckedExpression) -> CheckedExpression? {
        guard Self.operandsAreConstant(node) else { return nil }
        let evaluator = ReferenceEvaluator(parameters: [], donations: [], now: 0)
        do {
            guard case .value(let value) = try evaluator.evaluate(node, donation: nil) else { return nil }
            if case .double(let number) = value, !number.isFinite { return nil }
            var constant = node
            constant.kind = .constant(value)
            return constant
        } catch {
            let message: String
            switch error {
            case .integerOverflow: message = "this constant expression overflows"
            case .divisionByZero: message = "this constant expression divides by zero"
            case .nonFiniteDouble: message = "this constant expression is not a finite number"
            case .inconsistentStore: message = "this constant expression cannot be evaluated"  // reads no store: never
            }
            diagnostics.append(Diagnostic(.invalidValue, message, at: node.range,
                                          help: "a rule that fails at run time is false; fix the constant"))
            return nil
        }
    }

    private static func operandsAreConstant(_ expression: CheckedExpression) -> Bool {
        switch expression.kind {
        case .not(let inner), .negate(let inner), .intToDouble(let inner), .inList(let inner, _): return inner.isConstant
        case .compare(_, let left, let right), .arithmetic(_, let left, let right): return left.isConstant && right.isConstant
        default: return false
        }
    }
}

extension CheckedExpression {
    /// Whether the expression is a constant value.
    var isConstant: Bool {
        if case .constant = kind { return true }
        return false
    }
}
