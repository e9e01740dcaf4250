import Testing
@testable import TipcCompiler

@Suite struct RuleLanguageFileTests {
    static let complete = """
    // Shop tips
    tipkit 1
    displayFrequency daily

    // Whether the user has signed in.
    param isLoggedIn: Bool = false
    param plan: String = "free" in ["free", "pro", "team"]
    param sheetOpen: Bool = false transient
    param maskCount: Int = -2
    param rating: Double = 0.5
    param trialEnds: Date = date("2026-01-01T00:00:00Z")
    param snooze: Duration = 5m
    event searchPerformed
    event itemViewed { itemID: Int, category: String } limit 5000 within 90d
    event `entered-detail-view` within 1d12h // retention only

    /// Shown to power users.
    tip advancedSearch {
      title "Try Advanced Search"
      message "Use filters and **operators**."
      image "magnifyingglass"
      action "learn-more" "Learn More"
      action dismiss "Not now"
      maxDisplayCount 3
      maxDisplayDuration 2m
      ignoresDisplayFrequency true
      rule $isLoggedIn
      rule searchPerformed.count >= 3 within 3d
      rule itemViewed.where(category == "shoes"
                            and itemID != 0).count > 1
        or `entered-detail-view`.count >= 1
    }

    tip welcome { image asset "Welcome"
      title "Hi"
    }

    group onboarding ordered { welcome, advancedSearch }
    group extras firstAvailable {
      advancedSearch,
      welcome,
    }
    """

