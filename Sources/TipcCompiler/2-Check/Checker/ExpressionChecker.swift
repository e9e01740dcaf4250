import TipRuntime

/// Types rule expressions: resolves `$parameters`, events and payload fields, checks operand
/// types, and pushes `X within D` windows down onto the events they apply to.
///
/// An expression with an error gets type `.error`, which suppresses follow-on errors about it;
/// an error anywhere in an expression makes the whole expression an error.
///
/// Each node is built once: a `within` clause's window goes onto its event queries as they are
/// built (see `clauseWindow`), not by rewriting the checked clause afterwards.
struct ExpressionChecker {
    /// Where names are looked up: in a rule, a bare name is an event; inside
    /// `e.where(…)`, it is a payload field of `e`.
    enum Scope {
        case rule
        case predicate(event: Int)
    }

    /// Methods of event collections, for did-you-mean.
    private static let collectionMembers = EditorVocabulary.collectionMembers

    let symbols: SymbolTable
    let parameters: [PackParameter]
    /// The program's events, then the two collections of tips' records (`tip(X).displays`,
    /// `tip(X).invalidations`), which take the same operators: see `TipRecordCollections`.
    let events: [PackEvent]
    /// Per tip of the program, its key (format 2).
    let tipKeys: [PackTipKey?]
    /// The key of the tip whose rules are being checked: what `key` means in them.
    var currentKey: PackTipKey?
    private(set) var diagnostics: [Diagnostic] = []
    /// Whether some rule uses the parameter, by parameter index.
    private(set) var usedParameters: [Bool]
    /// Whether some rule uses the event, by event index.
    private(set) var usedEvents: [Bool]

    /// Records that something besides a rule (a tip's goal) reads event `index`, so that it is
    /// not reported as unused.
    mutating func noteUse(ofEvent index: Int) {
        usedEvents[index] = true
    }

    /// The window of the innermost `X within D` clause being checked (nil outside any, or when
    /// its window is invalid). Every event query the clause consumes — the base of `.count` or
    /// `.distinct(f)`, or the clause itself when it is a query — gets it as it is built
    /// (`WindowPushdown`). In an expression without errors, these are the only places an
    /// event query can be: anything else done to a query is a type error.
    private var clauseWindow: Int?
    /// Whether the innermost clause's window went onto some event query.
    private var clauseWindowApplied = false
    /// Whether some node built since the last `startTip()` may fold (`ConstantFolder`): an
    /// operator whose operands are all constants, or `and`/`or` with a constant left operand.
    /// Such nodes are built only here, so a tip without one has nothing to fold.
    private(set) var builtFoldableNode = false

    init(symbols: SymbolTable, parameters: [PackParameter], events: [PackEvent], tipKeys: [PackTipKey?] = []) {
        self.symbols = symbols
        self.parameters = parameters
        self.events = events + TipRecordCollections.schemas
        self.tipKeys = tipKeys
        usedParameters = Array(repeating: false, count: parameters.count)
        usedEvents = Array(repeating: false, count: events.count)
    }

    /// Starts the rules of another tip: `builtFoldableNode` is cleared.
    mutating func startTip() {
        builtFoldableNode = false
    }

    /// Notes a node built that may fold when `foldable` (see `builtFoldableNode`).
    private mutating func note(foldable: Bool) {
        if foldable { builtFoldableNode = true }
    }

    /// Checks one rule: it must be a Bool expression.
    mutating func checkRule(_ rule: Expression) -> CheckedExpression {
        let checked = check(rule, in: .rule)
        if checked.type != .value(.bool), checked.type != .error {
            report(.typeMismatch, "a rule must be a Bool expression, found \(checked.type)", rule.range,
                   help: checked.type.isCollection ? "count the donations, e.g. '… .count >= 1'" : nil)
        }
        return checked
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, _ range: SourceRange, help: String? = nil) {
        diagnostics.append(Diagnostic(code, message, at: range, help: help))
    }

    func invalid(_ range: SourceRange) -> CheckedExpression {
        CheckedExpression(.constant(.bool(false)), type: .error, range: range)
    }

    // MARK: - Dispatch

