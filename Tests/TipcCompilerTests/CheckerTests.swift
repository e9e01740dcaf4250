import Testing
@testable import TipcCompiler
import TipcDriver

/// Checks `.tips` sources (each a file of one program) and returns the diagnostics and program.
private func check(_ texts: String...) -> (diagnostics: [Diagnostic], program: CheckedProgram?) {
    let sources = texts.enumerated().map { SourceFile(path: "f\($0.offset).tips", text: $0.element) }
    let result = Frontend.check(sources: sources)
    return (result.diagnostics, result.program)
}

private func codes(_ diagnostics: [Diagnostic]) -> [String] { diagnostics.map(\.code.rawValue) }

private let header = "tipkit 1\n"

@Suite("Checker")
struct CheckerTests {
    @Test func wellTypedProgramChecksClean() throws {
        let (diagnostics, program) = check(header + """
        param signedIn: Bool = false
        param rating: Double = 0
        param plan: String = "free" in ["free", "pro"]
        event viewed { itemID: Int, category: String }
        tip t {
          title "T"
          rule $signedIn and viewed.where(category == "shoes").count >= 3 within 3d
          rule $rating > 2 and $plan in ["pro"]
          rule viewed.distinct(itemID) + 1 >= 2
        }
        """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let tip = try #require(program?.tips.first)
        #expect(tip.rules.count == 3)
        #expect(program?.parameters[1].defaultValue == .double(0))
    }

    @Test func withinClauseWindowsEveryEventWithoutItsOwnWindow() throws {
        let (diagnostics, program) = check(header + """
        event a
        event b
        tip t {
          title "T"
          rule (a.count >= 1 and b.within(1d).count >= 1) within 3d
        }
        """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let rule = try #require(program?.tips.first?.rules.first)
        guard case .logical(.and, let left, let right) = rule.kind,
              case .compare(_, let leftCount, _) = left.kind, case .count(let aWindowed) = leftCount.kind,
              case .compare(_, let rightCount, _) = right.kind, case .count(let bWindowed) = rightCount.kind else {
            Issue.record("unexpected shape \(rule.kind)")
            return
        }
        #expect(aWindowed.kind == .within(CheckedExpression(.event(0), type: .collection(event: 0), range: aWindowed.kind.baseRange), windowMilliseconds: 3 * 86_400_000))
        guard case .within(_, let bWindow) = bWindowed.kind else { Issue.record("b lost its window"); return }
        #expect(bWindow == 86_400_000)
    }

    @Test func windowGoesUnderLargestSubset() throws {
        let (diagnostics, program) = check(header + """
        event opened { id: Int }
        tip t {
          title "T"
          rule opened.largestSubset(id).count >= 3 within 5d
        }
        """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        let rule = try #require(program?.tips.first?.rules.first)
        guard case .compare(_, let count, _) = rule.kind, case .count(let subset) = count.kind,
              case .largestSubset(let base, field: 0) = subset.kind, case .within(_, 432_000_000) = base.kind else {
            Issue.record("unexpected shape \(rule.kind)")
            return
        }
    }

    @Test func mixedIntAndDoublePromoteExplicitly() throws {
        let (_, program) = check(header + "param r: Double = 1.5\ntip t {\n  title \"T\"\n  rule $r > 1\n}\n")
        let rule = try #require(program?.tips.first?.rules.first)
        guard case .compare(.greater, _, let right) = rule.kind, case .intToDouble = right.kind else {
            Issue.record("no promotion in \(rule.kind)")
            return
        }
    }

    @Test func reportsEveryProblemInOneRun() {
        let (diagnostics, program) = check(header + """
        event opened
        tip t {
          title "T"
          rule $missing
          rule opend.count > 1
          rule opened.count + "x" > 1
        }
        """)
        #expect(program == nil)
        #expect(codes(diagnostics) == ["unknown-parameter", "unknown-event", "type-mismatch"])
    }

    @Test func namesAreUniqueAcrossFiles() {
        let (diagnostics, _) = check(header + "event opened\ntip t {\n  title \"T\"\n  rule opened.count > 0\n}\n",
                                     header + "param opened: Bool = false\ntip u {\n  title \"U\"\n  rule $opened\n}\n")
        let duplicate = diagnostics.first { $0.code == .duplicateName }
        #expect(duplicate?.range.file == "f1.tips")
        #expect(duplicate?.notes.first?.range?.file == "f0.tips")
        #expect(duplicate?.message == "parameter 'opened' has the name of an event")
        // The dropped parameter's uses are then unknown, with a hint that the name is an event.
        #expect(diagnostics.contains { $0.code == .unknownParameter && $0.help?.contains("is an event") == true })
    }

    @Test func referencesResolveAcrossFiles() {
        let (diagnostics, program) = check(header + "event opened\n",
                                           header + "tip t {\n  title \"T\"\n  rule opened.count > 0\n}\n")
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(program?.events.count == 1)
    }

    @Test func didYouMeanOnUnknownNames() {
        let (diagnostics, _) = check(header + """
        param isSignedIn: Bool = false
        event searchPerformed { query: String }
        tip t {
          title "T"
          rule $isSignedin
          rule serchPerformed.count > 0
          rule searchPerformed.where(qeury == "x").count > 0
        }
        """)
        #expect(diagnostics.map(\.help) == ["did you mean '$isSignedIn'?", "did you mean 'searchPerformed'?", "did you mean 'query'?"])
    }

    @Test func unusedDeclarationsWarn() {
        let (diagnostics, program) = check(header + "param p: Int = 0\nevent e\ntip t {\n  title \"T\"\n}\n")
        #expect(codes(diagnostics) == ["unused", "unused"])
        #expect(diagnostics.allSatisfy { $0.severity == .warning })
        #expect(program != nil, "warnings do not prevent a program")
    }

    /// A help that suggests rule text suggests text that checks: dotted names (as the TipKit
    /// importer writes them) in backticks.
    @Test func helpTextsSuggestRuleTextThatChecks() throws {
        let declarations = "param `Tip.count`: Int = 0\nevent `onboarding.opened`\n"
        func quoted(_ help: String?) throws -> String {
            let parts = try #require(help).split(separator: "'", omittingEmptySubsequences: false)
            return String(parts[1])
        }
        let (unused, _) = check(header + declarations + "tip t {\n  title \"T\"\n}\n")
        #expect(codes(unused) == ["unused", "unused"])
        let parameter = try quoted(unused[0].help)
        let event = try quoted(unused[1].help)
        #expect(parameter == "$`Tip.count`")
        #expect(event == "`onboarding.opened`.count >= 1")
        let (followed, _) = check(header + declarations + "tip t {\n  title \"T\"\n  rule \(parameter) > 0 and \(event)\n}\n")
        #expect(followed.isEmpty, "\(followed.map(\.message))")

        let (misspelled, _) = check(header + declarations + "tip t {\n  title \"T\"\n  rule $`Tip.cont` > 0 and `onboarding.opend`.count > 0\n}\n")
        #expect(misspelled.map(\.help) == ["did you mean '$`Tip.count`'?", "did you mean '`onboarding.opened`'?"])
    }

    @Test func defaultsMustFitTheirType() {
        let (diagnostics, _) = check(header + """
        param plan: String = "gold" in ["free", "pro"]
        param when: Date = date("2026-13-01T00:00:00Z")
        tip t {
          title "T"
          rule $plan == "pro" and now > $when
        }
        """)
        #expect(codes(diagnostics).contains("invalid-value"))
        #expect(diagnostics.first?.message.contains("not one of its values") == true)
    }

    @Test func groupsResolveTipsAndRefuseDoubleMembership() {
        let (diagnostics, program) = check(header + """
        tip a {
          title "A"
        }
        tip b {
          title "B"
        }
        group g1 ordered { a, b }
        group g2 firstAvailable { b, c }
        """)
        #expect(codes(diagnostics) == ["invalid-value", "unknown-tip"])
        #expect(program == nil)
    }

    @Test func windowsMustBePositiveLiterals() {
        let (diagnostics, _) = check(header + "event e\ntip t {\n  title \"T\"\n  rule e.within(0s).count > 0\n}\n")
        #expect(codes(diagnostics) == ["invalid-duration"])
    }

    @Test func ruleMustBeBool() {
        let (diagnostics, _) = check(header + "event e\ntip t {\n  title \"T\"\n  rule e.count\n}\n")
        #expect(codes(diagnostics) == ["type-mismatch"])
        #expect(diagnostics.first?.message == "a rule must be a Bool expression, found Int")
    }

    @Test func missingVersionAndTitle() {
        let (diagnostics, _) = check("tip t {\n  message \"no title\"\n}\n")
        #expect(codes(diagnostics) == ["missing-key", "missing-key"])
    }

    /// Constant folding reads only the tips in which the checker built a node that may fold,
    /// and a tip whose rules change is read again.
    @Test func constantFoldingSkipsOnlyTipsWithNothingToFold() throws {
        let (diagnostics, checked) = check(header + """
        param n: Int = 0
        param on: Bool = false
        param d: Double = 0
        tip plain {
          title "P"
          rule $n > 1 and not $on and $n in [1, 2]
        }
        tip negated {
          title "N"
          rule $n > -1
        }
        tip promoted {
          title "D"
          rule $d > 1
        }
        tip logical {
          title "L"
          rule false or $on
        }
        tip compared {
          title "C"
          rule (1 < 2) == $on
        }
        tip arithmeticOnParameter {
          title "A"
          rule $n + 1 > 2 and $n - 1 < 5
        }
        tip arithmeticOnConstants {
          title "A"
          rule $n > 1 + 2
        }
        tip notConstant {
          title "N"
          rule not false and $on
        }
        tip constantInList {
          title "I"
          rule 1 in [1, 2] and $on
        }
        tip longChain {
          title "L"
          rule $on and $n > 1 and $on or $n < 0
        }
        tip longChainFromConstant {
          title "L"
          rule false or $on or $n > 1
        }
        tip promotedOnTheLeft {
          title "P"
          rule 1 < $d
        }
        """)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        var program = try #require(checked)
        #expect(program.tips.map(\.rulesMayFold) == [false, true, true, true, true, false, true, true, true, false, true, true])
        #expect(RulePackCompiler.constantErrors(program).isEmpty)

        let range = program.tips[0].range
        func int(_ value: Int64) -> CheckedExpression { CheckedExpression(.constant(.int(value)), type: .value(.int), range: range) }
        let sum = CheckedExpression(.arithmetic(.add, int(.max), int(1)), type: .value(.int), range: range)
        let parameter = CheckedExpression(.parameter(0), type: .value(.int), range: range)
        program.tips[0].rules.append(CheckedExpression(.compare(.greater, parameter, sum), type: .value(.bool), range: range))
        #expect(program.tips[0].rulesMayFold)
        #expect(RulePackCompiler.constantErrors(program).map(\.code) == [.invalidValue])
    }
}

extension CheckedExpression.Kind {
    /// The range of the event at the base of a windowed collection (for building expected values).
    fileprivate var baseRange: SourceRange {
        if case .within(let base, _) = self { return base.range }
        return SourceRange(file: "", at: SourceLocation(line: 1, column: 1))
    }
}
