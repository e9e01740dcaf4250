import Testing
@testable import TipcCompiler

@Suite struct ManifestDecoderTests {
    private func decode(_ yaml: String) -> (ManifestFile, [Diagnostic]) {
        var diagnostics: [Diagnostic] = []
        let manifest = ManifestDecoder.decode(SourceFile(path: "test.yaml", text: yaml), diagnostics: &diagnostics)
        return (manifest, diagnostics)
    }

    private func range(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> SourceRange {
        SourceRange(file: "test.yaml", start: location(line, column), end: location(endLine, endColumn))
    }

    /// The one diagnostic `yaml` produces.
    private func diagnostic(_ yaml: String) -> Diagnostic? {
        let (_, diagnostics) = decode(yaml)
        #expect(diagnostics.count == 1, "\(diagnostics)")
        return diagnostics.first
    }

    static let example = """
    tipkit: 1                          # format version, required
    displayFrequency: daily

    parameters:
      isLoggedIn:   { type: bool, default: false }
      maskCount:    { type: int, default: 0 }
      plan:         { type: string, default: free, values: [free, pro, team] }
      rating:       { type: double, default: 0.5 }
      trialEnds:    { type: date, default: "2026-01-01T00:00:00Z" }
      sheetOpen:    { type: bool, default: false, transient: true }
      window:       { type: duration, default: 3d }

    events:
      searchPerformed: {}
      # Viewed an item.
      itemViewed:
        donationLimit: { maximumCount: 5000, maximumAge: 90d }
        value: { itemID: int, category: string }
      opened:

    tips:
      # Shown after a few searches.
      # Second line.
      advancedSearch:
        title: Try Advanced Search
        message: Use filters and operators to find exactly what you need.
        image: magnifyingglass
        actions:
          - { id: learn-more, title: Learn More }
        maxDisplayCount: 3
        maxDisplayDuration: 2m
        ignoresDisplayFrequency: false
        rules:
          - $isLoggedIn
          - searchPerformed.count >= 3 within 3d
      welcome:
        title: "Welcome"
        image: { asset: WelcomeArt }

    groups:
      onboarding: { priority: ordered, tips: [welcome, advancedSearch] }
    """

    @Test func decodesTheFullManifest() throws {
        let (manifest, diagnostics) = decode(Self.example)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(manifest.format == .yaml)
        #expect(manifest.version == Located(1, at: range(1, 9, 1, 10)))
        #expect(manifest.displayFrequency == Located(.daily, at: range(2, 19, 2, 24)))

        #expect(manifest.parameters.map(\.name.name) == ["isLoggedIn", "maskCount", "plan", "rating", "trialEnds", "sheetOpen", "window"])
        #expect(manifest.parameters.map { $0.type?.value } == [.bool, .int, .string, .double, .date, .bool, .duration])
        #expect(manifest.parameters.map { $0.defaultValue?.value } == [
            .bool(false), .int(0), .string("free"), .double(0.5), .string("2026-01-01T00:00:00Z"), .bool(false),
            .duration(seconds: 3 * 86_400),
        ])
        let plan = manifest.parameters[2]
        #expect(plan.name.range == range(7, 3, 7, 7))
        #expect(plan.values?.map(\.value) == ["free", "pro", "team"])
        #expect(plan.values?.last?.range == range(7, 68, 7, 72))
        #expect(plan.range == range(7, 3, 7, 75))
        #expect(manifest.parameters[5].isTransient)
        #expect(!manifest.parameters[0].isTransient)

        #expect(manifest.events.map(\.name.name) == ["searchPerformed", "itemViewed", "opened"])
        let viewed = manifest.events[1]
        #expect(viewed.comments == ["Viewed an item."])
        #expect(viewed.donationLimit?.maximumCount?.value == 5000)
        #expect(viewed.donationLimit?.maximumAgeSeconds?.value == 90 * 86_400)
        #expect(viewed.fields.map(\.name.name) == ["itemID", "category"])
        #expect(viewed.fields.map { $0.type?.value } == [.int, .string])
        #expect(viewed.range == range(16, 3, 18, 45))
        #expect(manifest.events[0].fields.isEmpty && manifest.events[0].donationLimit == nil)