    mutating func check(_ expression: Expression, in scope: Scope) -> CheckedExpression {
        let range = expression.range
        switch expression.kind {
        case .literal(let literal):
            return checkLiteral(literal, range)
        case .now:
            return CheckedExpression(.now, type: .value(.date), range: range)
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
        case .binary(let op, let left, let right) where op.isLogical:
            return checkLogicalChain(op, left, right, range, in: scope)
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
        case .bool(let value): return CheckedExpression(.constant(.bool(value)), type: .value(.bool), range: range)
        case .int(let value): return CheckedExpression(.constant(.int(Int64(value))), type: .value(.int), range: range)
        case .double(let value): return CheckedExpression(.constant(.double(value)), type: .value(.double), range: range)
        case .string(let value): return CheckedExpression(.constant(.string(value)), type: .value(.string), range: range)
        case .duration(let seconds):
            guard let milliseconds = Milliseconds.from(seconds: seconds) else {
                report(.invalidDuration, "duration is too large", range)
                return invalid(range)
            }
            return CheckedExpression(.constant(.duration(milliseconds: Int64(milliseconds))), type: .value(.duration), range: range)
        }
    }

    private mutating func checkParameter(_ name: String, _ range: SourceRange) -> CheckedExpression {
        guard let index = symbols.parameter(name) else {
            var help = Suggestions.closest(to: name, in: symbols.parameterNames).map { "did you mean '$\(NameSyntax.spelling(ofMember: $0))'?" }
            if help == nil, symbols.kind(of: name) == .event {
                help = "'\(name)' is an event: write '\(NameSyntax.spelling(ofName: name)).count' without '$'"
            }
            report(.unknownParameter, "no parameter named '\(name)'", range, help: help)
            return invalid(range)
        }
        usedParameters[index] = true
        return CheckedExpression(.parameter(index), type: .value(parameters[index].type), range: range)
    }

    private mutating func checkName(_ name: String, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        switch scope {
        case .predicate(let event):
            let fields = events[event].fields
            guard let index = fields.firstIndex(where: { $0.name == name }) else {
                // A payload field named `key` wins over the instance's key.
                if name == "key", let key = currentKey { return CheckedExpression(.instanceKey, type: .value(key.type), range: range) }
                var help = Suggestions.didYouMean(name, in: fields.map(\.name))
                if help == nil, symbols.parameter(name) != nil { help = "to use the parameter, write '$\(NameSyntax.spelling(ofMember: name))'" }
                let message = fields.isEmpty
                    ? "event '\(events[event].name)' has no payload, so it has no field '\(name)'"
                    : "event '\(events[event].name)' has no field named '\(name)'"
                report(.unknownField, message, range, help: help)
                return invalid(range)
            }
            return CheckedExpression(.field(index), type: .value(fields[index].type), range: range)
        case .rule:
            if name == "key", let key = currentKey { return CheckedExpression(.instanceKey, type: .value(key.type), range: range) }
            guard let index = symbols.event(name) else {
                var help = Suggestions.closest(to: name, in: symbols.eventNames).map { "did you mean '\(NameSyntax.spelling(ofName: $0))'?" }
                if help == nil, symbols.parameter(name) != nil { help = "'\(name)' is a parameter: write '$\(NameSyntax.spelling(ofMember: name))'" }
                if help == nil, name == "key" { help = "'key' is the instance's key only in the rules of a tip that declares one" }
                report(.unknownEvent, "no event named '\(name)'", range, help: help)
                return invalid(range)
            }
            usedEvents[index] = true
            return CheckedExpression(.event(index), type: .collection(event: index), range: range)
        }
    }

    // MARK: - Event queries