    @Test func parsesEveryDeclarationKind() throws {
        let (file, diagnostics) = parseTipsFile(Self.complete)
        #expect(diagnostics.isEmpty, "\(diagnostics.map { "\($0.range.start): \($0.message)" })")
        #expect(file.format == .tips)
        #expect(file.path == "test.tips")
        #expect(file.version?.value == 1)
        #expect(file.displayFrequency?.value == .daily)
        #expect(span(file.headRange) == "1:1-1:13")

        #expect(file.parameters.map(\.name.name) == ["isLoggedIn", "plan", "sheetOpen", "maskCount", "rating", "trialEnds", "snooze"])
        #expect(file.parameters.map { $0.type?.value } == [.bool, .string, .bool, .int, .double, .date, .duration])
        #expect(file.parameters.map { $0.defaultValue?.value } == [
            .bool(false), .string("free"), .bool(false), .int(-2), .double(0.5), .string("2026-01-01T00:00:00Z"), .duration(seconds: 300),
        ])
        #expect(file.parameters[1].values?.map(\.value) == ["free", "pro", "team"])
        #expect(file.parameters.map(\.isTransient) == [false, false, true, false, false, false, false])
        #expect(file.parameters[0].comments == ["Whether the user has signed in."])
        #expect(file.parameters[1].comments.isEmpty)
        #expect(span(file.parameters[0].range) == "6:1-6:31")
        #expect(span(try #require(file.parameters[5].defaultValue).range) == "11:25-11:53")
        #expect(span(try #require(file.parameters[3].defaultValue).range) == "9:24-9:26")

        #expect(file.events.map(\.name.name) == ["searchPerformed", "itemViewed", "entered-detail-view"])
        #expect(file.events[0].fields.isEmpty && file.events[0].donationLimit == nil)
        #expect(file.events[1].fields.map(\.name.name) == ["itemID", "category"])
        #expect(file.events[1].fields.map { $0.type?.value } == [.int, .string])
        #expect(file.events[1].donationLimit?.maximumCount?.value == 5000)
        #expect(file.events[1].donationLimit?.maximumAgeSeconds?.value == 90 * 86_400)
        #expect(file.events[2].donationLimit?.maximumCount == nil)
        #expect(file.events[2].donationLimit?.maximumAgeSeconds?.value == 129_600)
        #expect(span(file.events[2].name.range) == "15:7-15:28")

        let tip = file.tips[0]
        #expect(tip.name.name == "advancedSearch")
        #expect(tip.comments == ["/ Shown to power users."])
        #expect(tip.title?.value == "Try Advanced Search")
        #expect(tip.message?.value == "Use filters and **operators**.")
        #expect(tip.image?.value == .symbol("magnifyingglass"))
        #expect(tip.actions.map(\.id.name) == ["learn-more", "dismiss"])
        #expect(tip.actions.map { $0.title?.value } == ["Learn More", "Not now"])
        #expect(tip.maxDisplayCount?.value == 3)
        #expect(tip.maxDisplayDurationSeconds?.value == 120)
        #expect(tip.ignoresDisplayFrequency?.value == true)
        #expect(tip.rules.map(sexpr) == [
            "$isLoggedIn",
            "(within (>= (. searchPerformed count) 3) dur(259200))",
            #"(or (> (. (call itemViewed where (and (== category "shoes") (!= itemID 0))) count) 1) (>= (. entered-detail-view count) 1))"#,
        ])
        #expect(span(tip.rules[2].range) == "29:8-31:40")
        #expect(span(tip.range) == "18:1-32:2")
        #expect(file.tips[1].image?.value == .asset("Welcome"))
        #expect(file.tips[1].title?.value == "Hi")

        #expect(file.groups.map(\.name.name) == ["onboarding", "extras"])
        #expect(file.groups.map { $0.priority?.value } == [.ordered, .firstAvailable])
        #expect(file.groups.map { $0.tips.map(\.name) } == [["welcome", "advancedSearch"], ["advancedSearch", "welcome"]])
    }

    @Test func byteOrderMarkAndCRLF() throws {
        let text = "tipkit 1\r\ntip t {\r\n  title \"Ü\"\r\n  rule  `a-b`.count >= 3 within 3d\r\n}\r\n"
        let source = SourceFile(path: "crlf.tips", bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        var diagnostics: [Diagnostic] = []
        let file = RuleParser.parseFile(source, diagnostics: &diagnostics)
        #expect(diagnostics.isEmpty)
        #expect(span(file.headRange) == "1:1-1:9")
        #expect(span(try #require(file.version).range) == "1:8-1:9")
        let tip = try #require(file.tips.first)
        #expect(span(try #require(tip.title).range) == "3:9-3:12")
        let rule = try #require(tip.rules.first)
        #expect(span(rule.range) == "4:9-4:35")
        guard case .within(let clause, let window) = rule.kind, case .binary(_, let count, _) = clause.kind,
              case .member(let base, _) = count.kind else {
            Issue.record("unexpected tree \(sexpr(rule))")
            return
        }
        #expect(span(base.range) == "4:9-4:14")
        #expect(span(window.range) == "4:33-4:35")
        #expect(span(tip.range) == "2:1-5:2")
    }

    @Test func reportsEverySyntaxErrorWithPositions() {
        let text = """
        tipkit 1
        param a: Bool = false
        event e { id: Int, name String }
        tip t {
          title "T"
          rule a.count >= and $a
          message "M"
        }
        group g ordered { t }
        tip u {
          rule (e.count > 1
        }
        """
        let (file, diagnostics) = parseTipsFile(text)
        #expect(diagnostics.map(\.message) == [
            "expected ':' after the field name, found 'String'",
            "expected expression, found keyword 'and'",
            "expected ')', found '}'",
        ])
        #expect(diagnostics.map { span($0.range) } == ["3:25-3:31", "6:19-6:22", "12:1-12:2"])
        #expect(diagnostics.allSatisfy { $0.code == .syntax })
        // Everything around the errors is still read.
        #expect(file.parameters.map(\.name.name) == ["a"])
        #expect(file.events.isEmpty)
        #expect(file.tips.map(\.name.name) == ["t", "u"])
        #expect(file.tips[0].title?.value == "T")
        #expect(file.tips[0].message?.value == "M")
        #expect(file.tips[0].rules.map(sexpr) == ["(and (>= (. a count) <error>) $a)"])
        #expect(file.tips[1].rules.map(sexpr) == ["(> (. e count) 1)"])
        #expect(file.groups.map(\.name.name) == ["g"])
    }

    @Test(arguments: [
        ("tipp t {\n}\ntipkit 1", "expected a declaration (tipkit, displayFrequency, defaultLocale, param, event, tip, group or experiment), found 'tipp'", "did you mean 'tip'?"),
        ("param x: Strng = \"\"", "unknown type 'Strng'", "did you mean 'String'?"),
        ("displayFrequency dayly", "unknown display frequency 'dayly'", "did you mean 'daily'?"),
        ("group g ordred { a }", "unknown group priority 'ordred'", "did you mean 'ordered'?"),
        ("tip t {\n  titel \"x\"\n}", "unknown tip attribute 'titel'", "did you mean 'title'?"),
        ("tip t {\n  maxDisplayDuration 1y\n}", "unknown duration unit 'y' in '1y'", "years have no fixed length; write days instead (365d)"),
    ])
    func reportsUnknownWordsWithSuggestions(_ text: String, _ message: String, _ help: String) {
        let diagnostics = parseTipsFile(text).diagnostics
        #expect(diagnostics.map(\.message) == [message])
        #expect(diagnostics.first?.help == help)
    }

    @Test func tipkitTypoIsOneDiagnostic() {
        let (file, diagnostics) = parseTipsFile("tipp t {\n  title \"x\"\n}\ntipkit 1\n")
        #expect(diagnostics.count == 1)
        #expect(diagnostics.first?.message.hasSuffix("found 'tipp'") == true)
        #expect(file.version?.value == 1)
    }

    @Test func lineStructureIsEnforced() {
        let diagnostics = parseTipsFile("tipkit 1 2\nparam a: Bool = true\ntip t {\n  maxDisplayCount 3 4\n}").diagnostics
        #expect(diagnostics.map(\.message) == ["expected end of line, found integer literal '2'",
                                               "expected end of line, found integer literal '4'"])
    }

    @Test func duplicatesAndMissingBraces() {
        let (file, diagnostics) = parseTipsFile("tipkit 1\ntipkit 1\ntip t {\n  title \"a\"\n  title \"b\"\nevent e\n")
        #expect(diagnostics.map(\.code) == [.duplicateKey, .duplicateKey, .syntax])
        #expect(diagnostics.map(\.message) == ["'tipkit' is declared more than once", "'title' is given more than once",
                                               "expected '}' to close tip 't', found 'event'"])
        #expect(diagnostics[0].notes.first?.range.map(span) == "1:1-1:9")
        #expect(file.tips.first?.title?.value == "b")
        #expect(file.events.map(\.name.name) == ["e"])
    }

    @Test func ruleLinesEndAtLineBreaks() {
        let (file, diagnostics) = parseTipsFile("tip t {\n  rule a\n  rule b\n    and c\n  rule (d\n    or e)\n  rule f.\n    count > 1\n}")
        #expect(diagnostics.isEmpty)
        #expect(file.tips.first?.rules.map(sexpr) == ["a", "(and b c)", "(or d e)", "(> (. f count) 1)"])
    }

    @Test func badDefaults() {
        let diagnostics = parseTipsFile("param a: Int = -\nparam b: Duration = -5m\nparam c: Int = -x\nparam d: Bool = yes\n").diagnostics
        #expect(diagnostics.map(\.message) == ["expected a number after '-', found 'param'", "a duration cannot be negative",
                                               "expected a number after '-', found 'x'",
                                               "expected a default value (a literal such as false, 0, 1.5, \"text\", 5m or date(\"…\")), found 'yes'"])
    }

    @Test func emptyFileHasAHeadRange() {
        let (file, diagnostics) = parseTipsFile("")
        #expect(diagnostics.isEmpty)
        #expect(file.version == nil)
        #expect(span(file.headRange) == "1:1-1:1")
    }
}
