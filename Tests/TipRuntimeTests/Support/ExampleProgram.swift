import TipRuntime
import TipcCompiler

/// Terse builders for checked expressions in tests.
enum E {
    static func at(_ column: Int) -> SourceRange {
        SourceRange(file: "example.tips", start: SourceLocation(line: 1, column: column), end: SourceLocation(line: 1, column: column + 1))
    }
    static func node(_ kind: CheckedExpression.Kind, _ type: ExpressionType) -> CheckedExpression { CheckedExpression(kind, type: type, range: at(1)) }
    static func int(_ value: Int) -> CheckedExpression { node(.constant(.int(Int64(value))), .value(.int)) }
    static func double(_ value: Double) -> CheckedExpression { node(.constant(.double(value)), .value(.double)) }
    static func string(_ value: String) -> CheckedExpression { node(.constant(.string(value)), .value(.string)) }
    static func bool(_ value: Bool) -> CheckedExpression { node(.constant(.bool(value)), .value(.bool)) }
    static func duration(_ ms: Int) -> CheckedExpression { node(.constant(.duration(milliseconds: Int64(ms))), .value(.duration)) }
    static func parameter(_ index: Int, _ type: ValueType) -> CheckedExpression { node(.parameter(index), .value(type)) }
    static func field(_ index: Int, _ type: ValueType) -> CheckedExpression { node(.field(index), .value(type)) }
    static func event(_ index: Int) -> CheckedExpression { node(.event(index), .collection(event: index)) }
    static var now: CheckedExpression { node(.now, .value(.date)) }
    static func within(_ c: CheckedExpression, _ ms: Int) -> CheckedExpression { node(.within(c, windowMilliseconds: ms), c.type) }
    static func filter(_ c: CheckedExpression, _ p: CheckedExpression) -> CheckedExpression { node(.filter(c, predicate: p), c.type) }
    static func largest(_ c: CheckedExpression, _ f: Int) -> CheckedExpression { node(.largestSubset(c, field: f), c.type) }
    static func smallest(_ c: CheckedExpression, _ f: Int) -> CheckedExpression { node(.smallestSubset(c, field: f), c.type) }
    static func count(_ c: CheckedExpression) -> CheckedExpression { node(.count(c), .value(.int)) }
    static func distinct(_ c: CheckedExpression, _ f: Int) -> CheckedExpression { node(.distinct(c, field: f), .value(.int)) }
    static func compare(_ op: ComparisonOperator, _ a: CheckedExpression, _ b: CheckedExpression) -> CheckedExpression { node(.compare(op, a, b), .value(.bool)) }
    static func arithmetic(_ op: ArithmeticOperator, _ a: CheckedExpression, _ b: CheckedExpression, _ type: ValueType) -> CheckedExpression { node(.arithmetic(op, a, b), .value(type)) }
    static func and(_ a: CheckedExpression, _ b: CheckedExpression) -> CheckedExpression { node(.logical(.and, a, b), .value(.bool)) }
    static func or(_ a: CheckedExpression, _ b: CheckedExpression) -> CheckedExpression { node(.logical(.or, a, b), .value(.bool)) }
    static func not(_ a: CheckedExpression) -> CheckedExpression { node(.not(a), .value(.bool)) }
    static func negate(_ a: CheckedExpression) -> CheckedExpression { node(.negate(a), a.type) }
    static func toDouble(_ a: CheckedExpression) -> CheckedExpression { node(.intToDouble(a), .value(.double)) }
    static func inList(_ a: CheckedExpression, _ list: [RuntimeValue]) -> CheckedExpression { node(.inList(a, list), .value(.bool)) }
}

/// A program that uses every feature of the pack and every opcode.
enum ExampleProgram {
    static let day = 86_400_000

