import TipRuntime
@testable import TipcCompiler
import TipcTestSupport

/// Generates random well-typed manifests (no errors; warnings allowed) that stress the
/// printers: names that need backticks or YAML quotes, texts with YAML indicators, quotes,
/// escapes and non-ASCII characters, every declaration option and every rule form.
struct ProgramGenerator {
    var random: SeededGenerator
    private var counter = 0
    private let at = SourceRange(file: "generated", at: SourceLocation(line: 1, column: 1))

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    static let nameStems = ["a", "item", "search-performed", "app.launched", "now", "within", "limit", "true", "null",
                            "in", "tip", "_x", "rule", "Title", "yes"]
    static let texts = ["Try It", "Use: filters", "a # not a comment", "#hash", "- dash", "[brackets]", "{{braces}}",
                        "true", "42", "1.5", "null", "~", "", " padded ", "quote \" and \\ backslash", "it's",
                        "line\nbreak", "tab\there", "émoji 🎉", "colon:", "`tick`", "!bang", "&amp", "*star", "@at",
                        "%percent", "'single'", "? question", "a, b", "x: y # z"]
    static let symbols = ["heart", "star.fill", "hand.draw", "slider.horizontal.3", "1.circle"]

    mutating func int(_ range: ClosedRange<Int>) -> Int { Int.random(in: range, using: &random) }
    mutating func chance(_ percent: Int) -> Bool { int(1...100) <= percent }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func name() -> Identifier {
        counter += 1
        let stem = pick(Self.nameStems)
        return Identifier(chance(30) ? stem + "\(counter)" : stem + "_\(counter)", at: at)
    }

    mutating func text() -> String { pick(Self.texts) }

    mutating func nonEmptyText() -> String {
        let text = text()
        return text.isEmpty ? "Title" : text
    }

    mutating func located<T>(_ value: T) -> Located<T> { Located(value, at: at) }

    /// One text for every locale (its template is compared through the text).
    mutating func plainText(_ text: String) -> TextDecl { .plain(Located(text, at: at), template: []) }

    mutating func comments() -> [String] {
        (0..<int(0...2)).map { _ in pick(["about this", "", "  indented", "uses: colons # and hashes", "ünïcödé"]) }
    }

    // MARK: - Program

    struct Parameter { var name: String; var type: ValueType; var values: [String]? }
    struct Event { var name: String; var fields: [(String, ValueType)] }

    mutating func manifest() -> ManifestFile {
        var file = ManifestFile(path: "generated.yaml", format: .yaml, version: located(1), headRange: at)
        if chance(70) {
            file.displayFrequency = located(pick([.immediate, .hourly, .daily, .weekly, .monthly,
                                                  .custom(seconds: int(1...200_000))]))
        }
        var parameters: [Parameter] = []
        for _ in 0..<int(0...5) {
            let (decl, parameter) = parameterDecl()
            file.parameters.append(decl)
            parameters.append(parameter)
        }
        var events: [Event] = []
        for _ in 0..<int(0...4) {
            let (decl, event) = eventDecl()
            file.events.append(decl)
            events.append(event)
        }
        for _ in 0..<int(0...4) {
            file.tips.append(tipDecl(parameters: parameters, events: events))
        }
        var available = file.tips.map(\.name)
        while !available.isEmpty, chance(40) {
            let count = int(1...available.count)
            let members = Array(available.prefix(count))
            available.removeFirst(count)
            let priority: Located<PackGroupPriority>? = chance(80) ? located(pick(PackGroupPriority.allCases)) : nil
            file.groups.append(GroupDecl(name: name(), priority: priority, tips: members, comments: comments(), range: at))
        }
        return file
    }

