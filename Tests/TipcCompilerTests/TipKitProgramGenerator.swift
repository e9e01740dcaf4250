import TipRuntime
@testable import TipcCompiler
@testable import TipKitBridge

/// Random programs that TipKit can express at a minimum OS (docs/tipkit-bridge.md's
/// `tipkit-unsupported` list, read the other way), built from `ProgramGenerator`'s names and
/// texts: parameters of type Bool, Int, Double and String without `values`; events whose
/// donation limit is TipKit's (1,000 below iOS 26, any count from iOS 26, never a maximum age,
/// which the importer does not read); rules whose top-level `and`s each read one parameter or
/// one event, windows of whole minutes, hours, days or weeks; `maxDisplayDuration` and groups
/// from iOS 18.
struct TipKitProgramGenerator {
    var base: ProgramGenerator
    let minimumOS: TipKitGenerator.MinimumOS
    private let at = SourceRange(file: "generated", at: SourceLocation(line: 1, column: 1))

    init(seed: UInt64, minimumOS: TipKitGenerator.MinimumOS) {
        base = ProgramGenerator(seed: seed)
        self.minimumOS = minimumOS
    }

    struct Parameter { var name: String; var type: ValueType }
    struct Event { var name: String; var fields: [(String, ValueType)] }

    /// A name that is a Swift identifier (parameters, fields and groups must be).
    private mutating func identifier() -> Identifier {
        while true {
            let name = base.name()
            if NameSyntax.isPlainIdentifier(name.name) { return name }
        }
    }

    private mutating func int(_ range: ClosedRange<Int>) -> Int { base.int(range) }
    private mutating func chance(_ percent: Int) -> Bool { base.chance(percent) }
    private mutating func pick<T>(_ items: [T]) -> T { base.pick(items) }
    private func located<T>(_ value: T) -> Located<T> { Located(value, at: at) }
    private func node(_ kind: Expression.Kind) -> Expression { Expression(kind, at: at) }
    private func literal(_ literal: Literal) -> Expression { node(.literal(literal)) }
    private func id(_ name: String) -> Identifier { Identifier(name, at: at) }

    mutating func manifest() -> ManifestFile {
        var file = ManifestFile(path: "generated.yaml", format: .yaml, version: located(1), headRange: at)
        if chance(70) {
            file.displayFrequency = located(pick([.immediate, .hourly, .daily, .weekly, .monthly, .custom(seconds: int(1...200_000))]))
        }
        var parameters: [Parameter] = []
        for _ in 0..<int(0...4) {
            let name = identifier()
            let type = pick([ValueType.bool, .int, .double, .string])
            let value: Literal
            switch type {
            case .bool: value = .bool(chance(50))
            case .int: value = .int(int(-1_000...1_000))
            case .double: value = .double(pick([0.0, -2.5, 0.1, 3.0, 12345.678]))
            default: value = .string(base.text())
            }
            file.parameters.append(ParameterDecl(name: name, type: located(type), defaultValue: located(value), isTransient: chance(30),
                                                 range: at))
            parameters.append(Parameter(name: name.name, type: type))
        }
        var events: [Event] = []
        for _ in 0..<int(0...4) {
            let name = base.name()
            var fields: [(String, ValueType)] = []
            for _ in 0..<int(0...2) { fields.append((identifier().name, pick([.int, .string, .bool, .double]))) }
            let count = minimumOS >= .ios26 ? int(1...5) : 1_000
            file.events.append(EventDecl(name: name, fields: fields.map { FieldDecl(name: id($0.0), type: located($0.1)) },
                                         donationLimit: DonationLimitDecl(maximumCount: located(count)), range: at))
            events.append(Event(name: name.name, fields: fields))
        }
        for _ in 0..<int(0...4) {
            var tip = TipDecl(name: base.name(), title: .verbatim(located(base.nonEmptyText())), range: at)
            if chance(60) { tip.message = .verbatim(located(base.nonEmptyText())) }
            if chance(60) { tip.image = located(chance(70) ? .symbol(pick(ProgramGenerator.symbols)) : .asset("asset-\(int(1...9))")) }
            for index in 0..<int(0...2) {
                tip.actions.append(ActionDecl(id: id(pick(["learn-more", "ok", "not.now", "true"]) + "\(index)"), title: .verbatim(located(base.nonEmptyText()))))
            }
            if chance(40) { tip.maxDisplayCount = located(int(1...10)) }
            if minimumOS >= .ios18, chance(30) { tip.maxDisplayDurationSeconds = located(int(1...100_000)) }
            if chance(30) { tip.ignoresDisplayFrequency = located(chance(50)) }
            for _ in 0..<int(0...3) where !(parameters.isEmpty && events.isEmpty) {
                tip.rules.append(rule(parameters: parameters, events: events))
            }
            file.tips.append(tip)
        }
        if minimumOS >= .ios18 {
            var available = file.tips.map(\.name)
            while !available.isEmpty, chance(40) {
                let count = int(1...available.count)
                file.groups.append(GroupDecl(name: identifier(), priority: chance(80) ? located(pick(PackGroupPriority.allCases)) : nil,
                                             tips: Array(available.prefix(count)), range: at))
                available.removeFirst(count)
            }
        }
        return file
    }

