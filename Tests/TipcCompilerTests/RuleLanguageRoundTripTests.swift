import Testing
@testable import TipcCompiler
import TipcTestSupport

/// Generates well-typed rule expressions (as the parser would produce them: no negative
/// literals, no parentheses nodes).
struct RuleGenerator {
    var random: SeededGenerator
    private let none = SourceRange(file: "", at: SourceLocation(line: 0, column: 0))

    private static let names = ["searchPerformed", "itemViewed", "entered-detail-view", "a.b", "_x9", "and", "now", "in",
                                "date", "tip"]
    private static let fields = ["itemID", "category", "kebab-field", "or", "within"]
    private static let parameters = ["isLoggedIn", "plan", "sheet-open", "not", "x_1"]
    private static let strings = ["", "free", "quote\"d", "back\\slash", "line\nbreak", "tab\there", "emoji 😀", "é",
                                  "\u{0}\u{7}\u{1B}", "\u{2028}", "{}[]()#: !"]
    private static let doubles: [Double] = [0, 0.5, 2.5, 1e-7, 0.1, 1e20, 123_456.789, .leastNonzeroMagnitude, .greatestFiniteMagnitude, 3.0]

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    private mutating func pick<T>(_ items: [T]) -> T { items[Int(random.next() % UInt64(items.count))] }
    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }
    private func node(_ kind: Expression.Kind) -> Expression { Expression(kind, at: none) }
    private func id(_ name: String) -> Identifier { Identifier(name, at: none) }

    mutating func bool(depth: Int) -> Expression {
        if depth <= 0 || chance(15) {
            return chance(50) ? node(.literal(.bool(chance(50)))) : node(.parameter(pick(Self.parameters)))
        }
        switch random.next() % 9 {
        case 0: return node(.unary(.not, bool(depth: depth - 1)))
        case 1: return node(.binary(pick([.and, .or]), bool(depth: depth - 1), bool(depth: depth - 1)))
        case 2: return node(.binary(pick([.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]),
                                    int(depth: depth - 1), int(depth: depth - 1)))
        case 3: return node(.binary(pick([.less, .greaterOrEqual]), double(depth: depth - 1), double(depth: depth - 1)))
        case 4: return node(.binary(pick([.equal, .notEqual]), string(), string()))
        case 5: return node(.inList(string(), (0..<Int(random.next() % 4)).map { _ in string() }))
        case 6: return node(.within(bool(depth: depth - 1), duration(depth: depth - 1)))
        case 7: return node(.binary(pick([.less, .greater]), date(depth: depth - 1), date(depth: depth - 1)))
        default: return node(.binary(.equal, bool(depth: depth - 1), bool(depth: depth - 1)))
        }
    }

    mutating func int(depth: Int) -> Expression {
        if depth <= 0 || chance(20) {
            return chance(50) ? node(.literal(.int(Int(random.next() % 1_000_000_007)))) : node(.parameter(pick(Self.parameters)))
        }
        switch random.next() % 5 {
        case 0: return node(.member(collection(depth: depth - 1), id("count")))
        case 1: return node(.methodCall(collection(depth: depth - 1), id("distinct"), [node(.name(pick(Self.fields)))]))
        case 2: return node(.unary(.negate, int(depth: depth - 1)))
        case 3: return node(.literal(.int(chance(10) ? Int.max : Int(random.next() % 10))))
        default:
            return node(.binary(pick([.add, .subtract, .multiply, .divide, .remainder]), int(depth: depth - 1), int(depth: depth - 1)))
        }
    }

    mutating func double(depth: Int) -> Expression {
        if depth <= 0 || chance(30) { return node(.literal(.double(pick(Self.doubles)))) }
        return chance(30)
            ? node(.unary(.negate, double(depth: depth - 1)))
            : node(.binary(pick([.add, .subtract, .multiply, .divide]), double(depth: depth - 1), int(depth: depth - 1)))
    }

    mutating func string() -> Expression {
        chance(70) ? node(.literal(.string(pick(Self.strings)))) : node(.name(pick(Self.fields)))
    }

    mutating func duration(depth: Int) -> Expression {
        if depth <= 0 || chance(60) {
            return node(.literal(.duration(seconds: pick([0, 1, 45, 60, 3_600, 86_400, 129_600, 604_800, 1_000_000]))))
        }
        return node(.binary(pick([.add, .subtract]), duration(depth: depth - 1), duration(depth: depth - 1)))
    }

    mutating func date(depth: Int) -> Expression {
        switch random.next() % 3 {
        case 0: return node(.now)
        case 1: return node(.functionCall(id("date"), [node(.literal(.string("2026-12-24T00:00:00Z")))]))
        default: return node(.binary(pick([.add, .subtract]), date(depth: depth - 1), duration(depth: depth - 1)))
        }
    }

    mutating func collection(depth: Int) -> Expression {
        if depth <= 0 || chance(30) { return node(.name(pick(Self.names))) }
        switch random.next() % 4 {
        case 0: return node(.methodCall(collection(depth: depth - 1), id("within"), [duration(depth: depth - 1)]))
        case 1: return node(.methodCall(collection(depth: depth - 1), id("where"), [bool(depth: depth - 1)]))
        case 2: return node(.methodCall(collection(depth: depth - 1), id(pick(["largestSubset", "smallestSubset"])),
                                        [node(.name(pick(Self.fields)))]))
        default: return node(.member(collection(depth: depth - 1), id(pick(["count", "odd-member"]))))
        }
    }
}

