import Testing
@testable import TipcCompiler

/// A program with one of each kind of quantity the lints reason about.
private func makeBuilder() -> LintProgramBuilder {
    var b = LintProgramBuilder()
    b.parameter("signedIn", .bool)
    b.parameter("premium", .bool)
    b.parameter("launches", .int)
    b.parameter("rating", .double)
    b.parameter("plan", .string, values: ["free", "pro", "team"])
    b.parameter("nickname", .string)
    b.parameter("trialEnds", .date)
    b.event("viewed", fields: [("category", .string), ("itemID", .int)])
    b.event("shared")
    return b
}

private func unsatisfiable(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
    diagnostics.filter { $0.code == .unsatisfiable }
}

@Suite("Lint: unsatisfiable")
struct LintUnsatisfiableTests {
    // MARK: - Warns

    @Test func countBoundsThatExcludeEachOtherWarnAtTheTipWithANotePerRule() throws {
        var b = makeBuilder()
        b.tip("share", b.e("viewed").count.ge(3), b.e("viewed").count.lt(2))
        let warning = try #require(unsatisfiable(b.lint()).first)
        #expect(unsatisfiable(b.lint()).count == 1)
        #expect(warning.severity == .warning)
        #expect(warning.message == "tip 'share' can never be displayed: its rules contradict each other")
        #expect(warning.range == b.tips[0].range)
        #expect(warning.notes.map(\.range) == [b.ruleRange(tip: 0, rule: 0), b.ruleRange(tip: 0, rule: 1)])
    }

    @Test func onlyTheConflictingRulesAreNamed() throws {
        var b = makeBuilder()
        b.tip("t", b.p("signedIn"), b.p("launches").gt(5), b.e("shared").count.ge(1), b.p("launches").lt(3))
        let warning = try #require(unsatisfiable(b.lint()).first)
        #expect(warning.notes.map(\.range) == [b.ruleRange(tip: 0, rule: 1), b.ruleRange(tip: 0, rule: 3)])
        #expect(warning.notes.map(\.message) == ["rule 2 conflicts with rule 4", "rule 4 conflicts with rule 2"])
        #expect(warning.help == "rules 2 and 4 cannot hold together; relax or remove one of them")
    }

    @Test func stringOutsideItsValuesCanNeverHold() throws {
        var b = makeBuilder()
        b.tip("upsell", b.p("signedIn"), b.p("plan").eq("enterprise"))
        let warning = try #require(unsatisfiable(b.lint()).first)
        #expect(warning.message == "tip 'upsell' can never be displayed: one of its rules can never hold")
        #expect(warning.notes == [DiagnosticNote("rule 2 can never hold", at: b.ruleRange(tip: 0, rule: 1))])
    }

    @Test func countsAreNeverNegative() {
        var b = makeBuilder()
        b.tip("a", b.e("viewed").count.lt(0))
        b.tip("b", b.e("viewed").distinct(b.fieldIndex("itemID", of: "viewed")).le(-1))
        b.tip("c", Rule.constant(.int(0)).compare(.greater, b.e("shared").within(days: 2).count))
        #expect(unsatisfiable(b.lint()).map(\.range) == b.tips.map(\.range))
    }

    @Test(arguments: [
        "bool and its negation", "bool compared with constants", "bool not-equal", "ints", "int equal and not equal",
        "double bounds", "int promoted to double", "in-list against equality", "every value excluded",
        "free strings", "dates", "windowed counts", "false rule", "negated or", "constant on the left",
    ])
    func contradictionsAcrossRules(_ name: String) {
        var b = makeBuilder()
        let viewed = b.e("viewed")
        let rules: [CheckedExpression]
        switch name {
        case "bool and its negation": rules = [b.p("signedIn"), Rule.not(b.p("signedIn"))]
        case "bool compared with constants": rules = [b.p("signedIn").eq(true), b.p("signedIn").eq(false)]
        case "bool not-equal": rules = [b.p("signedIn"), b.p("signedIn").ne(true)]
        case "ints": rules = [b.p("launches").gt(5), b.p("launches").lt(3)]
        case "int equal and not equal": rules = [b.p("launches").eq(3), b.p("launches").ne(3)]
        case "double bounds": rules = [b.p("rating").gt(2.5), Rule.not(b.p("rating").gt(1))]
        case "int promoted to double": rules = [b.p("launches").gt(2.5), b.p("launches").lt(3)]
        case "in-list against equality": rules = [b.p("plan").isIn(["pro", "team"]), b.p("plan").eq("free")]
        case "every value excluded": rules = [Rule.all(b.p("plan").ne("free"), b.p("plan").ne("pro")), b.p("plan").ne("team")]
        case "free strings": rules = [b.p("nickname").eq("ada"), b.p("nickname").eq("grace")]
        case "dates": rules = [b.p("trialEnds").compare(.less, Rule.date(1_000)), b.p("trialEnds").compare(.greaterOrEqual, Rule.date(1_000))]
        case "windowed counts": rules = [viewed.within(days: 3).count.ge(3), viewed.within(days: 3).count.eq(0)]
        case "false rule": rules = [b.p("signedIn"), Rule.never]
        case "negated or": rules = [Rule.not(Rule.any(viewed.count.ge(1), b.p("premium"))), viewed.count.ge(2)]
        case "constant on the left": rules = [Rule.constant(.int(3)).compare(.less, viewed.count), viewed.count.le(3)]
        default:
            Issue.record("unknown case \(name)")
            return
        }
        b.tip("t", rules: rules)
        #expect(unsatisfiable(b.lint()).count == 1, "\(name)")
    }

