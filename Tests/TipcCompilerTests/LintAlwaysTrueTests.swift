import Testing
@testable import TipcCompiler

private func makeBuilder() -> LintProgramBuilder {
    var b = LintProgramBuilder()
    b.parameter("signedIn", .bool)
    b.parameter("launches", .int)
    b.parameter("rating", .double)
    b.parameter("plan", .string, values: ["free", "pro", "team"])
    b.parameter("nickname", .string)
    b.event("viewed", fields: [("itemID", .int)])
    return b
}

private func alwaysTrue(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.filter { $0.code == .alwaysTrue }
}

@Suite("Lint: always-true")
struct LintAlwaysTrueTests {
    @Test func warnsAtTheRuleThatAlwaysHolds() throws {
        var b = makeBuilder()
        b.tip("t", b.p("signedIn"), b.e("viewed").count.ge(0))
        let warnings = alwaysTrue(b.lint())
        let warning = try #require(warnings.first)
        #expect(warnings.count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.range == b.ruleRange(tip: 0, rule: 1))
        #expect(warning.message == "this rule of tip 't' holds in every state")
    }

    @Test(arguments: [
        "count at least zero", "distinct at least zero", "negated negative count", "bool or its negation",
        "bool equal true or false", "int split", "every value listed", "value outside the values excluded",
        "true", "constant comparison", "promoted int split", "negative constant",
    ])
    func provablyTrueRulesWarn(_ name: String) {
        var b = makeBuilder()
        let n = b.p("launches")
        let rule: CheckedExpression
        switch name {
        case "count at least zero": rule = b.e("viewed").within(days: 3).count.ge(0)
        case "distinct at least zero": rule = b.e("viewed").distinct(0).gt(-1)
        case "negated negative count": rule = Rule.not(b.e("viewed").count.lt(0))
        case "bool or its negation": rule = Rule.any(b.p("signedIn"), Rule.not(b.p("signedIn")))
        case "bool equal true or false": rule = Rule.any(b.p("signedIn").eq(true), b.p("signedIn").eq(false))
        case "int split": rule = Rule.any(n.gt(1), n.le(1))
        case "every value listed": rule = b.p("plan").isIn(["free", "pro", "team"])
        case "value outside the values excluded": rule = b.p("plan").ne("enterprise")
        case "true": rule = Rule.always
        case "constant comparison": rule = Rule.constant(.int(1)).compare(.less, Rule.constant(.int(2)))
        case "promoted int split": rule = Rule.any(n.lt(2.5), n.ge(3))
        case "negative constant": rule = Rule.any(n.gt(Rule.constant(.int(1)).negated), n.le(Rule.constant(.int(1)).negated))
        default:
            Issue.record("unknown case \(name)")
            return
        }
        b.tip("t", rule)
        #expect(alwaysTrue(b.lint()).count == 1, "\(name)")
    }

    @Test func rulesThatCanFailDoNotWarn() {
        var b = makeBuilder()
        let n = b.p("launches")
        b.tip("t",
              Rule.any(n.gt(1), n.le(1)).or(b.e("viewed").count.divided(by: n).gt(1)),
              Rule.any(n.plus(0).gt(1), n.plus(0).le(1)))
        #expect(alwaysTrue(b.lint()).isEmpty)
    }

    @Test func rulesThatMayBeFalseDoNotWarn() {
        var b = makeBuilder()
        let n = b.p("launches")
        b.tip("t",
              b.e("viewed").count.ge(1),
              Rule.any(n.gt(1), n.lt(1)),
              b.p("plan").isIn(["free", "pro"]),
              b.p("nickname").ne("x"),
              Rule.any(b.p("rating").gt(1), b.p("rating").le(1)),  // NaN
              Rule.any(b.p("signedIn"), b.e("viewed").count.ge(1)),
              b.p("signedIn"))
        #expect(alwaysTrue(b.lint()).isEmpty, "\(alwaysTrue(b.lint()).map(\.range))")
    }
}
