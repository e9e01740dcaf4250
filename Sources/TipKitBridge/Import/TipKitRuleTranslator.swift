import TipRuntime
import TipcCompiler

/// Why a `#Rule` closure could not be imported, and where.
struct RuleImportError: Error {
    var reason: String
    var range: SourceRange
}

/// Translates one `#Rule(subject) { closure }` into a rule-language `Expression`, every node
/// ranged over the Swift text it came from.
struct TipKitRuleTranslator {
    let builder: TipKitModuleBuilder
    let file: Int
    let tipPath: [String]

    /// What the closure's argument stands for.
    enum Subject {
        case parameter(name: String, type: ValueType?)
        case event(name: String)
    }

    private var subject: Subject = .event(name: "")
    /// Where the subject is written, when it names nothing the imported files declare: the
    /// checker's unknown-name diagnostic then points there rather than at `$0`.
    private var unresolvedSubjectRange: SourceRange?
    private var argumentName = "0"

    init(builder: TipKitModuleBuilder, file: Int, tipPath: [String]) {
        self.builder = builder
        self.file = file
        self.tipPath = tipPath
    }

    private func range(_ expression: SwiftExpression) -> SourceRange { builder.range(file, expression) }

    private func unsupported(_ expression: SwiftExpression, _ reason: String? = nil) -> RuleImportError {
        RuleImportError(reason: reason ?? "'\(builder.text(file, expression))' has no rule-language form", range: range(expression))
    }

    mutating func rule(subject expression: SwiftExpression, closure: SwiftExpression.Closure) throws(RuleImportError) -> Expression {
        subject = try resolveSubject(expression)
        switch subject {
        case .parameter(_, nil): unresolvedSubjectRange = range(expression)
        case .event(let name) where !builder.eventNames.contains(name): unresolvedSubjectRange = range(expression)
        default: break
        }
        argumentName = closure.parameters.first ?? "0"
        guard closure.statements.count == 1, let body = closure.statements.first else {
            throw unsupported(expression, "a #Rule closure of \(closure.statements.count) statements (one expression is imported)")
        }
        return try boolean(body)
    }

    /// `Self.$p`, `Other.$p`, `$p`, `Self.e`, `Other.e`, `e`.
    private func resolveSubject(_ expression: SwiftExpression) throws(RuleImportError) -> Subject {
        var owner: [String]?
        var name: String
        switch expression.kind {
        case .member(let base?, let member):
            name = member
            if case .identifier("Self") = base.kind {
                owner = tipPath
            } else if let spelled = TipKitModuleBuilder.typeSpelling(base) {
                owner = builder.resolveType(spelled, from: tipPath) ?? spelled
            } else {
                throw unsupported(expression, "a #Rule subject that is not a parameter or an event")
            }
        case .dollar(let parameter):
            name = "$" + parameter
        case .identifier(let event):
            name = event
        default:
            throw unsupported(expression, "a #Rule subject that is not a parameter or an event")
        }
        let isParameter = name.hasPrefix("$")
        if isParameter { name.removeFirst() }
        // Explicit owner: that type only; a bare name: the tip, its enclosing types, the top level.
        var scopes: [[String]] = []
        if let owner { scopes = [owner] } else {
            var scope = tipPath
            while true {
                scopes.append(scope)
                if scope.isEmpty { break }
                scope.removeLast()
            }
        }
        for scope in scopes {
            let key = TipKitModuleBuilder.key(scope, name)
            if isParameter, let parameter = builder.parameters[key] { return .parameter(name: parameter.name, type: parameter.type) }
            if !isParameter, let event = builder.events[key] { return .event(name: event.name) }
            // `static let p = Tips.Parameter(…)` is read without `$`.
            if !isParameter, let parameter = builder.parameters[key] { return .parameter(name: parameter.name, type: parameter.type) }
        }
        // Not declared in the imported files: the checker reports the unknown name here.
        return isParameter ? .parameter(name: name, type: nil) : .event(name: name)
    }

