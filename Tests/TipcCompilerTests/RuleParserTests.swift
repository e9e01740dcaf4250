import Testing
@testable import TipcCompiler

@Suite struct RuleParserTests {
    @Test(arguments: [
        // Literals
        ("true", "true"), ("false", "false"), ("42", "42"), ("1_000", "1000"), ("2.5", "2.5"), ("1e3", "1000.0"),
        (#""text""#, #""text""#), (#""a\"b\\c\n\t\u{1F600}""#, #""a\"b\\c\n\t😀""#),
        ("3d", "dur(259200)"), ("12h", "dur(43200)"), ("30m", "dur(1800)"), ("45s", "dur(45)"), ("2w", "dur(1209600)"),
        ("1d12h", "dur(129600)"),
        // Names, parameters, now, calls
        ("now", "now"), ("$isLoggedIn", "$isLoggedIn"), ("$`sheet-open`", "$sheet-open"), ("searchPerformed", "searchPerformed"),
        ("`entered-detail-view`", "entered-detail-view"), ("`and`", "and"),
        (#"date("2026-12-24T00:00:00Z")"#, #"(fn date "2026-12-24T00:00:00Z")"#),
        ("e.count", "(. e count)"), ("`a-b`.count", "(. a-b count)"), ("e.`odd-member`", "(. e odd-member)"),
        ("e.within(3d)", "(call e within dur(259200))"),
        (#"e.where(category == "shoes" and itemID != 0)"#, #"(call e where (and (== category "shoes") (!= itemID 0)))"#),
        ("e.largestSubset(itemID)", "(call e largestSubset itemID)"), ("e.smallestSubset(itemID)", "(call e smallestSubset itemID)"),
        ("e.distinct(itemID)", "(call e distinct itemID)"), ("f()", "(fn f)"), ("e.m(1, 2,)", "(call e m 1 2)"),
        ("e.within(3d).where(x > 1).count", "(. (call (call e within dur(259200)) where (> x 1)) count)"),
        // Logic and its spellings
        ("not a", "(not a)"), ("!a", "(not a)"), ("a and b", "(and a b)"), ("a && b", "(and a b)"),
        ("a or b", "(or a b)"), ("a || b", "(or a b)"), ("not not a", "(not (not a))"),
        // Comparison, membership, arithmetic
        ("a == b", "(== a b)"), ("a != b", "(!= a b)"), ("a < b", "(< a b)"), ("a <= b", "(<= a b)"),
        ("a > b", "(> a b)"), ("a >= b", "(>= a b)"),
        (#"$plan in ["free", "pro"]"#, #"(in $plan ["free" "pro"])"#), ("$x in []", "(in $x [])"),
        ("a + b - c", "(- (+ a b) c)"), ("a * b / c % d", "(% (/ (* a b) c) d)"), ("-a", "(neg a)"), ("--a", "(neg (neg a))"),
        ("now - 3d", "(- now dur(259200))"),
        // Precedence, loosest first: or, and, within, not, comparison/in, + -, * / %, unary -, postfix
        ("a or b and c", "(or a (and b c))"), ("a and b or c", "(or (and a b) c)"),
        ("a.count >= 3 within 3d and $x", "(and (within (>= (. a count) 3) dur(259200)) $x)"),
        ("a within 3d or b within 1d", "(or (within a dur(259200)) (within b dur(86400)))"),
        ("not a within 3d", "(within (not a) dur(259200))"), ("x within 1d + 2h", "(within x (+ dur(86400) dur(7200)))"),
        ("a within 1d within 2d", "(within (within a dur(86400)) dur(172800))"),
        ("not a == b", "(not (== a b))"), ("not a and b", "(and (not a) b)"), ("not $p in [1]", "(not (in $p [1]))"),
        ("a + b == c * d", "(== (+ a b) (* c d))"), ("a + b * c", "(+ a (* b c))"), ("a * b + c", "(+ (* a b) c)"),
        ("-a * b", "(* (neg a) b)"), ("-a.count", "(neg (. a count))"), ("a - -b", "(- a (neg b))"),
        ("(a or b) and c", "(and (or a b) c)"), ("a - (b - c)", "(- a (- b c))"), ("(a)", "a"), ("((3))", "3"),
        ("(a == b) == c", "(== (== a b) c)"), ("x + 1 in [2, 3]", "(in (+ x 1) [2 3])"),
        // Line breaks are spaces in rule text
        ("a\n  and b", "(and a b)"),
    ])
    func parses(_ text: String, _ expected: String) {
        #expect(tree(text) == expected)
    }

    @Test func exactRanges() throws {
        let (expression, diagnostics) = parseRule("(a.count >= 3) within 3d and `x-y`.where(f == \"é\")")
        #expect(diagnostics.isEmpty)
        guard case .binary(.and, let within, let call) = expression.kind,
              case .within(let clause, let window) = within.kind,
              case .binary(.greaterOrEqual, let count, let three) = clause.kind,
              case .member(let base, let member) = count.kind,
              case .methodCall(let receiver, let method, let arguments) = call.kind,
              case .binary(.equal, _, let string) = try #require(arguments.first).kind
        else {
            Issue.record("unexpected tree \(sexpr(expression))")
            return
        }
        #expect(span(expression.range) == "1:1-1:51")
        #expect(span(within.range) == "1:1-1:25")
        #expect(span(clause.range) == "1:1-1:15")  // covers the parentheses
        #expect(span(count.range) == "1:2-1:9")
        #expect(span(base.range) == "1:2-1:3")
        #expect(span(member.range) == "1:4-1:9")
        #expect(span(three.range) == "1:13-1:14")
        #expect(span(window.range) == "1:23-1:25")
        #expect(span(call.range) == "1:30-1:51")
        #expect(span(receiver.range) == "1:30-1:35")
        #expect(span(method.range) == "1:36-1:41")
        #expect(span(string.range) == "1:47-1:50")  // columns count characters, not bytes
    }

    @Test func rangesFollowTheRuleTextMapping() {
        // A rule inside a YAML scalar on line 14 at column 9.
        let text = RuleText(text: "not $x", path: "shop.yaml", mapping: .singleLine(start: SourceLocation(line: 14, column: 9)))
        var diagnostics: [Diagnostic] = []
        let expression = RuleParser.parseRule(text, diagnostics: &diagnostics)
        #expect(span(expression.range) == "14:9-14:15")
        guard case .unary(.not, let operand) = expression.kind else { Issue.record("not a negation"); return }
        #expect(span(operand.range) == "14:13-14:15")
        #expect(expression.range.file == "shop.yaml")

        // A folded scalar: each byte has its own position.
        let table = (0...7).map { SourceLocation(line: $0 < 4 ? 3 : 4, column: $0 < 4 ? 5 + $0 : $0) }
        let folded = RuleText(text: "a or\nb", path: "f.yaml", mapping: .table(table))
        let foldedExpression = RuleParser.parseRule(folded, diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty)
        #expect(span(foldedExpression.range) == "3:5-4:6")
    }

    @Test func tokenPositionsAgreeWithTheRuleText() {
        let text = "ä.count >= 3 and\r\n  `ß-x`.where(f == \"€😀\")\n or $y"
        let file = SourceFile(path: "agree.tips", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        let source = RuleText(file: file)
        var parser = RuleParser(bytes: file.bytes, source: source, lineBreaksEndExpressions: true)
        parser.lexToEnd()
        #expect(parser.tokens.count == 16)  // the leading "ä" is no token (reported)
        for token in parser.tokens {
            #expect(token.startLocation == source.location(atUTF8Offset: token.start))
            #expect(token.endLocation == source.location(atUTF8Offset: token.end))
        }
        // One-line texts, with and without non-ASCII characters (ASCII ones take a shortcut).
        for oneLine in [text, "event12.count >= 3 within 5d and $`a-b` in [\"x\", \"y\\n\"]"] {
            let single = RuleText(text: oneLine, path: "y.yaml", mapping: .singleLine(start: SourceLocation(line: 2, column: 4)))
            var singleParser = RuleParser(bytes: Array(oneLine.utf8), source: single, lineBreaksEndExpressions: true)
            singleParser.lexToEnd()
            #expect(singleParser.tokens.count > 10)
            for token in singleParser.tokens {
                #expect(token.startLocation == single.location(atUTF8Offset: token.start))
                #expect(token.endLocation == single.location(atUTF8Offset: token.end))
            }
        }
    }

    @Test(arguments: [
        ("", "expected expression, found end of rule"),
        ("a and", "expected expression, found end of rule"),
        ("(a", "expected ')', found end of rule"),
        ("a)", "expected an operator or the end of the rule, found ')'"),
        ("a b", "expected an operator or the end of the rule, found 'b'"),
        ("a < b < c", "comparison operators cannot be chained"),
        ("a == not b", "expected expression, found keyword 'not'"),
        ("a = b", "'=' is not an operator"),
        ("e.", "expected a member name after '.', found end of rule"),
        ("e.where(a b)", "expected ',' or ')', found 'b'"),
        ("x in 3", "expected '[' after 'in', found integer literal '3'"),
        ("and b", "expected expression, found keyword 'and'"),
        ("$", "expected a parameter name after '$'"),
        ("3y", "unknown duration unit 'y' in '3y'"),
    ])
    func reportsSyntaxErrors(_ text: String, _ message: String) {
        let (_, diagnostics) = parseRule(text)
        #expect(diagnostics.map(\.message) == [message])
    }

    @Test func errorsCarryPositionsNotesAndHelp() {
        let (expression, diagnostics) = parseRule("(a and (b or c)")
        #expect(diagnostics.count == 1)
        let diagnostic = diagnostics[0]
        #expect(diagnostic.code == .syntax)
        #expect(span(diagnostic.range) == "1:16-1:16")
        #expect(diagnostic.notes.map { $0.range.map(span) } == ["1:1-1:2"])
        #expect(sexpr(expression) == "(and a (or b c))")

        let keyword = parseRule("a == not b").diagnostics[0]
        #expect(keyword.help?.contains("parentheses") == true)
        let assign = parseRule("$x = 1").diagnostics[0]
        #expect(assign.help == "use '==' to compare")
        #expect(span(assign.range) == "1:4-1:5")
    }

    @Test func recoversInsideExpressionsAndReportsEveryError() {
        // Three independent errors: a missing operand, a missing argument, a bad duration.
        let (expression, diagnostics) = parseRule("(a + ) and e.where(, x) or b within 3y")
        #expect(diagnostics.map(\.message) == ["expected expression, found ')'", "expected expression, found ','",
                                               "unknown duration unit 'y' in '3y'"])
        #expect(diagnostics.map { span($0.range) } == ["1:6-1:7", "1:20-1:21", "1:37-1:39"])
        #expect(sexpr(expression) == "(or (and (+ a <error>) (call e where <error> x)) (within b <error>))")

        // Text after a stray token is still checked.
        let trailing = parseRule("a ) (b +)")
        #expect(trailing.diagnostics.map(\.message) == ["expected an operator or the end of the rule, found ')'",
                                                        "expected expression, found ')'"])
        #expect(sexpr(trailing.expression) == "<error>")
    }

    @Test func integerOverflowIsInvalidValue() {
        let (expression, diagnostics) = parseRule("a.count > 99999999999999999999")
        #expect(diagnostics.map(\.code) == [.invalidValue])
        #expect(sexpr(expression) == "(> (. a count) <error>)")
    }
}
