import TipRuntime

/// Types rule expressions: resolves `$parameters`, events and payload fields, checks operand
/// types, and pushes `X within D` windows down onto the events they apply to.
///
/// An expression with an error gets type `.error`, which suppresses follow-on errors about it.
struct ExpressionChecker {
    /// Where names are looked up: in a rule, a bare name is an event; inside
    /// `e.where(…)`, it is a payload field of `e`.
    private enum Scope {
        case rule
        case predicate(event: Int)
    }

    /// Methods of event collections, for did-you-mean.
    private static let collectionMembers = ["count", "within", "where", "largestSubset", "smallestSubset", "distinct"]

    let symbols: SymbolTable
    let parameters: [CheckedParameter]
    let events: [PackEvent]
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var usedParameters = Set<Int>()
    private(set) var usedEvents = Set<Int>()

    init(symbols: SymbolTable, parameters: [CheckedParameter], events: [PackEvent]) {
        self.symbols = symbols
        self.parameters = parameters
        self.events = events
    }

    /// Checks one rule: it must be a Bool expression.
    mutating func checkRule(_ rule: Expression) -> CheckedExpression {
        let checked = check(rule, in: .rule)
        if checked.type != .bool, checked.type != .error {
            report(.typeMismatch, "a rule must be a Bool expression, found \(checked.type)", rule.range,
                   help: checked.type.isCollection ? "count the donations, e.g. '… .count >= 1'" : nil)
        }
        return checked
    }

    private mutating func report(_ code: DiagnosticCode, _ message: String, _ range: SourceRange, help: String? = nil) {
        diagnostics.append(Diagnostic(code, message, at: range, help: help))
    }

    private func invalid(_ range: SourceRange) -> CheckedExpression {
        CheckedExpression(.constant(.bool(false)), type: .error, range: range)
    }

    // MARK: - Dispatch

    private mutating func check(_ expression: Expression, in scope: Scope) -> CheckedExpression {
        let range = expression.range
        switch expression.kind {
        case .literal(let literal):
            return checkLiteral(literal, range)
        case .now:
            return CheckedExpression(.now, type: .date, range: range)
        case .parameter(let name):
            return checkParameter(name, range)
        case .name(let name):
            return checkName(name, range, in: scope)
        case .member(let base, let member):
            return checkMember(base, member, range, in: scope)
        case .methodCall(let base, let method, let arguments):
            return checkMethod(base, method, arguments, range, in: scope)
        case .functionCall(let function, let arguments):
            return checkFunction(function, arguments, range)
        case .unary(let op, let operand):
            return checkUnary(op, operand, range, in: scope)
        case .binary(let op, _, _) where op.isLogical:
            return checkLogicalChain(expression, in: scope)
        case .binary(let op, let left, let right):
            return checkBinary(op, left, right, range, in: scope)
        case .within(let clause, let window):
            return checkWithinClause(clause, window, range, in: scope)
        case .inList(let value, let items):
            return checkMembership(value, items, range, in: scope)
        case .error:
            return invalid(range)
        }
    }

    // MARK: - Leaves

    private mutating func checkLiteral(_ literal: Literal, _ range: SourceRange) -> CheckedExpression {
        switch literal {
        case .bool(let value): return CheckedExpression(.constant(.bool(value)), type: .bool, range: range)
        case .int(let value): return CheckedExpression(.constant(.int(value)), type: .int, range: range)
        case .double(let value): return CheckedExpression(.constant(.double(value)), type: .double, range: range)
        case .string(let value): return CheckedExpression(.constant(.string(value)), type: .string, range: range)
        case .duration(let seconds):
            guard let milliseconds = Milliseconds.from(seconds: seconds) else {
                report(.invalidDuration, "duration is too large", range)
                return invalid(range)
            }
            return CheckedExpression(.constant(.duration(milliseconds: milliseconds)), type: .duration, range: range)
        }
    }