    private func isArgument(_ expression: SwiftExpression) -> Bool {
        switch expression.kind {
        case .dollar(let name): return name == argumentName
        case .identifier(let name): return name == argumentName
        case .parenthesized(let inner): return isArgument(inner)
        default: return false
        }
    }

    /// A Boolean expression (`== true` and `== false` on a Bool parameter read as the parameter).
    private func boolean(_ expression: SwiftExpression) throws(RuleImportError) -> Expression {
        if case .binary(let op, let left, let right) = expression.kind, op == "==" || op == "!=",
           case .identifier(let literal) = right.kind, literal == "true" || literal == "false",
           case .parameter(_, .bool?) = subject, isArgument(left) {
            let value = try translate(left)
            let negate = (op == "==") != (literal == "true")
            return negate ? Expression(.unary(.not, value), at: range(expression)) : Expression(value.kind, at: range(expression))
        }
        return try translate(expression)
    }

    private static let binaryOperators: [String: BinaryOperator] = [
        "&&": .and, "||": .or, "==": .equal, "!=": .notEqual, "<": .less, "<=": .lessOrEqual, ">": .greater, ">=": .greaterOrEqual,
        "+": .add, "-": .subtract, "*": .multiply, "/": .divide, "%": .remainder,
    ]

    private func translate(_ expression: SwiftExpression) throws(RuleImportError) -> Expression {
        let at = range(expression)
        switch expression.kind {
        case _ where isArgument(expression):
            switch subject {
            case .parameter(let name, _): return Expression(.parameter(name), at: unresolvedSubjectRange ?? at)
            case .event: throw unsupported(expression, "an event is used as a value; read '.donations'")
            }
        case .identifier("true"): return Expression(.literal(.bool(true)), at: at)
        case .identifier("false"): return Expression(.literal(.bool(false)), at: at)
        case .integer(let value?): return Expression(.literal(.int(value)), at: at)
        case .floatingPoint(let value): return Expression(.literal(.double(value)), at: at)
        case .string(let value, false): return Expression(.literal(.string(value)), at: at)
        case .parenthesized(let inner):
            return Expression(try boolean(inner).kind, at: at)
        case .prefix("!", let operand):
            return Expression(.unary(.not, try boolean(operand)), at: at)
        case .prefix("-", let operand):
            let value = try translate(operand)
            switch value.kind {
            case .literal(.int(let number)): return Expression(.literal(.int(-number)), at: at)
            case .literal(.double(let number)): return Expression(.literal(.double(-number)), at: at)
            default: return Expression(.unary(.negate, value), at: at)
            }
        case .binary(let op, let left, let right):
            guard let binary = Self.binaryOperators[op] else { throw unsupported(expression) }
            let translatedLeft = binary.isLogical ? try boolean(left) : try translate(left)
            let translatedRight = binary.isLogical ? try boolean(right) : try translate(right)
            return Expression(.binary(binary, translatedLeft, translatedRight), at: at)
        case .member(let base?, "now") where Self.isDateType(base):
            return Expression(.now, at: at)
        case .member(nil, "now"):
            return Expression(.now, at: at)
        case .call(let callee, let arguments, _) where arguments.isEmpty && Self.isDateType(callee):
            return Expression(.now, at: at)
        case .member(nil, "zero"):
            if case .parameter(_, .double?) = subject { return Expression(.literal(.double(0)), at: at) }
            return Expression(.literal(.int(0)), at: at)
        case .member(let base?, "isEmpty"):
            // `….donations.isEmpty` is `….count == 0`.
            let inner = try collection(base, count: false)
            let count = Expression(.member(inner, Identifier("count", at: at)), at: at)
            return Expression(.binary(.equal, count, Expression(.literal(.int(0)), at: at)), at: at)
        default:
            return try collection(expression, count: true)
        }
    }

    private static func isDateType(_ expression: SwiftExpression) -> Bool {
        if case .identifier("Date") = expression.kind { return true }
        return false
    }