    // MARK: - Rules

    /// Whole minutes, hours, days or weeks.
    private mutating func window() -> Expression {
        literal(.duration(seconds: int(1...90) * pick([60, 3_600, 86_400, 604_800])))
    }

    /// One to three clauses joined by `and`, each about one parameter or event, maybe under a
    /// `within` suffix.
    private mutating func rule(parameters: [Parameter], events: [Event]) -> Expression {
        var result = clause(parameters: parameters, events: events)
        for _ in 0..<int(0...2) {
            result = node(.binary(.and, result, clause(parameters: parameters, events: events)))
        }
        if Self.hasUnwindowedEvent(result), chance(40) { result = node(.within(result, window())) }
        return result
    }

    /// Whether a `within` suffix has an event to window in `expression`.
    private static func hasUnwindowedEvent(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .name: return true
        case .methodCall(let base, let method, _): return method.name != "within" && hasUnwindowedEvent(base)
        case .member(let base, _): return hasUnwindowedEvent(base)
        case .binary(_, let left, let right): return hasUnwindowedEvent(left) || hasUnwindowedEvent(right)
        case .unary(_, let operand): return hasUnwindowedEvent(operand)
        default: return false
        }
    }

    private mutating func clause(parameters: [Parameter], events: [Event]) -> Expression {
        if parameters.isEmpty || (!events.isEmpty && chance(50)) {
            let event = pick(events)
            var first = eventAtom(event)
            if chance(15) { first = node(.binary(.or, first, eventAtom(event))) }
            if chance(15) { first = node(.unary(.not, first)) }
            return first
        }
        let parameter = pick(parameters)
        var first = parameterAtom(parameter)
        if chance(15) { first = node(.binary(.or, first, parameterAtom(parameter))) }
        if chance(15) { first = node(.unary(.not, first)) }
        return first
    }

    private mutating func comparison() -> BinaryOperator {
        pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
    }

    private mutating func eventAtom(_ event: Event) -> Expression {
        var base = node(.name(event.name))
        if chance(30) { base = node(.methodCall(base, id("within"), [window()])) }
        if let field = event.fields.randomElement(using: &self.base.random), chance(50) {
            let value: Expression
            switch field.1 {
            case .int: value = literal(.int(int(0...9)))
            case .double: value = literal(.double(2.5))
            case .bool: value = literal(.bool(chance(50)))
            default: value = literal(.string(pick(["a", "b", "é 🎉", "quote \" and \\"])))
            }
            let op: BinaryOperator = field.1 == .bool || field.1 == .string ? pick([.equal, .notEqual]) : comparison()
            base = node(.methodCall(base, id("where"), [node(.binary(op, node(.name(field.0)), value))]))
        }
        if let field = event.fields.randomElement(using: &self.base.random), chance(30) {
            base = node(.methodCall(base, id(chance(50) ? "largestSubset" : "smallestSubset"), [node(.name(field.0))]))
        }
        return node(.binary(comparison(), node(.member(base, id("count"))), literal(.int(int(0...6)))))
    }

    private mutating func parameterAtom(_ parameter: Parameter) -> Expression {
        let value = node(.parameter(parameter.name))
        switch parameter.type {
        case .bool:
            return chance(50) ? value : node(.binary(pick([.equal, .notEqual]), value, literal(.bool(chance(50)))))
        case .int:
            var left = value
            if chance(50) { left = node(.binary(pick([.add, .subtract, .multiply, .remainder]), value, literal(.int(int(1...9))))) }
            if chance(20) { left = node(.unary(.negate, left)) }
            return node(.binary(comparison(), left, literal(.int(int(0...20)))))
        case .double:
            let left = chance(50) ? node(.binary(.multiply, value, literal(.double(2.5)))) : value
            return node(.binary(comparison(), left, chance(50) ? literal(.double(0.5)) : literal(.int(int(0...3)))))
        default:
            return node(.binary(pick([.equal, .notEqual]), value, literal(.string(pick(ProgramGenerator.texts)))))
        }
    }
}