    private mutating func checkParameter(_ name: String, _ range: SourceRange) -> CheckedExpression {
        guard let index = symbols.parameters[name] else {
            var help = Suggestions.closest(to: name, in: symbols.parameters.keys).map { "did you mean '$\($0)'?" }
            if help == nil, symbols.kind(of: name) == .event {
                help = "'\(name)' is an event: write '\(name).count' without '$'"
            }
            report(.unknownParameter, "no parameter named '\(name)'", range, help: help)
            return invalid(range)
        }
        usedParameters.insert(index)
        return CheckedExpression(.parameter(index), type: ExpressionType(parameters[index].type), range: range)
    }

    private mutating func checkName(_ name: String, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        switch scope {
        case .predicate(let event):
            let fields = events[event].fields
            guard let index = fields.firstIndex(where: { $0.name == name }) else {
                var help = Suggestions.didYouMean(name, in: fields.map(\.name))
                if help == nil, symbols.parameters[name] != nil { help = "to use the parameter, write '$\(name)'" }
                let message = fields.isEmpty
                    ? "event '\(events[event].name)' has no payload, so it has no field '\(name)'"
                    : "event '\(events[event].name)' has no field named '\(name)'"
                report(.unknownField, message, range, help: help)
                return invalid(range)
            }
            return CheckedExpression(.field(index), type: ExpressionType(fields[index].type), range: range)
        case .rule:
            guard let index = symbols.events[name] else {
                var help = Suggestions.didYouMean(name, in: symbols.events.keys)
                if help == nil, symbols.parameters[name] != nil { help = "'\(name)' is a parameter: write '$\(name)'" }
                report(.unknownEvent, "no event named '\(name)'", range, help: help)
                return invalid(range)
            }
            usedEvents.insert(index)
            return CheckedExpression(.event(index), type: .collection(event: index), range: range)
        }
    }

    // MARK: - Event queries

    private mutating func checkMember(_ base: Expression, _ member: Identifier, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let checkedBase = check(base, in: scope)
        guard case .collection = checkedBase.type else {
            if checkedBase.type != .error {
                report(.typeMismatch, "value of type \(checkedBase.type) has no member '\(member.name)'", member.range,
                       help: "'.\(member.name)' applies to events")
            }
            return invalid(range)
        }
        switch member.name {
        case "count":
            return CheckedExpression(.count(checkedBase), type: .int, range: range)
        case "within", "where", "largestSubset", "smallestSubset", "distinct":
            report(.typeMismatch, "'\(member.name)' needs an argument", member.range,
                   help: member.name == "within" ? "write '.within(3d)'" : "write '.\(member.name)(…)'")
            return invalid(range)
        default:
            report(.typeMismatch, "event collection has no member '\(member.name)'", member.range,
                   help: Suggestions.didYouMean(member.name, in: Self.collectionMembers))
            return invalid(range)
        }
    }

