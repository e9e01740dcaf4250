@testable import TipcCompiler
import TipRuntime

/// Builds checked programs for lint tests directly (no front end): declarations by name, and
/// rule expressions shaped as the checker shapes them (Int operands promoted next to Doubles,
/// windows at the base of each event query).
struct LintProgramBuilder {
    static let file = "lint.tips"
    var parameters: [PackParameter] = []
    var events: [PackEvent] = []
    var tips: [CheckedTip] = []

    mutating func parameter(_ name: String, _ type: ValueType, values: [String]? = nil) {
        let defaultValue: RuntimeValue
        switch type {
        case .bool: defaultValue = .bool(false)
        case .int: defaultValue = .int(0)
        case .double: defaultValue = .double(0)
        case .string: defaultValue = .string(values?.first ?? "")
        case .date: defaultValue = .date(milliseconds: 0)
        case .duration: defaultValue = .duration(milliseconds: 0)
        }
        parameters.append(PackParameter(name: name, type: type, defaultValue: defaultValue, values: values, isTransient: false))
    }

    mutating func event(_ name: String, fields: [(String, ValueType)] = []) {
        events.append(PackEvent(name: name, fields: fields.map { PackField(name: $0.0, type: $0.1) },
                                   maximumCount: nil, maximumAgeMilliseconds: nil))
    }

    /// `$name`.
    func p(_ name: String) -> CheckedExpression {
        let index = parameters.firstIndex { $0.name == name }!
        return CheckedExpression(.parameter(index), type: .value(parameters[index].type), range: Self.placeholder)
    }

    /// The donations of event `name`.
    func e(_ name: String) -> CheckedExpression {
        let index = events.firstIndex { $0.name == name }!
        return CheckedExpression(.event(index), type: .collection(event: index), range: Self.placeholder)
    }

    /// Payload field `name` of event `event`, inside a `where` predicate.
    func field(_ name: String, of event: String) -> CheckedExpression {
        let eventIndex = events.firstIndex { $0.name == event }!
        let index = events[eventIndex].fields.firstIndex { $0.name == name }!
        return CheckedExpression(.field(index), type: .value(events[eventIndex].fields[index].type), range: Self.placeholder)
    }

    func fieldIndex(_ name: String, of event: String) -> Int {
        events.first { $0.name == event }!.fields.firstIndex { $0.name == name }!
    }

    /// Adds a tip; its name is on line `tips.count + 1`, rule `i` on line `100 * (tips.count + 1) + i`,
    /// and every sub-expression gets a distinct range, so equal queries differ in position.
    mutating func tip(_ name: String, _ rules: CheckedExpression...) {
        tip(name, rules: rules)
    }

    mutating func tip(_ name: String, rules: [CheckedExpression]) {
        let tipLine = tips.count + 1
        var column = 1
        let placed = rules.enumerated().map { index, rule in
            Self.placed(rule, line: 100 * tipLine + index, column: &column)
        }
        tips.append(CheckedTip(name: name, title: name, message: nil, image: nil, actions: [], maxDisplayCount: nil,
                               maxDisplayDurationMilliseconds: nil, ignoresDisplayFrequency: false, rules: placed,
                               range: Self.range(line: tipLine, column: 5, length: name.count)))
    }

    var program: CheckedProgram {
        CheckedProgram(displayFrequency: .immediate, parameters: parameters, events: events, tips: tips, groups: [])
    }

    func lint() -> [Diagnostic] { Lints.run(program) }

    /// The range rule `index` of tip number `tip` (0-based, in the order added) was placed at.
    func ruleRange(tip: Int, rule index: Int) -> SourceRange { tips[tip].rules[index].range }

    static let placeholder = SourceRange(file: file, at: SourceLocation(line: 1, column: 1))

    static func range(line: Int, column: Int, length: Int) -> SourceRange {
        SourceRange(file: file, start: SourceLocation(line: line, column: column), end: SourceLocation(line: line, column: column + length))
    }

    private static func placed(_ expression: CheckedExpression, line: Int, column: inout Int) -> CheckedExpression {
        var result = expression
        func place(_ e: CheckedExpression) -> CheckedExpression { placed(e, line: line, column: &column) }
        switch expression.kind {
        case .constant, .now, .parameter, .field, .event, .instanceKey, .tipState: break
        case .within(let base, let window): result.kind = .within(place(base), windowMilliseconds: window)
        case .filter(let base, let predicate): result.kind = .filter(place(base), predicate: place(predicate))
        case .largestSubset(let base, let f): result.kind = .largestSubset(place(base), field: f)
        case .smallestSubset(let base, let f): result.kind = .smallestSubset(place(base), field: f)
        case .count(let base): result.kind = .count(place(base))
        case .distinct(let base, let f): result.kind = .distinct(place(base), field: f)
        case .not(let x): result.kind = .not(place(x))
        case .negate(let x): result.kind = .negate(place(x))
        case .logical(let op, let l, let r): result.kind = .logical(op, place(l), place(r))
        case .compare(let op, let l, let r): result.kind = .compare(op, place(l), place(r))
        case .arithmetic(let op, let l, let r): result.kind = .arithmetic(op, place(l), place(r))
        case .intToDouble(let x): result.kind = .intToDouble(place(x))
        case .inList(let x, let items): result.kind = .inList(place(x), items)
        }
        result.range = range(line: line, column: column, length: 3)
        column += 4
        return result
    }
}