    @Test func threeRulesConflictingTogetherAreAllNamed() throws {
        var b = makeBuilder()
        let n = b.p("launches")
        b.tip("t", Rule.any(n.lt(0), b.p("signedIn")), n.ge(0), Rule.not(b.p("signedIn")))
        let warning = try #require(unsatisfiable(b.lint()).first)
        #expect(warning.notes.map(\.message) == ["rule 1 conflicts with rules 2 and 3", "rule 2 conflicts with rules 1 and 3",
                                                 "rule 3 conflicts with rules 1 and 2"])
    }

    @Test func disjunctionsThatAllConflictWarn() {
        var b = makeBuilder()
        let n = b.p("launches")
        b.tip("t", Rule.any(n.gt(5), n.lt(0)), Rule.all(n.ge(0), n.le(5)))
        #expect(unsatisfiable(b.lint()).count == 1)
    }

    @Test func contradictionInsideOneRule() throws {
        var b = makeBuilder()
        b.tip("t", Rule.all(b.p("premium"), b.e("shared").count.ge(1), Rule.not(b.p("premium"))))
        let warning = try #require(unsatisfiable(b.lint()).first)
        #expect(warning.notes.count == 1)
    }

    @Test func sameQueryWithFilterIsOneQuantity() {
        var b = makeBuilder()
        let shoes = b.field("category", of: "viewed").compare(.equal, Rule.constant(.string("shoes")))
        b.tip("t", b.e("viewed").filtered(shoes).count.ge(3), b.e("viewed").filtered(shoes).count.lt(3))
        #expect(unsatisfiable(b.lint()).count == 1)
    }

    // MARK: - Does not warn

    @Test func satisfiableTipsDoNotWarn() {
        var b = makeBuilder()
        let viewed = b.e("viewed")
        let n = b.p("launches")
        b.tip("plain", b.p("signedIn"), viewed.count.ge(3), b.p("plan").eq("pro"))
        b.tip("or", Rule.any(n.gt(5), n.lt(3)), n.lt(3))
        b.tip("differentWindows", viewed.count.ge(3), viewed.within(days: 3).count.lt(2))
        b.tip("twoWindows", viewed.within(days: 7).count.ge(3), viewed.within(days: 3).count.lt(2))
        b.tip("differentEvents", viewed.count.ge(3), b.e("shared").count.eq(0))
        b.tip("touching", n.ge(3), n.le(3))
        b.tip("promotedTouching", n.gt(2.5), n.lt(3.5))
        b.tip("freeString", b.p("nickname").eq("anything"))
        b.tip("boolAndOther", b.p("signedIn"), Rule.not(b.p("premium")))
        b.tip("noRules")
        #expect(unsatisfiable(b.lint()).isEmpty, "\(unsatisfiable(b.lint()).map(\.message))")
    }

    @Test func differentFiltersAreDifferentQuantities() {
        var b = makeBuilder()
        let category = b.field("category", of: "viewed")
        let shoes = b.e("viewed").filtered(category.compare(.equal, Rule.constant(.string("shoes"))))
        let hats = b.e("viewed").filtered(category.compare(.equal, Rule.constant(.string("hats"))))
        b.tip("t", shoes.count.ge(3), hats.count.lt(1))
        #expect(unsatisfiable(b.lint()).isEmpty)
    }

    @Test func notANumberSatisfiesBothNegatedComparisons() {
        // NaN is neither > 1 nor <= 1, so `not ($r > 1)` and `not ($r <= 1)` can both hold.
        var b = makeBuilder()
        b.tip("t", Rule.not(b.p("rating").gt(1)), Rule.not(b.p("rating").le(1)))
        #expect(unsatisfiable(b.lint()).isEmpty)
    }

    @Test func whatIsNotUnderstoodNeverWarns() {
        var b = makeBuilder()
        let n = b.p("launches")
        b.tip("arithmetic", n.plus(1).gt(5), n.plus(1).lt(2))
        b.tip("relativeDates", b.p("trialEnds").compare(.less, Rule.now), b.p("trialEnds").compare(.greater, Rule.now))
        b.tip("twoQuantities", n.compare(.less, b.e("viewed").count), n.compare(.greater, b.e("viewed").count))
        b.tip("orderedStrings", b.p("nickname").compare(.less, Rule.constant(.string("a"))),
              b.p("nickname").compare(.greater, Rule.constant(.string("z"))))
        #expect(unsatisfiable(b.lint()).isEmpty)
    }

    @Test func tooManyDisjunctsGivesUpSilently() {
        // 2^7 = 128 disjuncts exceed the cap: the rule is treated as not understood.
        var b = makeBuilder()
        for index in 0..<14 { b.parameter("flag\(index)", .bool) }
        let ors = (0..<7).map { Rule.any(b.p("flag\(2 * $0)"), b.p("flag\(2 * $0 + 1)")) }
        b.tip("t", Rule.chain(.and, [b.p("premium")] + ors), Rule.not(b.p("premium")))
        #expect(unsatisfiable(b.lint()).isEmpty)
    }

    @Test func largeRulesAreBoundedByTheDisjunctCap() {
        // The `and` of n two-way `or`s, its negation and their `or` contradict each other. Two
        // `or`s (4 disjuncts) are seen through; forty (2^40 disjuncts, expanded) stop at the
        // cap and, not understood, give nothing: the work is bounded by the cap, not the rule.
        for (count, reported) in [(2, true), (40, false)] {
            var b = makeBuilder()
            for index in 0..<(2 * count) { b.parameter("flag\(index)", .bool) }
            let ors = (0..<count).map { Rule.any(b.p("flag\(2 * $0)"), b.p("flag\(2 * $0 + 1)")) }
            b.tip("t", Rule.chain(.and, ors), Rule.chain(.or, ors), Rule.not(Rule.chain(.and, ors)))
            #expect(unsatisfiable(b.lint()).isEmpty != reported, "\(count) ors")
        }
    }
}