    private mutating func checkMethod(_ base: Expression, _ method: Identifier, _ arguments: [Expression],
                                      _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let checkedBase = check(base, in: scope)
        guard case .collection(let event) = checkedBase.type else {
            if checkedBase.type != .error {
                report(.typeMismatch, "value of type \(checkedBase.type) has no method '\(method.name)'", method.range,
                       help: "'.\(method.name)(…)' applies to events")
            }
            return invalid(range)
        }
        guard Self.collectionMembers.contains(method.name), method.name != "count" else {
            report(.typeMismatch, method.name == "count" ? "'count' is not a method" : "event collection has no method '\(method.name)'",
                   method.range, help: method.name == "count" ? "write '.count' without parentheses" : Suggestions.didYouMean(method.name, in: Self.collectionMembers))
            return invalid(range)
        }
        guard arguments.count == 1 else {
            report(.typeMismatch, "'\(method.name)' takes one argument, found \(arguments.count)", method.range)
            return invalid(range)
        }
        let argument = arguments[0]
        switch method.name {
        case "within":
            guard let window = windowMilliseconds(argument) else { return invalid(range) }
            return CheckedExpression(.within(checkedBase, windowMilliseconds: window), type: checkedBase.type, range: range)
        case "where":
            let predicate = check(argument, in: .predicate(event: event))
            if predicate.type != .bool, predicate.type != .error {
                report(.typeMismatch, "the condition of 'where' must be Bool, found \(predicate.type)", argument.range)
                return invalid(range)
            }
            if predicate.type == .error { return invalid(range) }
            return CheckedExpression(.filter(checkedBase, predicate: predicate), type: checkedBase.type, range: range)
        default:
            guard case .name(let fieldName) = argument.kind else {
                report(.typeMismatch, "'\(method.name)' takes a payload field name", argument.range,
                       help: events[event].fields.first.map { "e.g. '\(method.name)(\($0.name))'" })
                return invalid(range)
            }
            guard let field = events[event].fields.firstIndex(where: { $0.name == fieldName }) else {
                report(.unknownField, events[event].fields.isEmpty
                       ? "event '\(events[event].name)' has no payload, so it has no field '\(fieldName)'"
                       : "event '\(events[event].name)' has no field named '\(fieldName)'",
                       argument.range, help: Suggestions.didYouMean(fieldName, in: events[event].fields.map(\.name)))
                return invalid(range)
            }
            switch method.name {
            case "largestSubset":
                return CheckedExpression(.largestSubset(checkedBase, field: field), type: checkedBase.type, range: range)
            case "smallestSubset":
                return CheckedExpression(.smallestSubset(checkedBase, field: field), type: checkedBase.type, range: range)
            default:
                return CheckedExpression(.distinct(checkedBase, field: field), type: .int, range: range)
            }
        }
    }

    /// A window must be a positive duration literal.
    private mutating func windowMilliseconds(_ expression: Expression) -> Int? {
        if case .error = expression.kind { return nil }
        guard case .literal(.duration(let seconds)) = expression.kind else {
            report(.typeMismatch, "a window must be a duration literal such as 3d or 12h", expression.range)
            return nil
        }
        guard seconds > 0 else {
            report(.invalidDuration, "a window must be a positive duration", expression.range,
                   help: "a window of 0s holds no donation")
            return nil
        }
        guard let milliseconds = Milliseconds.from(seconds: seconds) else {
            report(.invalidDuration, "duration is too large", expression.range)
            return nil
        }
        return milliseconds
    }

    private mutating func checkWithinClause(_ clause: Expression, _ window: Expression, _ range: SourceRange,
                                            in scope: Scope) -> CheckedExpression {
        let checkedClause = check(clause, in: scope)
        guard let milliseconds = windowMilliseconds(window) else { return invalid(range) }
        if checkedClause.type == .error { return invalid(range) }
        var windowed = WindowPushdown.apply(milliseconds, to: checkedClause)
        if !windowed.appliedToAnyEvent {
            report(.typeMismatch, "'within' has no event to window in this clause", window.range,
                   help: "every event here already has its own '.within', or the clause uses no event")
            return invalid(range)
        }
        windowed.expression.range = range
        return windowed.expression
    }

    // MARK: - Functions

    private mutating func checkFunction(_ function: Identifier, _ arguments: [Expression], _ range: SourceRange) -> CheckedExpression {
        guard function.name == "date" else {
            report(.unknownFunction, "no function named '\(function.name)'", function.range,
                   help: Suggestions.didYouMean(function.name, in: ["date"]) ?? "the rule language has one function: date(\"2026-12-24T00:00:00Z\")")
            return invalid(range)
        }
        guard arguments.count == 1, case .literal(.string(let text)) = arguments[0].kind else {
            report(.typeMismatch, "date(…) takes one string literal", range, help: "write date(\"2026-12-24T00:00:00Z\")")
            return invalid(range)
        }
        guard let milliseconds = ISO8601.milliseconds(from: text) else {
            report(.invalidValue, "'\(text)' is not an ISO-8601 instant", arguments[0].range,
                   help: "write a UTC instant such as \"2026-12-24T00:00:00Z\"")
            return invalid(range)
        }
        return CheckedExpression(.constant(.date(milliseconds: milliseconds)), type: .date, range: range)
    }