    private mutating func checkMember(_ base: Expression, _ member: Identifier, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        if case .functionCall(let function, let arguments) = base.kind, function.name == "tip" {
            return checkTipState(function, arguments, member, base.range, range, in: scope)
        }
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
            return CheckedExpression(.count(windowed(checkedBase)), type: .value(.int), range: range)
        case "within", "where", "largestSubset", "smallestSubset", "distinct":
            report(.typeMismatch, "'\(member.name)' needs an argument", member.range,
                   help: member.name == "within" ? "write '.within(3d)'" : "write '.\(member.name)(…)'")
            return invalid(range)
        default:
            report(.typeMismatch, "event collection has no member '\(member.name)'", member.range,
                   help: Suggestions.closestOrExpanded(to: member.name, in: Self.collectionMembers).map { "did you mean '\($0)'?" }
                       ?? "members are \(Self.collectionMembers.joined(separator: ", "))")
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
            // A predicate tests payload fields: no event query in it takes the clause's window.
            let outerWindow = clauseWindow
            clauseWindow = nil
            let predicate = check(argument, in: .predicate(event: event))
            clauseWindow = outerWindow
            if predicate.type != .value(.bool), predicate.type != .error {
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
                return CheckedExpression(.distinct(windowed(checkedBase), field: field), type: .value(.int), range: range)
            }
        }
    }

    /// A window argument: a positive duration literal, in milliseconds, or what is wrong with it.
    private enum Window {
        case milliseconds(Int)
        case invalid(DiagnosticCode, String, help: String?)
        /// Text that did not parse, already reported.
        case unparsed
    }

    /// A window must be a positive duration literal.
    private static func window(_ expression: Expression) -> Window {
        if case .error = expression.kind { return .unparsed }
        guard case .literal(.duration(let seconds)) = expression.kind else {
            return .invalid(.typeMismatch, "a window must be a duration literal such as 3d or 12h", help: nil)
        }
        guard seconds > 0 else {
            return .invalid(.invalidDuration, "a window must be a positive duration", help: "a window of 0s holds no donation")
        }
        guard let milliseconds = Milliseconds.from(seconds: seconds) else {
            return .invalid(.invalidDuration, "duration is too large", help: nil)
        }
        return .milliseconds(milliseconds)
    }

    /// The window written at `expression` in milliseconds, or nil after reporting why it is not one.
    private mutating func windowMilliseconds(_ expression: Expression) -> Int? {
        report(Self.window(expression), at: expression.range)
    }

    private mutating func report(_ window: Window, at range: SourceRange) -> Int? {
        switch window {
        case .milliseconds(let milliseconds):
            return milliseconds
        case .invalid(let code, let message, let help):
            report(code, message, range, help: help)
            return nil
        case .unparsed:
            return nil
        }
    }

    /// An event query consumed inside a `within` clause, with the clause's window at its base
    /// unless the query has its own `.within`.
    private mutating func windowed(_ collection: consuming CheckedExpression) -> CheckedExpression {
        guard let window = clauseWindow else { return collection }
        return WindowPushdown.apply(window, to: collection, applied: &clauseWindowApplied)
    }

    private mutating func checkWithinClause(_ clause: Expression, _ windowExpression: Expression, _ range: SourceRange,
                                            in scope: Scope) -> CheckedExpression {
        // The clause is checked with its window in force (an invalid window is reported after
        // the clause, in reading order, and makes the clause an error).
        let window = Self.window(windowExpression)
        let outer = (window: clauseWindow, applied: clauseWindowApplied)
        if case .milliseconds(let milliseconds) = window { clauseWindow = milliseconds } else { clauseWindow = nil }
        clauseWindowApplied = false
        var checkedClause = check(clause, in: scope)
        if checkedClause.type.isCollection { checkedClause = windowed(checkedClause) }
        let applied = clauseWindowApplied
        (clauseWindow, clauseWindowApplied) = outer

        guard report(window, at: windowExpression.range) != nil else { return invalid(range) }
        if checkedClause.type == .error { return invalid(range) }
        if !applied {
            report(.typeMismatch, "'within' has no event to window in this clause", windowExpression.range,
                   help: "every event here already has its own '.within', or the clause uses no event")
            return invalid(range)
        }
        checkedClause.range = range
        return checkedClause
    }

    // MARK: - Functions

    private mutating func checkFunction(_ function: Identifier, _ arguments: [Expression], _ range: SourceRange) -> CheckedExpression {
        if function.name == "tip" {
            report(.typeMismatch, "'tip(…)' is not a value by itself", range,
                   help: "read a member: '.invalidated', '.displays' or '.invalidations'")
            return invalid(range)
        }
        guard function.name == "date" else {
            report(.unknownFunction, "no function named '\(function.name)'", function.range,
                   help: Suggestions.didYouMean(function.name, in: ["date", "tip"]) ?? "the rule language has two functions: date(\"2026-12-24T00:00:00Z\") and tip(name)")
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
        return CheckedExpression(.constant(.date(milliseconds: Int64(milliseconds))), type: .value(.date), range: range)
    }

    // MARK: - Operators

    private mutating func checkUnary(_ op: UnaryOperator, _ operand: Expression, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let checked = check(operand, in: scope)
        if checked.type == .error { return invalid(range) }
        switch op {
        case .not:
            guard checked.type == .value(.bool) else {
                report(.typeMismatch, "'not' needs a Bool operand, found \(checked.type)", operand.range)
                return invalid(range)
            }
            note(foldable: checked.isConstant)
            return CheckedExpression(.not(checked), type: .value(.bool), range: range)
        case .negate:
            guard checked.type == .value(.int) || checked.type == .value(.double) || checked.type == .value(.duration) else {
                report(.typeMismatch, "'-' needs a number or a duration, found \(checked.type)", operand.range)
                return invalid(range)
            }
            note(foldable: checked.isConstant)
            return CheckedExpression(.negate(checked), type: checked.type, range: range)
        }
    }

    /// `a and b and c …` is checked operand by operand without recursing over the chain, so
    /// long chains cost no stack. The chain `((a op b) op c) op d` is the node of `d` with the
    /// nodes of `c` and `b` nested on its left.
    private mutating func checkLogicalChain(_ op: BinaryOperator, _ left: Expression, _ right: Expression,
                                            _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let logical: LogicalOperator = op == .and ? .and : .or
        // `a op b`, the usual case, reads its operands in place.
        guard case .binary(op, _, _) = left.kind else {
            // Every operand is checked (and its errors reported) even after one failed.
            let checkedLeft = checkLogicalOperand(left, op, in: scope)
            let checkedRight = checkLogicalOperand(right, op, in: scope)
            guard let checkedLeft, let checkedRight else { return invalid(range) }
            note(foldable: checkedLeft.isConstant)
            return CheckedExpression(.logical(logical, checkedLeft, checkedRight), type: .value(.bool), range: range)
        }
        // The inner nodes, outermost first.
        var innerNodes: [Expression] = []
        var first = left
        while case .binary(op, let innerLeft, _) = first.kind {
            innerNodes.append(first)
            first = innerLeft
        }
        var result = checkLogicalOperand(first, op, in: scope)
        for node in innerNodes.reversed() {
            guard case .binary(_, _, let operand) = node.kind else { continue }
            let checked = checkLogicalOperand(operand, op, in: scope)
            if let joined = result, let checked {
                note(foldable: joined.isConstant)
                result = CheckedExpression(.logical(logical, joined, checked), type: .value(.bool), range: node.range)
            } else {
                result = nil
            }
        }
        let checkedRight = checkLogicalOperand(right, op, in: scope)
        guard let joined = result, let checkedRight else { return invalid(range) }
        note(foldable: joined.isConstant)
        return CheckedExpression(.logical(logical, joined, checkedRight), type: .value(.bool), range: range)
    }

    /// An operand of `and`/`or`, or nil when it is not a Bool (reported) or has an error.
    private mutating func checkLogicalOperand(_ operand: Expression, _ op: BinaryOperator, in scope: Scope) -> CheckedExpression? {
        let checked = check(operand, in: scope)
        if checked.type == .error { return nil }
        guard checked.type == .value(.bool) else {
            report(.typeMismatch, "'\(op.rawValue)' needs Bool operands, found \(checked.type)", operand.range,
                   help: checked.type.isCollection ? "count the donations, e.g. '… .count >= 1'" : nil)
            return nil
        }
        return checked
    }

    private mutating func checkBinary(_ op: BinaryOperator, _ left: Expression, _ right: Expression,
                                      _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let checkedLeft = check(left, in: scope)
        let checkedRight = check(right, in: scope)
        if checkedLeft.type == .error || checkedRight.type == .error { return invalid(range) }
        if op.isComparison {
            if isInvalidationReason(checkedLeft, in: scope), !checkReason(checkedRight) { return invalid(range) }
            if isInvalidationReason(checkedRight, in: scope), !checkReason(checkedLeft) { return invalid(range) }
            return checkComparison(op, checkedLeft, checkedRight, range)
        }
        return checkArithmetic(op, checkedLeft, checkedRight, range)
    }

    private mutating func checkComparison(_ op: BinaryOperator, _ left: consuming CheckedExpression, _ right: consuming CheckedExpression,
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
        let (leftType, rightType) = (left.type, right.type)
        let (l, r) = promoted(left, right)
        let ordered = op != .equal && op != .notEqual
        let comparable: Bool
        switch l.type {
        case .value(.bool): comparable = r.type == .value(.bool) && !ordered
        case .value: comparable = l.type == r.type
        case .collection, .error: comparable = false
        }
        guard comparable else {
            var help: String?
            if leftType.isCollection || rightType.isCollection { help = "compare the number of donations: '… .count \(op.rawValue) …'" }
            else if l.type == .value(.bool) && r.type == .value(.bool) { help = "Bools compare only with == and !=" }
            report(.typeMismatch, "cannot compare \(leftType) \(op.rawValue) \(rightType)", range, help: help)
            return invalid(range)
        }
        note(foldable: l.isConstant && r.isConstant)
        return CheckedExpression(.compare(comparison, l, r), type: .value(.bool), range: range)
    }

    private mutating func checkArithmetic(_ op: BinaryOperator, _ left: consuming CheckedExpression, _ right: consuming CheckedExpression,
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
        let (leftType, rightType) = (left.type, right.type)
        let (l, r) = promoted(left, right)
        let resultType: ExpressionType?
        switch (l.type, arithmetic, r.type) {
        case (.value(.int), _, .value(.int)): resultType = .value(.int)
        case (.value(.double), _, .value(.double)): resultType = .value(.double)
        case (.value(.date), .add, .value(.duration)), (.value(.duration), .add, .value(.date)),
             (.value(.date), .subtract, .value(.duration)): resultType = .value(.date)
        case (.value(.date), .subtract, .value(.date)): resultType = .value(.duration)
        case (.value(.duration), .add, .value(.duration)), (.value(.duration), .subtract, .value(.duration)): resultType = .value(.duration)
        default: resultType = nil
        }
        guard let resultType else {
            report(.typeMismatch, "cannot apply '\(op.rawValue)' to \(leftType) and \(rightType)", range,
                   help: leftType.isCollection || rightType.isCollection ? "use '.count' for the number of donations" : nil)
            return invalid(range)
        }
        note(foldable: l.isConstant && r.isConstant)
        return CheckedExpression(.arithmetic(arithmetic, l, r), type: resultType, range: range)
    }

    /// Int operands mixed with Double are promoted to Double.
    private mutating func promoted(_ left: consuming CheckedExpression, _ right: consuming CheckedExpression) -> (CheckedExpression, CheckedExpression) {
        switch (left.type, right.type) {
        case (.value(.int), .value(.double)):
            let range = left.range
            note(foldable: left.isConstant)
            return (CheckedExpression(.intToDouble(left), type: .value(.double), range: range), right)
        case (.value(.double), .value(.int)):
            let range = right.range
            note(foldable: right.isConstant)
            return (left, CheckedExpression(.intToDouble(right), type: .value(.double), range: range))
        default: return (left, right)
        }
    }

    /// Whether `expression` is the `reason` field of `tip(X).invalidations`, whose values are
    /// TipKit's invalidation reasons.
    private func isInvalidationReason(_ expression: borrowing CheckedExpression, in scope: Scope) -> Bool {
        guard case .predicate(let event) = scope, event == events.count - 1, case .field = expression.kind else { return false }
        return true
    }

    /// A string constant compared with an invalidation's `reason` must be a reason, or the
    /// comparison could never hold: reported with the closest reason. Other operands pass.
    private mutating func checkReason(_ other: borrowing CheckedExpression) -> Bool {
        guard case .constant(.string(let text)) = other.kind else { return true }
        let reasons = InvalidationReason.allCases.map(\.rawValue)
        guard !reasons.contains(text) else { return true }
        let meant = Suggestions.closest(to: text, in: reasons)
            ?? reasons.first { $0.lowercased().contains(text.lowercased()) && !text.isEmpty }
        report(.invalidValue, "'\(text)' is not an invalidation reason", other.range,
               help: meant.map { "did you mean '\($0)'?" } ?? "the reasons are \(reasons.map { "'\($0)'" }.joined(separator: ", "))")
        return false
    }

    private mutating func checkMembership(_ value: Expression, _ items: [Expression], _ range: SourceRange,
                                          in scope: Scope) -> CheckedExpression {
        let checkedValue = check(value, in: scope)
        var constants: [RuntimeValue] = []
        var failed = checkedValue.type == .error
        for item in items {
            let checkedItem = check(item, in: scope)
            guard case .constant(var constant) = checkedItem.kind, checkedItem.type != .error else {
                if checkedItem.type != .error { report(.typeMismatch, "a list after 'in' holds literals only", item.range) }
                failed = true
                continue
            }
            if isInvalidationReason(checkedValue, in: scope), !checkReason(checkedItem) { failed = true }
            if checkedValue.type == .value(.double), case .int(let int) = constant { constant = .double(Double(int)) }
            if !failed, .value(constant.type) != checkedValue.type {
                report(.typeMismatch, "list item of type \(constant.type) in a list for a \(checkedValue.type) value", item.range)
                failed = true
            }
            constants.append(constant)
        }
        if !failed, !checkedValue.type.isValue {
            report(.typeMismatch, "'in' needs a value, found \(checkedValue.type)", value.range)
            failed = true
        }
        if failed { return invalid(range) }
        note(foldable: checkedValue.isConstant)
        return CheckedExpression(.inList(checkedValue, constants), type: .value(.bool), range: range)
    }
}

extension ExpressionType {
    var isCollection: Bool {
        if case .collection = self { return true }
        return false
    }

    /// Whether the type is one of a single value (not a collection, nor an error).
    var isValue: Bool {
        if case .value = self { return true }
        return false
    }
}
