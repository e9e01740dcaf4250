import TipRuntime
import TipcCompiler
import TipcTestSupport

let day = 86_400_000
let baseNow = 1_750_000_000_000
let anywhere = SourceRange(file: "generated.tips", start: SourceLocation(line: 1, column: 1), end: SourceLocation(line: 1, column: 2))

/// The schema every generated rule runs against: one parameter of each type, a valueless event
/// and an event with one payload field of each type.
enum RandomSchema {
    static let parameters: [PackParameter] = [
        PackParameter(name: "flag", type: .bool, defaultValue: .bool(false)),
        PackParameter(name: "number", type: .int, defaultValue: .int(0)),
        PackParameter(name: "ratio", type: .double, defaultValue: .double(0)),
        PackParameter(name: "plan", type: .string, defaultValue: .string("free"), values: ["free", "pro", "é"]),
        PackParameter(name: "since", type: .date, defaultValue: .date(milliseconds: 0)),
        PackParameter(name: "span", type: .duration, defaultValue: .duration(milliseconds: 0)),
    ]
    static let fieldTypes: [ValueType] = [.int, .string, .double, .bool, .date, .duration]
    static let events: [PackEvent] = [
        PackEvent(name: "opened"),
        PackEvent(name: "viewed", fields: zip(["item", "category", "price", "liked", "at", "spent"], fieldTypes).map {
            PackField(name: $0.0, type: $0.1)
        }),
    ]
    static let windows = [1, 1000, 3_600_000, day, 3 * day, 30 * day, Int.max, 0, -5]

    /// Format 2: the rules go to tip `t`, keyed by an Int; `other` has no key, `keyed` has one.
    static func format2Program(rules: [CheckedExpression]) -> CheckedProgram {
        CheckedProgram(displayFrequency: .daily, parameters: parameters, events: events,
                       tips: [CheckedTip(name: "t", title: "T", rules: rules, range: anywhere, key: PackTipKey(name: "id", type: .int)),
                              CheckedTip(name: "other", title: "O", range: anywhere),
                              CheckedTip(name: "keyed", title: "K", range: anywhere, key: PackTipKey(name: "id", type: .int))])
    }

    static func program(rules: [CheckedExpression]) -> CheckedProgram {
        CheckedProgram(displayFrequency: .daily, parameters: parameters, events: events,
                       tips: [CheckedTip(name: "t", title: "T", rules: rules, range: anywhere)])
    }
}

/// Random well-typed checked expressions over `RandomSchema`.
struct RuleGenerator {
    var random: SeededGenerator
    /// Format 2: rules of a tip with an Int key that read `key` and other tips' records
    /// (`RandomSchema.format2Program`).
    var format2 = false

    mutating func pick<T>(_ options: [T]) -> T { options[Int(random.next() % UInt64(options.count))] }
    mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    func node(_ kind: CheckedExpression.Kind, _ type: ExpressionType) -> CheckedExpression {
        CheckedExpression(kind, type: type, range: anywhere)
    }

    mutating func constant(_ type: ValueType) -> RuntimeValue {
        switch type {
        case .bool: return .bool(chance(50))
        case .int: return .int(Int64(pick([0, 1, 2, 3, 5, -1, 7, 100, Int.max, Int.min, Int.max - 1, Int(random.next() % 20) - 10])))
        case .double: return .double(pick([0.0, 1.5, -2.5, 0.1, 3.0, 1e308, -0.0, 2.0]))
        case .string: return .string(pick(["a", "b", "", "free", "pro", "e\u{301}", "é", "zz"]))
        case .date: return .date(milliseconds: Int64(baseNow + pick([0, -day, day, -3 * day, 1, -1, Int(random.next() % UInt64(10 * day)) - 5 * day])))
        case .duration: return .duration(milliseconds: Int64(pick([0, 1000, day, 3 * day, -3_600_000, Int.max, Int.min + 1])))
        }
    }

    mutating func field(of type: ValueType, in event: Int?) -> CheckedExpression? {
        guard event == 1, let index = RandomSchema.fieldTypes.firstIndex(of: type) else { return nil }
        return node(.field(index), .value(type))
    }