    static var program: CheckedProgram {
        let parameters = [
            PackParameter(name: "signedIn", type: .bool, defaultValue: .bool(true)),
            PackParameter(name: "maskCount", type: .int, defaultValue: .int(2)),
            PackParameter(name: "rating", type: .double, defaultValue: .double(4.5)),
            PackParameter(name: "plan", type: .string, defaultValue: .string("pro"), values: ["free", "pro", "team"]),
            PackParameter(name: "trialEnds", type: .date, defaultValue: .date(milliseconds: 1_767_225_600_000)),
            PackParameter(name: "sheetOpen", type: .bool, defaultValue: .bool(false), isTransient: true),
            PackParameter(name: "cooldown", type: .duration, defaultValue: .duration(milliseconds: 3_600_000)),
        ]
        let events = [
            PackEvent(name: "searchPerformed"),
            PackEvent(name: "itemViewed", fields: [PackField(name: "itemID", type: .int), PackField(name: "category", type: .string),
                                                      PackField(name: "price", type: .double), PackField(name: "liked", type: .bool),
                                                      PackField(name: "at", type: .date), PackField(name: "spent", type: .duration)],
                         maximumCount: 5000, maximumAgeMilliseconds: Int64(90 * day)),
        ]
        let viewed = E.event(1)
        let rules: [[CheckedExpression]] = [
            [E.parameter(0, .bool), E.compare(.greaterOrEqual, E.count(E.within(E.event(0), 3 * day)), E.int(3))],
            [E.compare(.greaterOrEqual, E.count(E.within(E.largest(viewed, 0), 5 * day)), E.int(3))],
            [E.compare(.lessOrEqual, E.count(E.smallest(E.within(viewed, 7 * day), 1)), E.int(10)),
             E.compare(.greater, E.distinct(E.within(viewed, 30 * day), 1), E.int(1))],
            [E.compare(.greater, E.count(E.filter(E.within(viewed, 30 * day),
                E.and(E.compare(.equal, E.field(1, .string), E.string("shoes")),
                      E.or(E.compare(.greater, E.field(2, .double), E.toDouble(E.field(0, .int))),
                           E.and(E.field(3, .bool), E.compare(.less, E.field(4, .date), E.now)))))), E.int(0))],
            [E.or(E.inList(E.parameter(3, .string), [.string("pro"), .string("team")]), E.not(E.parameter(5, .bool))),
             E.inList(E.parameter(1, .int), [.int(1), .int(2), .int(3)]),
             E.inList(E.parameter(2, .double), [.double(4.5), .double(5)]),
             E.inList(E.parameter(0, .bool), [.bool(true)])],
            [E.compare(.less, E.arithmetic(.add, E.now, E.parameter(6, .duration), .date), E.parameter(4, .date)),
             E.compare(.greater, E.arithmetic(.subtract, E.parameter(4, .date), E.now, .duration), E.negate(E.duration(day))),
             E.compare(.notEqual, E.arithmetic(.remainder, E.arithmetic(.multiply, E.parameter(1, .int), E.int(7), .int), E.int(5), .int),
                       E.arithmetic(.divide, E.negate(E.parameter(1, .int)), E.int(2), .int)),
             E.compare(.greaterOrEqual, E.arithmetic(.divide, E.parameter(2, .double), E.double(2), .double),
                       E.negate(E.arithmetic(.subtract, E.double(1), E.arithmetic(.multiply, E.parameter(2, .double), E.double(0.5), .double), .double))),
             E.compare(.less, E.arithmetic(.remainder, E.parameter(2, .double), E.double(2), .double), E.arithmetic(.add, E.double(3), E.double(1), .double)),
             E.compare(.notEqual, E.parameter(3, .string), E.parameter(3, .string)),
             E.compare(.equal, E.parameter(0, .bool), E.parameter(5, .bool)),
             E.compare(.less, E.parameter(2, .double), E.double(10)),
             E.compare(.equal, E.count(E.event(0)), E.int(0))],
            [],
        ]
        var tips: [CheckedTip] = []
        for (index, tipRules) in rules.enumerated() {
            tips.append(CheckedTip(
                name: "tip\(index)", title: "Tip \(index) — *Markdown*", message: index % 2 == 0 ? "Message \(index)\nline two" : nil,
                image: index == 0 ? .symbol("magnifyingglass") : index == 1 ? .asset("Hero") : nil,
                actions: index == 0 ? [PackAction(id: "learn-more", title: "Learn More"), PackAction(id: "dismiss", title: "Dismiss")] : [],
                maxDisplayCount: index == 0 ? 3 : nil, maxDisplayDurationMilliseconds: index == 0 ? 120_000 : nil,
                ignoresDisplayFrequency: index == 2, rules: tipRules, range: E.at(1)))
        }
        return CheckedProgram(displayFrequency: .daily, parameters: parameters, events: events, tips: tips,
                              groups: [PackGroup(name: "onboarding", priority: .ordered, tips: [0, 1, 2]),
                                       PackGroup(name: "extras", priority: .firstAvailable, tips: [3, 4])])
    }

    static func compiled() throws -> RulePack {
        var diagnostics: [Diagnostic] = []
        guard let pack = RulePackCompiler.compile(program, diagnostics: &diagnostics) else {
            throw CompileFailure(diagnostics: diagnostics)
        }
        return pack
    }

    struct CompileFailure: Error { var diagnostics: [Diagnostic] }

    /// A store with donations for every event.
    static func store(for pack: RulePack, now: Int64) -> InMemoryDonationStore {
        var store = InMemoryDonationStore(events: pack.events)
        for index in 0..<40 {
            let date = now - Int64(index) * 3_600_000 * 7
            if pack.events.count > 0 && pack.events[0].fields.isEmpty {
                try? store.donate(event: 0, at: date, payload: [])
            }
            if pack.events.count > 1 {
                let payload = pack.events[1].fields.map { field -> RuntimeValue in
                    switch field.type {
                    case .bool: return .bool(index % 3 == 0)
                    case .int: return .int(Int64(index % 4))
                    case .double: return .double(Double(index % 5))
                    case .string: return .string(index % 2 == 0 ? "shoes" : "hats")
                    case .date: return .date(milliseconds: date)
                    case .duration: return .duration(milliseconds: Int64(index) * 1000)
                    }
                }
                try? store.donate(event: 1, at: date, payload: payload)
            }
        }
        return store
    }
}