    private mutating func parameterDecl() -> (ParameterDecl, Parameter) {
        let name = name()
        let type = pick(ValueType.allCases)
        var values: [String]?
        let value: Literal
        switch type {
        case .bool: value = .bool(chance(50))
        case .int: value = .int(int(-1_000...1_000))
        case .double: value = .double(pick([0.0, -2.5, 0.1, 1e-7, 3.0, 12345.678, -0.0]))
        case .string:
            if chance(50) {
                var set: [String] = []
                for _ in 0..<int(1...3) {
                    let text = text()
                    if !set.contains(text) { set.append(text) }
                }
                values = set
                value = .string(pick(set))
            } else {
                value = .string(text())
            }
        case .date: value = .string(pick(["2026-01-01T00:00:00Z", "2025-06-30T12:34:56Z"]))
        case .duration: value = .duration(seconds: int(1...1_000_000))
        }
        let decl = ParameterDecl(name: name, type: located(type), defaultValue: located(value),
                                 values: values.map { $0.map { located($0) } }, isTransient: chance(30),
                                 comments: comments(), range: at)
        return (decl, Parameter(name: name.name, type: type, values: values))
    }

    private mutating func eventDecl() -> (EventDecl, Event) {
        let name = name()
        var fields: [(String, ValueType)] = []
        for _ in 0..<int(0...3) {
            fields.append((self.name().name, pick([.int, .string, .bool, .double])))
        }
        var limit: DonationLimitDecl?
        if chance(40) {
            limit = DonationLimitDecl(maximumCount: chance(70) ? located(int(1...10_000)) : nil,
                                      maximumAgeSeconds: chance(70) ? located(int(1...10_000_000)) : nil)
        }
        let decl = EventDecl(name: name, fields: fields.map { FieldDecl(name: Identifier($0.0, at: at), type: located($0.1)) },
                             donationLimit: limit, comments: comments(), range: at)
        return (decl, Event(name: name.name, fields: fields))
    }

    private mutating func tipDecl(parameters: [Parameter], events: [Event]) -> TipDecl {
        var tip = TipDecl(name: name(), title: plainText(nonEmptyText()), comments: comments(), range: at)
        if chance(60) { tip.message = plainText(nonEmptyText()) }
        if chance(60) { tip.image = located(chance(70) ? .symbol(pick(Self.symbols)) : .asset(text().isEmpty ? "asset" : "asset-\(int(1...9))")) }
        for index in 0..<int(0...2) {
            tip.actions.append(ActionDecl(id: Identifier(pick(["learn-more", "ok", "not.now", "true"]) + "\(index)", at: at),
                                          title: plainText(nonEmptyText())))
        }
        if chance(40) { tip.maxDisplayCount = located(int(1...10)) }
        if chance(30) { tip.maxDisplayDurationSeconds = located(int(1...100_000)) }
        if chance(30) { tip.ignoresDisplayFrequency = located(chance(50)) }
        for _ in 0..<int(0...3) {
            tip.rules.append(rule(parameters: parameters, events: events, depth: 0))
        }
        return tip
    }

    // MARK: - Rules

    private func node(_ kind: Expression.Kind) -> Expression { Expression(kind, at: at) }
    private func literal(_ literal: Literal) -> Expression { node(.literal(literal)) }
    private func id(_ name: String) -> Identifier { Identifier(name, at: at) }

    private mutating func rule(parameters: [Parameter], events: [Event], depth: Int) -> Expression {
        let choice = depth >= 3 ? int(3...9) : int(0...9)
        switch choice {
        case 0:
            return node(.unary(.not, rule(parameters: parameters, events: events, depth: depth + 1)))
        case 1, 2:
            let op: BinaryOperator = chance(50) ? .and : .or
            return node(.binary(op, rule(parameters: parameters, events: events, depth: depth + 1),
                                rule(parameters: parameters, events: events, depth: depth + 1)))
        default:
            return atom(parameters: parameters, events: events)
        }
    }

    private mutating func comparison() -> BinaryOperator {
        pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
    }