    /// Event collections and what is read from them: `$0.donations`, `.count`, `donatedWithin`,
    /// `filter`, `largestSubset(by:)`.
    private func collection(_ expression: SwiftExpression, count: Bool) throws(RuleImportError) -> Expression {
        let at = range(expression)
        switch expression.kind {
        case .member(let base?, "donations") where isArgument(base):
            guard case .event(let name) = subject else { throw unsupported(expression, "'.donations' of a parameter") }
            return Expression(.name(name), at: unresolvedSubjectRange ?? at)
        case .member(let base?, "count"):
            let inner = try collection(base, count: false)
            return Expression(.member(inner, Identifier("count", at: range(expression))), at: at)
        case .call(let callee, let arguments, let trailing):
            guard case .member(let base?, let method) = callee.kind else { break }
            let methodRange = range(callee)
            switch method {
            case "donatedWithin":
                guard let argument = arguments.first?.value else { break }
                let inner = try collection(base, count: false)
                let seconds = try timeRange(argument)
                return Expression(.methodCall(inner, Identifier("within", at: methodRange),
                                              [Expression(.literal(.duration(seconds: seconds)), at: range(argument))]), at: at)
            case "largestSubset", "smallestSubset":
                guard let argument = arguments.first, argument.label == "by" || argument.label == "groupedBy",
                      case .keyPath(let path) = argument.value.kind, path.count == 1 else { break }
                let inner = try collection(base, count: false)
                return Expression(.methodCall(inner, Identifier(method, at: methodRange),
                                              [Expression(.name(TipKitModuleBuilder.sanitizedName(path[0])), at: range(argument.value))]), at: at)
            case "filter":
                guard let closure = trailing.first ?? arguments.first?.value.closure, closure.statements.count == 1 else { break }
                let inner = try collection(base, count: false)
                return try filtered(inner, by: closure, whole: expression, methodRange: methodRange)
            default:
                break
            }
        default:
            break
        }
        throw unsupported(expression)
    }

    /// `collection.filter { $0.date > Date.now.addingTimeInterval(-N) && $0.field == x }`: a
    /// window and a `where` (joined with `and` to a `where` already on `collection`).
    private func filtered(_ base: Expression, by closure: SwiftExpression.Closure, whole: SwiftExpression,
                          methodRange: SourceRange) throws(RuleImportError) -> Expression {
        let donation = closure.parameters.first ?? "0"
        var terms: [SwiftExpression] = []
        func flatten(_ expression: SwiftExpression) {
            if case .binary("&&", let left, let right) = expression.kind { flatten(left); flatten(right) } else { terms.append(expression) }
        }
        flatten(closure.statements[0])
        var window: Expression?
        var conditions: [Expression] = []
        for term in terms {
            if let seconds = try windowSeconds(term, donation: donation) {
                guard window == nil else { throw unsupported(term, "two date windows in one filter") }
                window = Expression(.literal(.duration(seconds: seconds)), at: range(term))
            } else {
                conditions.append(try payloadCondition(term, donation: donation))
            }
        }
        var result = base
        if let window {
            result = Expression(.methodCall(result, Identifier("within", at: methodRange), [window]), at: range(whole))
        }
        if var condition = conditions.first {
            for next in conditions.dropFirst() {
                condition = Expression(.binary(.and, condition, next), at: condition.range.union(next.range))
            }
            // Chained filters are one `where`.
            if case .methodCall(let inner, let method, let arguments) = result.kind, method.name == "where", arguments.count == 1 {
                let joined = Expression(.binary(.and, arguments[0], condition), at: arguments[0].range.union(condition.range))
                result = Expression(.methodCall(inner, method, [joined]), at: range(whole))
            } else {
                result = Expression(.methodCall(result, Identifier("where", at: methodRange), [condition]), at: range(whole))
            }
        }
        return result
    }