@Suite struct RuleLanguageRoundTripTests {
    @Test func printThenParseGivesTheSameTree() {
        var generator = RuleGenerator(seed: 0x7469_7063)
        var checked = 0
        for round in 0..<1_200 {
            let expression = generator.bool(depth: 1 + round % 7)
            let printed = ExpressionPrinter.print(expression)
            let (parsed, diagnostics) = parseRule(printed)
            #expect(diagnostics.isEmpty, "\(printed): \(diagnostics.map(\.message))")
            guard parsed.strippingRanges() == expression else {
                Issue.record("round \(round): \(printed)\n  expected \(sexpr(expression))\n  parsed   \(sexpr(parsed))")
                return
            }
            // Canonical: printing the parsed tree gives the same text.
            #expect(ExpressionPrinter.print(parsed) == printed)
            checked += 1
        }
        #expect(checked == 1_200)
    }

    @Test func theGeneratorIsDeterministic() {
        var first = RuleGenerator(seed: 42)
        var second = RuleGenerator(seed: 42)
        let a = (0..<20).map { _ in ExpressionPrinter.print(first.bool(depth: 5)) }
        let b = (0..<20).map { _ in ExpressionPrinter.print(second.bool(depth: 5)) }
        #expect(a == b)
        #expect(Set(a).count > 10)
    }

    @Test(arguments: [
        ("a or b and c", "a or b and c"), ("(a or b) and c", "(a or b) and c"), ("!(a && b) || c", "not (a and b) or c"),
        ("(a.count >= 3) within (3d)", "a.count >= 3 within 3d"), ("(not a) within 1d", "not a within 1d"),
        ("not (a within 1d)", "not (a within 1d)"), ("a - (b - c)", "a - (b - c)"), ("(a - b) - c", "a - b - c"),
        ("-(a.count)", "-a.count"), ("(-a).count", "(-a).count"), ("(a == b) == c", "(a == b) == c"),
        ("a == (b == c)", "a == (b == c)"), ("(a + b) * c", "(a + b) * c"), ("x in [1 , 2,]", "x in [1, 2]"),
        ("`and` or `x-y`.`m-n`(`f.g`)", "`and` or `x-y`.`m-n`(`f.g`)"), ("e.within(36h)", "e.within(1d12h)"),
        ("2.50", "2.5"), ("1e3", "1000.0"), ("1_000", "1000"), (#""\u{41}\u{7}""#, #""A\u{7}""#), ("$`a-b` == $c", "$`a-b` == $c"),
        ("e.where(not (x > 1))", "e.where(not x > 1)"), ("(not a) == b", "(not a) == b"),
    ])
    func printsCanonically(_ text: String, _ canonical: String) {
        let (expression, diagnostics) = parseRule(text)
        #expect(diagnostics.isEmpty)
        #expect(ExpressionPrinter.print(expression) == canonical)
    }

    @Test func printsValuesTheParserNeverProduces() {
        let none = SourceRange(file: "", at: SourceLocation(line: 1, column: 1))
        func literal(_ value: Literal) -> Expression { Expression(.literal(value), at: none) }
        #expect(ExpressionPrinter.print(Expression(.member(literal(.int(-3)), Identifier("x", at: none)), at: none)) == "(-3).x")
        #expect(ExpressionPrinter.print(literal(.double(.infinity))) == "(1.0 / 0.0)")
        #expect(ExpressionPrinter.print(literal(.duration(seconds: -90))) == "-1m30s")
        #expect(ExpressionPrinter.print(Expression(.error, at: none)) == "<error>")
    }
}