    /// A Bool expression without `and`/`or`/`not` at its top.
    private mutating func atom(parameters: [Parameter], events: [Event]) -> Expression {
        let candidate = events.isEmpty ? 6 : int(0...6)
        switch candidate {
        case 0, 1:
            let event = pick(events)
            let count = node(.member(collection(event), id("count")))
            let compared = node(.binary(comparison(), count, literal(.int(int(0...20)))))
            if !hasWindow(count), chance(50) {
                return node(.within(compared, literal(.duration(seconds: int(1...2_000_000)))))
            }
            return compared
        case 2:
            let event = pick(events)
            guard let field = event.fields.first else { return literal(.bool(chance(50))) }
            let distinct = node(.methodCall(node(.name(event.name)), id("distinct"), [node(.name(field.0))]))
            return node(.binary(comparison(), distinct, literal(.int(int(0...5)))))
        default:
            guard !parameters.isEmpty else { return literal(.bool(chance(50))) }
            return parameterAtom(pick(parameters), events: events)
        }
    }

    private func hasWindow(_ expression: Expression) -> Bool {
        switch expression.kind {
        case .methodCall(let base, let name, _): return name.name == "within" || hasWindow(base)
        case .member(let base, _): return hasWindow(base)
        default: return false
        }
    }

    /// A collection of `event`'s donations, maybe windowed, filtered or grouped.
    private mutating func collection(_ event: Event) -> Expression {
        var base = node(.name(event.name))
        if chance(30) { base = node(.methodCall(base, id("within"), [literal(.duration(seconds: int(1...500_000)))])) }
        if let field = event.fields.randomElement(using: &random), chance(50) {
            switch int(0...2) {
            case 0:
                let value: Expression
                switch field.1 {
                case .int: value = literal(.int(int(0...9)))
                case .double: value = literal(.double(2.5))
                case .bool: value = literal(.bool(chance(50)))
                default: value = literal(.string(text()))
                }
                let op: BinaryOperator = field.1 == .bool || field.1 == .string ? pick([.equal, .notEqual]) : comparison()
                base = node(.methodCall(base, id("where"), [node(.binary(op, node(.name(field.0)), value))]))
            case 1: base = node(.methodCall(base, id("largestSubset"), [node(.name(field.0))]))
            default: base = node(.methodCall(base, id("smallestSubset"), [node(.name(field.0))]))
            }
        }
        return base
    }

    private mutating func parameterAtom(_ parameter: Parameter, events: [Event]) -> Expression {
        let value = node(.parameter(parameter.name))
        switch parameter.type {
        case .bool:
            return chance(50) ? value : node(.binary(pick([.equal, .notEqual]), value, literal(.bool(chance(50)))))
        case .int:
            var left = value
            if chance(50) {
                left = node(.binary(pick([.add, .subtract, .multiply, .remainder]), value, literal(.int(int(1...9)))))
            }
            if chance(20) { left = node(.unary(.negate, left)) }
            if let event = events.first, chance(30) {
                return node(.binary(comparison(), left, node(.member(node(.name(event.name)), id("count")))))
            }
            return node(.binary(comparison(), left, literal(.int(int(0...100)))))
        case .double:
            let left = chance(50) ? node(.binary(.multiply, value, literal(.double(2.5)))) : value
            return node(.binary(comparison(), left, chance(50) ? literal(.double(0.5)) : literal(.int(int(0...3)))))
        case .string:
            let options = parameter.values ?? [text(), text()]
            if chance(50) {
                return node(.inList(value, options.map { literal(.string($0)) }))
            }
            return node(.binary(pick([.equal, .notEqual]), value, literal(.string(pick(options)))))
        case .date:
            let shifted = node(.binary(pick([.add, .subtract]), value, literal(.duration(seconds: int(1...1_000_000)))))
            let other = chance(50) ? node(.now)
                : node(.functionCall(id("date"), [literal(.string("2026-12-24T00:00:00Z"))]))
            return node(.binary(comparison(), shifted, other))
        case .duration:
            return node(.binary(comparison(), value, literal(.duration(seconds: int(1...100_000)))))
        }
    }
}