    mutating func expression(_ type: ValueType, depth: Int, event: Int?) -> CheckedExpression {
        let leaf = depth <= 0 || chance(25)
        if leaf {
            if let field = field(of: type, in: event), chance(50) { return field }
            if format2, type == .int, chance(30) { return node(.instanceKey, .value(.int)) }
            switch random.next() % 3 {
            case 0: return node(.constant(constant(type)), .value(type))
            case 1 where type == .date: return node(.now, .value(.date))
            default: return node(.parameter(RandomSchema.parameters.firstIndex { $0.type == type }!), .value(type))
            }
        }
        let d = depth - 1
        if format2, type == .bool, chance(15) {
            return node(.tipState(tipQuery(.invalidated)), .value(.bool))
        }
        switch type {
        case .bool:
            switch random.next() % 7 {
            case 0, 1:
                let operandType = pick(ValueType.allCases)
                let op: ComparisonOperator = operandType == .bool ? pick([.equal, .notEqual])
                    : pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
                return node(.compare(op, expression(operandType, depth: d, event: event), expression(operandType, depth: d, event: event)), .value(.bool))
            case 2:
                let op: ComparisonOperator = pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
                return node(.compare(op, node(.count(collection(depth: d, event: event)), .value(.int)), node(.constant(.int(pick([0, 1, 2, 3]))), .value(.int))), .value(.bool))
            case 3: return node(.logical(pick([.and, .or]), expression(.bool, depth: d, event: event), expression(.bool, depth: d, event: event)), .value(.bool))
            case 4: return node(.not(expression(.bool, depth: d, event: event)), .value(.bool))
            case 5:
                let operandType = pick(ValueType.allCases)
                let list = (0..<Int(random.next() % 4)).map { _ in constant(operandType) }
                return node(.inList(expression(operandType, depth: d, event: event), list), .value(.bool))
            default:
                return node(.compare(pick([.equal, .notEqual]), expression(.bool, depth: d, event: event), node(.constant(.bool(chance(50))), .value(.bool))), .value(.bool))
            }
        case .int:
            switch random.next() % 5 {
            case 0: return node(.arithmetic(pick([.add, .subtract, .multiply, .divide, .remainder]), expression(.int, depth: d, event: event), expression(.int, depth: d, event: event)), .value(.int))
            case 1: return node(.negate(expression(.int, depth: d, event: event)), .value(.int))
            case 2, 3: return node(.count(collection(depth: d, event: event)), .value(.int))
            default: return node(.distinct(collection(depth: d, event: event, forceEvent: 1), field: Int(random.next() % 6)), .value(.int))
            }
        case .double:
            switch random.next() % 3 {
            case 0: return node(.arithmetic(pick([.add, .subtract, .multiply, .divide, .remainder]), expression(.double, depth: d, event: event), expression(.double, depth: d, event: event)), .value(.double))
            case 1: return node(.negate(expression(.double, depth: d, event: event)), .value(.double))
            default: return node(.intToDouble(expression(.int, depth: d, event: event)), .value(.double))
            }
        case .string:
            return expression(.string, depth: 0, event: event)
        case .date:
            switch random.next() % 3 {
            case 0: return node(.arithmetic(.add, expression(.date, depth: d, event: event), expression(.duration, depth: d, event: event)), .value(.date))
            case 1: return node(.arithmetic(.add, expression(.duration, depth: d, event: event), expression(.date, depth: d, event: event)), .value(.date))
            default: return node(.arithmetic(.subtract, expression(.date, depth: d, event: event), expression(.duration, depth: d, event: event)), .value(.date))
            }
        case .duration:
            switch random.next() % 3 {
            case 0: return node(.arithmetic(.subtract, expression(.date, depth: d, event: event), expression(.date, depth: d, event: event)), .value(.duration))
            case 1: return node(.arithmetic(pick([.add, .subtract]), expression(.duration, depth: d, event: event), expression(.duration, depth: d, event: event)), .value(.duration))
            default: return node(.negate(expression(.duration, depth: d, event: event)), .value(.duration))
            }
        }
    }