/// A Swift value usable as a constant in test rules.
protocol LintConstant {
    var lintConstant: RuntimeValue { get }
}

extension Int: LintConstant { var lintConstant: RuntimeValue { .int(Int64(self)) } }
extension Double: LintConstant { var lintConstant: RuntimeValue { .double(self) } }
extension String: LintConstant { var lintConstant: RuntimeValue { .string(self) } }
extension Bool: LintConstant { var lintConstant: RuntimeValue { .bool(self) } }

/// Rule-expression building blocks for lint tests.
enum Rule {
    static let day = 86_400_000

    static func constant(_ value: RuntimeValue) -> CheckedExpression {
        CheckedExpression(.constant(value), type: .value(value.type), range: LintProgramBuilder.placeholder)
    }

    static func date(_ milliseconds: Int) -> CheckedExpression { constant(.date(milliseconds: Int64(milliseconds))) }

    static let now = CheckedExpression(.now, type: .value(.date), range: LintProgramBuilder.placeholder)
    static let never = constant(.bool(false))
    static let always = constant(.bool(true))

    static func not(_ x: CheckedExpression) -> CheckedExpression { CheckedExpression(.not(x), type: .value(.bool), range: x.range) }

    static func all(_ operands: CheckedExpression...) -> CheckedExpression { chain(.and, operands) }
    static func any(_ operands: CheckedExpression...) -> CheckedExpression { chain(.or, operands) }

    /// A left-leaning chain, as the checker builds it.
    static func chain(_ op: LogicalOperator, _ operands: [CheckedExpression]) -> CheckedExpression {
        operands.dropFirst().reduce(operands[0]) { CheckedExpression(.logical(op, $0, $1), type: .value(.bool), range: $0.range) }
    }
}

extension CheckedExpression {
    var count: CheckedExpression { CheckedExpression(.count(self), type: .value(.int), range: range) }
    func within(days: Int) -> CheckedExpression {
        CheckedExpression(.within(self, windowMilliseconds: days * Rule.day), type: type, range: range)
    }
    func filtered(_ predicate: CheckedExpression) -> CheckedExpression {
        CheckedExpression(.filter(self, predicate: predicate), type: type, range: range)
    }
    func distinct(_ field: Int) -> CheckedExpression { CheckedExpression(.distinct(self, field: field), type: .value(.int), range: range) }
    var negated: CheckedExpression { CheckedExpression(.negate(self), type: type, range: range) }
    var asDouble: CheckedExpression { CheckedExpression(.intToDouble(self), type: .value(.double), range: range) }

    func eq(_ value: some LintConstant) -> CheckedExpression { compare(.equal, value) }
    func ne(_ value: some LintConstant) -> CheckedExpression { compare(.notEqual, value) }
    func lt(_ value: some LintConstant) -> CheckedExpression { compare(.less, value) }
    func le(_ value: some LintConstant) -> CheckedExpression { compare(.lessOrEqual, value) }
    func gt(_ value: some LintConstant) -> CheckedExpression { compare(.greater, value) }
    func ge(_ value: some LintConstant) -> CheckedExpression { compare(.greaterOrEqual, value) }

    /// `self op value`, promoting an Int side to Double as the checker does.
    func compare(_ op: ComparisonOperator, _ value: some LintConstant) -> CheckedExpression {
        compare(op, Rule.constant(value.lintConstant))
    }

    func compare(_ op: ComparisonOperator, _ other: CheckedExpression) -> CheckedExpression {
        var left = self, right = other
        if left.type == .value(.int) && right.type == .value(.double) { left = left.asDouble }
        if left.type == .value(.double) && right.type == .value(.int) { right = right.asDouble }
        return CheckedExpression(.compare(op, left, right), type: .value(.bool), range: range)
    }

    func or(_ other: CheckedExpression) -> CheckedExpression { Rule.any(self, other) }
    func gt(_ other: CheckedExpression) -> CheckedExpression { compare(.greater, other) }
    func le(_ other: CheckedExpression) -> CheckedExpression { compare(.lessOrEqual, other) }

    func plus(_ value: Int) -> CheckedExpression {
        CheckedExpression(.arithmetic(.add, self, Rule.constant(.int(Int64(value)))), type: type, range: range)
    }

    func divided(by other: CheckedExpression) -> CheckedExpression {
        CheckedExpression(.arithmetic(.divide, self, other), type: type, range: range)
    }

    func isIn(_ values: [some LintConstant]) -> CheckedExpression {
        CheckedExpression(.inList(self, values.map { item in
            if type == .value(.double), case .int(let number) = item.lintConstant { return .double(Double(number)) }
            return item.lintConstant
        }), type: .value(.bool), range: range)
    }
}