    /// The window of `$0.date > Date.now.addingTimeInterval(-N)` (or `Date()`, `.now`), in seconds;
    /// nil when `term` does not compare the donation's date.
    private func windowSeconds(_ term: SwiftExpression, donation: String) throws(RuleImportError) -> Int? {
        guard case .binary(let op, let left, let right) = term.kind,
              case .member(let base?, "date") = left.kind, Self.names(base, donation) else { return nil }
        guard op == ">" || op == ">=" else { throw unsupported(term, "a date comparison other than '>' a time before now") }
        guard case .call(let callee, let arguments, _) = right.kind, case .member(let now?, "addingTimeInterval") = callee.kind,
              Self.isNow(now), let offset = arguments.first?.value, let value = Self.constant(offset), value < 0, value > -1e15 else {
            throw unsupported(term, "a date window that is not 'Date.now.addingTimeInterval(-seconds)'")
        }
        return Int((-value).rounded(.up))
    }

    private static func names(_ expression: SwiftExpression, _ name: String) -> Bool {
        switch expression.kind {
        case .dollar(let spelled), .identifier(let spelled): return spelled == name
        default: return false
        }
    }

    private static func isNow(_ expression: SwiftExpression) -> Bool {
        switch expression.kind {
        case .member(let base?, "now"): return isDateType(base)
        case .member(nil, "now"): return true
        case .call(let callee, let arguments, _): return arguments.isEmpty && isDateType(callee)
        default: return false
        }
    }

    /// A term of a `filter` on the payload: `$0.field OP literal`, `!`, `||`, parentheses.
    private func payloadCondition(_ term: SwiftExpression, donation: String) throws(RuleImportError) -> Expression {
        let at = range(term)
        switch term.kind {
        case .member(let base?, let field) where Self.names(base, donation):
            return Expression(.name(TipKitModuleBuilder.sanitizedName(field)), at: at)
        case .parenthesized(let inner):
            return Expression(try payloadCondition(inner, donation: donation).kind, at: at)
        case .prefix("!", let operand):
            return Expression(.unary(.not, try payloadCondition(operand, donation: donation)), at: at)
        case .binary(let op, let left, let right):
            guard let binary = Self.binaryOperators[op] else { throw unsupported(term) }
            return Expression(.binary(binary, try payloadCondition(left, donation: donation), try payloadCondition(right, donation: donation)), at: at)
        case .identifier("true"), .identifier("false"), .integer, .floatingPoint, .string(_, false), .prefix("-", _):
            return try translate(term)
        default:
            throw unsupported(term)
        }
    }

    /// `.minute`, `.hour`, `.day`, `.week`, `.minutes(n)`, `.hours(n)`, `.days(n)`, `.weeks(n)`.
    private func timeRange(_ expression: SwiftExpression) throws(RuleImportError) -> Int {
        if let seconds = Self.timeRangeSeconds(expression) { return seconds }
        throw unsupported(expression, "a time range that is not .minute/.hour/.day/.week or .minutes/.hours/.days/.weeks(n)")
    }

    /// The seconds of a `Tips.DonationTimeRange` literal; nil for anything else.
    static func timeRangeSeconds(_ expression: SwiftExpression) -> Int? {
        let units: [String: Int] = ["minute": 60, "hour": 3_600, "day": 86_400, "week": 604_800]
        switch expression.kind {
        case .member(_, let name):
            if let seconds = units[name] { return seconds }
        case .call(let callee, let arguments, _):
            if case .member(_, let plural) = callee.kind, plural.hasSuffix("s"), let unit = units[String(plural.dropLast())],
               case .integer(let count?)? = arguments.first?.value.kind, count > 0 {
                let (seconds, overflow) = count.multipliedReportingOverflow(by: unit)
                if !overflow { return seconds }
            }
        default:
            break
        }
        return nil
    }

    /// The value of a constant numeric expression (`60 * 60 * 24`, `-3600`, `2.5`); nil otherwise.
    static func constant(_ expression: SwiftExpression) -> Double? {
        switch expression.kind {
        case .integer(let value?): return Double(value)
        case .floatingPoint(let value): return value
        case .parenthesized(let inner): return constant(inner)
        case .prefix("-", let operand): return constant(operand).map { -$0 }
        case .binary(let op, let left, let right):
            guard let a = constant(left), let b = constant(right) else { return nil }
            switch op {
            case "*": return a * b
            case "+": return a + b
            case "-": return a - b
            case "/": return b == 0 ? nil : a / b
            default: return nil
            }
        default: return nil
        }
    }
}
