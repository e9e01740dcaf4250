import Testing
@testable import TipcCompiler
import TipRuntime

/// Random rules over a few quantities, so that some constrain a quantity twice and some do not.
private struct RandomRules {
    private var state: UInt64
    private var column = 0

    init(seed: UInt64) { state = seed }

    static let parameters: [PackParameter] = [
        PackParameter(name: "flag", type: .bool, defaultValue: .bool(false)),
        PackParameter(name: "other", type: .bool, defaultValue: .bool(false)),
        PackParameter(name: "launches", type: .int, defaultValue: .int(0)),
        PackParameter(name: "rating", type: .double, defaultValue: .double(0)),
        PackParameter(name: "plan", type: .string, defaultValue: .string("free"), values: ["free", "pro", "team"]),
        PackParameter(name: "nickname", type: .string, defaultValue: .string("")),
        PackParameter(name: "trialEnds", type: .date, defaultValue: .date(milliseconds: 0)),
    ]

    mutating func next(_ bound: Int) -> Int {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((state >> 33) % UInt64(bound))
    }

    private mutating func pick<T>(_ choices: [T]) -> T { choices[next(choices.count)] }

    private mutating func node(_ kind: CheckedExpression.Kind, _ type: ExpressionType) -> CheckedExpression {
        column += 1
        return CheckedExpression(kind, type: type, range: SourceRange(file: "random.tips", at: SourceLocation(line: 1, column: column)))
    }

    private mutating func constant(_ value: RuntimeValue) -> CheckedExpression { node(.constant(value), .value(value.type)) }

    private mutating func integerQuantity() -> CheckedExpression {
        let event = node(.event(next(2)), .collection(event: 0))
        switch next(4) {
        case 0: return node(.parameter(2), .value(.int))
        case 1: return node(.count(event), .value(.int))
        case 2: return node(.count(node(.within(event, windowMilliseconds: 1 + next(2)), .collection(event: 0))), .value(.int))
        default: return node(.distinct(event, field: next(2)), .value(.int))
        }
    }

    private mutating func atom() -> CheckedExpression {
        let op = pick([ComparisonOperator.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual])
        switch next(10) {
        case 0:
            return node(.parameter(next(2)), .value(.bool))
        case 1, 2:
            let quantity = integerQuantity(), value = constant(.int(Int64(pick([-1, 0, 1, 3, Int.max, Int.min]))))
            return next(3) == 0 ? node(.compare(op, value, quantity), .value(.bool)) : node(.compare(op, quantity, value), .value(.bool))
        case 3:
            let value = constant(.double(pick([0.5, 1, -0.5, .nan, .infinity])))
            let subject = next(2) == 0 ? node(.parameter(3), .value(.double)) : node(.intToDouble(integerQuantity()), .value(.double))
            return node(.compare(op, subject, value), .value(.bool))
        case 4:
            let items = (0..<next(4)).map { _ in RuntimeValue.string(pick(["free", "pro", "team", "other"])) }
            return node(.inList(node(.parameter(4 + next(2)), .value(.string)), items), .value(.bool))
        case 5:
            let text = constant(.string(pick(["free", "pro", "other"])))
            return node(.compare(next(3) == 0 ? op : pick([.equal, .notEqual]), node(.parameter(4 + next(2)), .value(.string)), text), .value(.bool))
        case 6:
            let items = (0..<next(4)).map { _ in RuntimeValue.int(pick([0, 1, 2])) }
            return node(.inList(integerQuantity(), items), .value(.bool))
        case 7:
            let subject = next(2) == 0 ? node(.parameter(next(2)), .value(.bool)) : atom()
            if next(2) == 0 { return node(.compare(pick([.equal, .notEqual]), subject, constant(.bool(next(2) == 0))), .value(.bool)) }
            return node(.inList(subject, (0..<next(3)).map { _ in .bool(next(2) == 0) }), .value(.bool))
        case 8:
            return next(2) == 0 ? constant(.bool(next(2) == 0)) : node(.compare(op, constant(.int(Int64(next(3)))), constant(.int(Int64(next(3))))), .value(.bool))
        default:
            return node(.compare(op, node(.parameter(6), .value(.date)), constant(.date(milliseconds: Int64(next(3) - 1)))), .value(.bool))
        }
    }