    // MARK: - Operators

    private mutating func checkUnary(_ op: UnaryOperator, _ operand: Expression, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let checked = check(operand, in: scope)
        if checked.type == .error { return invalid(range) }
        switch op {
        case .not:
            guard checked.type == .bool else {
                report(.typeMismatch, "'not' needs a Bool operand, found \(checked.type)", operand.range)
                return invalid(range)
            }
            return CheckedExpression(.not(checked), type: .bool, range: range)
        case .negate:
            guard [.int, .double, .duration].contains(checked.type) else {
                report(.typeMismatch, "'-' needs a number or a duration, found \(checked.type)", operand.range)
                return invalid(range)
            }
            return CheckedExpression(.negate(checked), type: checked.type, range: range)
        }
    }

    /// `a and b and c …` is checked operand by operand without recursing over the chain, so
    /// long chains cost no stack.
    private mutating func checkLogicalChain(_ expression: Expression, in scope: Scope) -> CheckedExpression {
        guard case .binary(let op, _, _) = expression.kind else { return check(expression, in: scope) }
        // Collect the operands of the left-leaning chain of `op`.
        var operands: [Expression] = []
        var ranges: [SourceRange] = []
        var current = expression
        while case .binary(op, let left, let right) = current.kind {
            operands.append(right)
            ranges.append(current.range)
            current = left
        }
        operands.append(current)
        operands.reverse()
        ranges.reverse()

        var failed = false
        var checkedOperands: [CheckedExpression] = []
        checkedOperands.reserveCapacity(operands.count)
        for operand in operands {
            let checked = check(operand, in: scope)
            if checked.type == .error {
                failed = true
            } else if checked.type != .bool {
                report(.typeMismatch, "'\(op.rawValue)' needs Bool operands, found \(checked.type)", operand.range,
                       help: checked.type.isCollection ? "count the donations, e.g. '… .count >= 1'" : nil)
                failed = true
            }
            checkedOperands.append(checked)
        }
        if failed { return invalid(expression.range) }
        let logical: LogicalOperator = op == .and ? .and : .or
        var result = checkedOperands[0]
        for (index, operand) in checkedOperands.dropFirst().enumerated() {
            result = CheckedExpression(.logical(logical, result, operand), type: .bool, range: ranges[index])
        }
        return result
    }

    private mutating func checkBinary(_ op: BinaryOperator, _ left: Expression, _ right: Expression,
                                      _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let checkedLeft = check(left, in: scope)
        let checkedRight = check(right, in: scope)
        if checkedLeft.type == .error || checkedRight.type == .error { return invalid(range) }
        if op.isComparison {
            return checkComparison(op, checkedLeft, checkedRight, range)
        }
        return checkArithmetic(op, checkedLeft, checkedRight, range)
    }

    private mutating func checkComparison(_ op: BinaryOperator, _ left: CheckedExpression, _ right: CheckedExpression,
                                          _ range: SourceRange) -> CheckedExpression {
        let comparison: ComparisonOperator
        switch op {
        case .equal: comparison = .equal
        case .notEqual: comparison = .notEqual
        case .less: comparison = .less
        case .lessOrEqual: comparison = .lessOrEqual
        case .greater: comparison = .greater
        case .greaterOrEqual: comparison = .greaterOrEqual
        case .or, .and, .add, .subtract, .multiply, .divide, .remainder: preconditionFailure("not a comparison: \(op)")
        }
        let (l, r) = promoted(left, right)
        let ordered = op != .equal && op != .notEqual
        let comparable: Bool
        switch l.type {
        case .int, .double, .string, .date, .duration: comparable = l.type == r.type
        case .bool: comparable = r.type == .bool && !ordered
        default: comparable = false
        }
        guard comparable else {
            var help: String?
            if left.type.isCollection || right.type.isCollection { help = "compare the number of donations: '… .count \(op.rawValue) …'" }
            else if l.type == .bool && r.type == .bool { help = "Bools compare only with == and !=" }
            report(.typeMismatch, "cannot compare \(left.type) \(op.rawValue) \(right.type)", range, help: help)
            return invalid(range)
        }
        return CheckedExpression(.compare(comparison, l, r), type: .bool, range: range)
    }