        let tip = manifest.tips[0]
        #expect(tip.name == Identifier("advancedSearch", at: range(24, 3, 24, 17)))
        #expect(tip.comments == ["Shown after a few searches.", "Second line."])
        #expect(tip.title?.plainText == Located("Try Advanced Search", at: range(25, 12, 25, 31)))
        #expect(tip.message?.value == "Use filters and operators to find exactly what you need.")
        #expect(tip.image?.value == .symbol("magnifyingglass"))
        #expect(tip.actions.map(\.id.name) == ["learn-more"])
        #expect(tip.actions.first?.title?.value == "Learn More")
        #expect(tip.maxDisplayCount?.value == 3)
        #expect(tip.maxDisplayDurationSeconds?.value == 120)
        #expect(tip.ignoresDisplayFrequency?.value == false)
        #expect(tip.rules.count == 2)
        #expect(tip.rules.last?.range.start == location(35, 9))
        #expect(manifest.tips[1].title?.value == "Welcome")
        #expect(manifest.tips[1].image?.value == .asset("WelcomeArt"))
        #expect(manifest.tips[1].rules.isEmpty)

        #expect(manifest.groups.map(\.name.name) == ["onboarding"])
        #expect(manifest.groups[0].priority?.value == .ordered)
        #expect(manifest.groups[0].tips.map(\.name) == ["welcome", "advancedSearch"])
        #expect(manifest.groups[0].tips[1].range == range(41, 52, 41, 66))
    }

    @Test func customDisplayFrequencyIsADuration() {
        let (manifest, diagnostics) = decode("tipkit: 1\ndisplayFrequency: 1d12h\n")
        #expect(diagnostics.isEmpty)
        #expect(manifest.displayFrequency?.value == .custom(seconds: 129_600))
    }

    @Test func missingKeysAreLeftForTheChecker() {
        let (manifest, diagnostics) = decode("parameters:\n  p: {}\ntips:\n  t:\n    message: hi\n")
        #expect(diagnostics.isEmpty)
        #expect(manifest.version == nil)
        #expect(manifest.parameters.first?.type == nil && manifest.parameters.first?.defaultValue == nil)
        #expect(manifest.parameters.first?.range == range(2, 3, 2, 8))
        #expect(manifest.tips.first?.title == nil)
        #expect(manifest.tips.first?.range == range(4, 3, 5, 16))
    }

    // MARK: - Diagnostics

    @Test func notAMapping() throws {
        for yaml in ["", "# nothing\n", "- a\n- b\n", "hello\n"] {
            let found = try #require(diagnostic(yaml))
            #expect(found.code == .invalidValue)
            #expect(found.message.hasPrefix("a manifest must be a mapping"))
            #expect(found.range.start == location(1, 1))
        }
    }

    @Test func duplicateKey() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  a: { title: A }\n  a: { title: B }\n"))
        #expect(found.code == .duplicateKey)
        #expect(found.range == range(4, 3, 4, 4))
        #expect(found.notes.first?.range == range(3, 3, 3, 4))
    }

    @Test func unknownKeyWithDidYouMean() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    titel: Hello\n"))
        #expect(found.code == .unknownKey)
        #expect(found.message == "unknown key 'titel' in tip 't'")
        #expect(found.help == "did you mean 'title'?")
        #expect(found.range == range(4, 5, 4, 10))
    }

    @Test func unknownTopLevelKey() throws {
        let found = try #require(diagnostic("tipkit: 1\nparamters: {}\n"))
        #expect(found.code == .unknownKey)
        #expect(found.help == "did you mean 'parameters'?")
        #expect(found.range.start == location(2, 1))
    }

    @Test func wrongValueKind() throws {
        let found = try #require(diagnostic("tipkit: 1\nparameters: [a, b]\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "expected a mapping for 'parameters', found a list")
        #expect(found.range == range(2, 13, 2, 19))
    }

    @Test func notAnInteger() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t: { title: T, maxDisplayCount: abc }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "expected an integer for 'maxDisplayCount', found 'abc'")
        #expect(found.range == range(3, 35, 3, 38))
    }

    @Test func quotedNumberIsNotAnInteger() throws {
        let found = try #require(diagnostic("tipkit: \"1\"\n"))
        #expect(found.code == .invalidValue)
        #expect(found.range == range(1, 9, 1, 12))
    }

    @Test func negativeCount() throws {
        let found = try #require(diagnostic("tipkit: 1\nevents:\n  e:\n    donationLimit: { maximumCount: -5 }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "'maximumCount' must not be negative, found -5")
        #expect(found.range == range(4, 36, 4, 38))
    }

    @Test func badFrequencyWithDidYouMean() throws {
        let found = try #require(diagnostic("tipkit: 1\ndisplayFrequency: dayly\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "unknown display frequency 'dayly'")
        #expect(found.help == "did you mean 'daily'?")
        #expect(found.range == range(2, 19, 2, 24))
    }

    @Test func frequencyInMonthsIsAnInvalidDuration() throws {
        let found = try #require(diagnostic("tipkit: 1\ndisplayFrequency: 2y\n"))
        #expect(found.code == .invalidDuration)
        #expect(found.help?.contains("365d") == true)
    }

    @Test func unknownTypeWithDidYouMean() throws {
        let found = try #require(diagnostic("tipkit: 1\nparameters:\n  p: { type: strng, default: x }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "unknown type 'strng'")
        #expect(found.help == "did you mean 'string'?")
        #expect(found.range == range(3, 14, 3, 19))
    }

    @Test func capitalisedTypeSuggestsTheSpelling() throws {
        let found = try #require(diagnostic("tipkit: 1\nevents:\n  e: { value: { n: Int } }\n"))
        #expect(found.help == "did you mean 'int'?")
        #expect(found.range == range(3, 20, 3, 23))
    }

    @Test func invalidName() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  my tip: { title: T }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "'my tip' is not a valid name for a tip")
        #expect(found.range == range(3, 3, 3, 9))
    }

    @Test func notABool() throws {
        let found = try #require(diagnostic("tipkit: 1\nparameters:\n  p: { type: bool, default: false, transient: yes }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "expected true or false for 'transient' of parameter 'p', found 'yes'")
    }

    @Test func malformedDuration() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t: { title: T, maxDisplayDuration: 120 }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message == "expected a duration for 'maxDisplayDuration', found '120'")
        #expect(found.range == range(3, 38, 3, 41))
    }

    @Test func actionWithoutID() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    actions:\n      - { title: Go }\n"))
        #expect(found.code == .missingKey)
        #expect(found.range == range(6, 9, 6, 22))
    }

    @Test func badGroupPriority() throws {
        let found = try #require(diagnostic("tipkit: 1\ngroups:\n  g: { priority: firstavailable, tips: [] }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.help == "did you mean 'firstAvailable'?")
    }

    @Test func integerTooLargeForDefault() throws {
        let found = try #require(diagnostic("tipkit: 1\nparameters:\n  p: { type: int, default: 99999999999999999999 }\n"))
        #expect(found.code == .invalidValue)
        #expect(found.message.contains("too large"))
    }

    // MARK: - Rules YAML misread

    @Test func ruleReadAsMappingBecauseOfColonSpace() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      - $a == \"x\": y\n"))
        #expect(found.code == .syntax)
        #expect(found.message == "YAML read this rule as a mapping because of ': '")
        #expect(found.help == "quote the rule")
        #expect(found.range.start == location(6, 9))
    }

    @Test func ruleReadAsFlowSequence() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      - [a, b]\n"))
        #expect(found.code == .syntax)
        #expect(found.message.contains("a list because it starts with '['"))
        #expect(found.range == range(6, 9, 6, 15))
    }

    @Test func ruleReadAsTag() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      - !$isLoggedIn\n"))
        #expect(found.code == .yaml)
        #expect(found.message.contains("'!$isLoggedIn' as a tag"))
        #expect(found.help == "quote the value; in a rule, write `not` instead of `!`")
        #expect(found.range == range(6, 9, 6, 21))
    }

    @Test func ruleReadAsAlias() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      - *x\n"))
        #expect(found.code == .yaml)
        #expect(found.range == range(6, 9, 6, 11))
    }

    @Test func emptyRule() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      -\n"))
        #expect(found.code == .syntax)
    }

    @Test func rulesMustBeAList() throws {
        let found = try #require(diagnostic("tipkit: 1\ntips:\n  t:\n    title: T\n    rules: $a\n"))
        #expect(found.code == .invalidValue)
        #expect(found.range == range(5, 12, 5, 14))
    }

    @Test func quotedRuleIsParsedWithItsFilePositions() throws {
        let (manifest, diagnostics) = decode("tipkit: 1\ntips:\n  t:\n    title: T\n    rules:\n      - \"$p == \\\"\\u00e9\\\"\"\n      - true\n")
        #expect(diagnostics.isEmpty)
        let rules = try #require(manifest.tips.first?.rules)
        #expect(rules.count == 2)
        // The parser sees `$p == "é"` (9 bytes); its end maps to the closing quote in the file.
        #expect(rules.first?.range == range(6, 10, 6, 26))
        #expect(rules.last?.range == range(7, 9, 7, 13))
    }

    @Test func truncatedDeclarationsAreDropped() {
        let (manifest, diagnostics) = decode("tipkit: 1\ntips:\n  a: { title: A }\n  b:\n    title: [x\n")
        #expect(diagnostics.map(\.code) == [.yaml])
        #expect(manifest.version?.value == 1)
        #expect(manifest.tips.map(\.name.name) == ["a"])
    }
}