    mutating func rule(depth: Int) -> CheckedExpression {
        if depth == 0 || next(3) == 0 { return atom() }
        if next(5) == 0 { return node(.not(rule(depth: depth - 1)), .value(.bool)) }
        let op: LogicalOperator = next(2) == 0 ? .and : .or
        var chain = rule(depth: depth - 1)
        for _ in 0...next(3) { chain = node(.logical(op, chain, rule(depth: depth - 1)), .value(.bool)) }
        return chain
    }
}

@Suite("Lint: quick outcomes")
struct LintOutcomesTests {
    /// The quick answers must be exactly what the full analysis would say whenever they are
    /// used: a rule's outcomes when it constrains no quantity twice, and "the rules hold
    /// together" when no quantity is constrained twice in the tip.
    @Test func quickAnswersAgreeWithTheFormulas() {
        var random = RandomRules(seed: 7)
        var extraction = Lints.ConstraintExtraction(parameters: RandomRules.parameters)
        var outcomes: [Lints.RuleOutcomes] = []
        var exactRules = 0, settledTips = 0, warningTips = 0
        for _ in 0..<3_000 {
            let rules = (0...random.next(3)).map { _ in random.rule(depth: random.next(4)) }
            let tip = CheckedTip(name: "t", title: "t", rules: rules, range: LintProgramBuilder.placeholder)
            extraction.startTip()
            let sharesQuantities = extraction.outcomes(ofRules: rules, into: &outcomes)
            for (rule, outcome) in zip(rules, outcomes) where outcome.isExact {
                exactRules += 1
                #expect(outcome.outcomes.canHold == !extraction.formula(rule, holds: true).isUnsatisfiable)
                #expect(outcome.outcomes.canBeFalse == !extraction.formula(rule, holds: false).isUnsatisfiable)
            }
            let full = Lints.UnsatisfiableTips.diagnostic(for: tip, extraction: &extraction)
            if full != nil { warningTips += 1 }
            if Lints.UnsatisfiableTips.holdTogether(outcomes, sharesQuantities: sharesQuantities) {
                settledTips += 1
                #expect(full == nil)
            }
        }
        // The random rules exercise both paths.
        #expect(exactRules > 1_000 && settledTips > 300 && warningTips > 300)
    }

    /// A chain of one operator is walked to its deepest operand however long it is (short
    /// chains and long ones are followed differently): `false and …` never holds and
    /// `true or …` is never false, whatever follows.
    @Test(arguments: [LogicalOperator.and, .or])
    func longChainsAreWalkedToTheirEnd(_ op: LogicalOperator) {
        var random = RandomRules(seed: 11)
        var extraction = Lints.ConstraintExtraction(parameters: RandomRules.parameters)
        var outcomes: [Lints.RuleOutcomes] = []
        for length in [2, 64, 65, 66, 67, 500] {
            var chain = CheckedExpression(.constant(.bool(op == .or)), type: .value(.bool), range: LintProgramBuilder.placeholder)
            for _ in 1..<length {
                chain = CheckedExpression(.logical(op, chain, random.rule(depth: 1)), type: .value(.bool), range: LintProgramBuilder.placeholder)
            }
            extraction.startTip()
            _ = extraction.outcomes(ofRules: [chain], into: &outcomes)
            #expect(op == .and ? !outcomes[0].outcomes.canHold : !outcomes[0].outcomes.canBeFalse, "chain of \(length)")
            if outcomes[0].isExact {
                #expect(outcomes[0].outcomes.canHold == !extraction.formula(chain, holds: true).isUnsatisfiable)
                #expect(outcomes[0].outcomes.canBeFalse == !extraction.formula(chain, holds: false).isUnsatisfiable)
            }
        }
    }
}