    private mutating func checkArithmetic(_ op: BinaryOperator, _ left: CheckedExpression, _ right: CheckedExpression,
                                          _ range: SourceRange) -> CheckedExpression {
        let arithmetic: ArithmeticOperator
        switch op {
        case .add: arithmetic = .add
        case .subtract: arithmetic = .subtract
        case .multiply: arithmetic = .multiply
        case .divide: arithmetic = .divide
        case .remainder: arithmetic = .remainder
        case .or, .and, .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual:
            preconditionFailure("not an arithmetic operator: \(op)")
        }
        let (l, r) = promoted(left, right)
        let resultType: ExpressionType?
        switch (l.type, arithmetic, r.type) {
        case (.int, _, .int): resultType = .int
        case (.double, _, .double): resultType = .double
        case (.date, .add, .duration), (.duration, .add, .date), (.date, .subtract, .duration): resultType = .date
        case (.date, .subtract, .date): resultType = .duration
        case (.duration, .add, .duration), (.duration, .subtract, .duration): resultType = .duration
        default: resultType = nil
        }
        guard let resultType else {
            report(.typeMismatch, "cannot apply '\(op.rawValue)' to \(left.type) and \(right.type)", range,
                   help: left.type.isCollection || right.type.isCollection ? "use '.count' for the number of donations" : nil)
            return invalid(range)
        }
        return CheckedExpression(.arithmetic(arithmetic, l, r), type: resultType, range: range)
    }

    /// Int operands mixed with Double are promoted to Double.
    private func promoted(_ left: CheckedExpression, _ right: CheckedExpression) -> (CheckedExpression, CheckedExpression) {
        switch (left.type, right.type) {
        case (.int, .double): return (CheckedExpression(.intToDouble(left), type: .double, range: left.range), right)
        case (.double, .int): return (left, CheckedExpression(.intToDouble(right), type: .double, range: right.range))
        default: return (left, right)
        }
    }

    private mutating func checkMembership(_ value: Expression, _ items: [Expression], _ range: SourceRange,
                                          in scope: Scope) -> CheckedExpression {
        let checkedValue = check(value, in: scope)
        var constants: [ConstantValue] = []
        var failed = checkedValue.type == .error
        for item in items {
            let checkedItem = check(item, in: scope)
            guard case .constant(var constant) = checkedItem.kind, checkedItem.type != .error else {
                if checkedItem.type != .error { report(.typeMismatch, "a list after 'in' holds literals only", item.range) }
                failed = true
                continue
            }
            if checkedValue.type == .double, case .int(let int) = constant { constant = .double(Double(int)) }
            if !failed, constant.type != checkedValue.type {
                report(.typeMismatch, "list item of type \(constant.type) in a list for a \(checkedValue.type) value", item.range)
                failed = true
            }
            constants.append(constant)
        }
        if !failed, ![.int, .double, .string, .date, .duration, .bool].contains(checkedValue.type) {
            report(.typeMismatch, "'in' needs a value, found \(checkedValue.type)", value.range)
            failed = true
        }
        if failed { return invalid(range) }
        return CheckedExpression(.inList(checkedValue, constants), type: .bool, range: range)
    }
}

extension ExpressionType {
    var isCollection: Bool {
        if case .collection = self { return true }
        return false
    }
}