    /// A `tip(X…)` query of one of `RandomSchema.format2Program`'s tips: itself (keyed), the
    /// unkeyed one, or the other keyed one, with the rule's own key or a literal.
    mutating func tipQuery(_ member: TipStateQuery.Member) -> TipStateQuery {
        let tip = pick([0, 1, 2])
        guard tip != 1 else { return TipStateQuery(tip: 1, member: member) }
        let key = chance(50) ? node(.instanceKey, .value(.int)) : node(.constant(.int(pick([0, 1, 2, 3]))), .value(.int))
        return TipStateQuery(tip: tip, member: member, key: key)
    }

    mutating func collection(depth: Int, event: Int?, forceEvent: Int? = nil) -> CheckedExpression {
        let eventCount = RandomSchema.events.count
        if format2, forceEvent == nil || forceEvent! >= eventCount, forceEvent != nil || chance(35) {
            // A tip's displays (no fields) or invalidations (field `reason`).
            let target = forceEvent ?? (chance(50) ? eventCount : eventCount + 1)
            let type = ExpressionType.collection(event: target)
            if depth <= 0 || chance(30) {
                return node(.tipState(tipQuery(target == eventCount ? .displays : .invalidations)), type)
            }
            let inner = collection(depth: depth - 1, event: event, forceEvent: target)
            if target == eventCount + 1, chance(50) {
                let reason = node(.compare(pick([.equal, .notEqual]), node(.field(0), .value(.string)),
                                           node(.constant(.string(pick(InvalidationReason.allCases).rawValue)), .value(.string))), .value(.bool))
                return node(.filter(inner, predicate: chance(70) ? reason : expression(.bool, depth: depth - 1, event: target)), type)
            }
            return node(.within(inner, windowMilliseconds: pick(RandomSchema.windows)), type)
        }
        let target = forceEvent ?? (chance(60) ? 1 : 0)
        let type = ExpressionType.collection(event: target)
        if depth <= 0 || chance(30) { return node(.event(target), type) }
        let inner = collection(depth: depth - 1, event: event, forceEvent: target)
        switch random.next() % 5 {
        case 0, 1: return node(.within(inner, windowMilliseconds: pick(RandomSchema.windows)), type)
        case 2: return node(.filter(inner, predicate: expression(.bool, depth: depth - 1, event: target)), type)
        default:
            guard target == 1 else { return node(.within(inner, windowMilliseconds: pick(RandomSchema.windows)), type) }
            let field = Int(random.next() % 6)
            return node(chance(50) ? .largestSubset(inner, field: field) : .smallestSubset(inner, field: field), type)
        }
    }

    /// Random parameter values of the schema's types.
    mutating func parameters(for pack: RulePack) -> ParameterValues {
        var values = ParameterValues(pack: pack)
        for (index, parameter) in RandomSchema.parameters.enumerated() {
            try? values.set(index, to: constant(parameter.type))
        }
        return values
    }

    /// A store with donations clustered around the windows' edges relative to `now`: fewer than
    /// `maximumPerEvent` of each event.
    mutating func store(for pack: RulePack, now: Int, maximumPerEvent: Int = 25) -> InMemoryDonationStore {
        var store = InMemoryDonationStore(events: pack.events)
        for event in pack.events.indices {
            for _ in 0..<Int(random.next() % UInt64(maximumPerEvent)) {
                let window = pick([1000, 3_600_000, day, 3 * day, 30 * day])
                let offset = pick([-window, -window + 1, -window - 1, 0, 1, -1, Int(random.next() % UInt64(8 * day)) - 6 * day])
                let payload = pack.events[event].fields.map { field -> RuntimeValue in
                    switch field.type {
                    case .bool: return .bool(chance(50))
                    case .int: return .int(Int64(random.next() % 4))
                    case .double: return .double(pick([0.0, 1.5, -0.0, 2.5, 1e308]))
                    case .string: return .string(pick(["a", "b", "free", "é", "e\u{301}"]))
                    case .date: return .date(milliseconds: Int64(now + pick([0, -day, day, 1])))
                    case .duration: return .duration(milliseconds: Int64(pick([0, 1000, day, Int.max])))
                    }
                }
                try? store.donate(event: event, at: Int64(now + offset), payload: payload)
            }
        }
        return store
    }
}
