import Testing
@testable import TipcCompiler

@Suite struct YAMLStreamingTests {
    private func range(_ line: Int, _ column: Int, _ endLine: Int, _ endColumn: Int) -> SourceRange {
        SourceRange(file: "test.yaml", start: location(line, column), end: location(endLine, endColumn))
    }

    @Test func entriesArriveInFileOrderWithTheirRangesAndValues() throws {
        let yaml = """
        tipkit: 1
        parameters:
          plan: { type: string, default: "free" }
          isLoggedIn:
            type: bool
        events:
          opened: {}
          'itemViewed': [a, b]
        tips:
          welcome:
            title: "Héllo"   # a comment
          second: plain text

        """
        let read = StreamingComparison(yaml)
        #expect(read.streamedDiagnostics.isEmpty)
        #expect(read.entries.map(\.section) == ["parameters", "parameters", "events", "events", "tips", "tips"])
        #expect(read.entries.map(\.key.scalarValue) == ["plan", "isLoggedIn", "opened", "itemViewed", "welcome", "second"])

        let plan = read.entries[0]
        #expect(plan.key.range == range(3, 3, 3, 7))
        #expect(plan.key.startOffset == utf8Offset(of: "plan", in: yaml))
        #expect(plan.key.endOffset == plan.key.startOffset + 4)
        #expect(plan.value.isFlow)
        #expect(plan.value.range == range(3, 9, 3, 42))
        #expect(value(plan.value, "default")?.scalar?.style == .doubleQuoted)
        #expect(value(plan.value, "default")?.scalar?.value == "free")

        let isLoggedIn = read.entries[1].value
        #expect(!isLoggedIn.isFlow)
        #expect(isLoggedIn.range == range(5, 5, 5, 15))
        #expect(value(isLoggedIn, "type")?.scalar?.value == "bool")

        let itemViewed = read.entries[3]
        #expect(itemViewed.key.scalar?.style == .singleQuoted)
        #expect(itemViewed.key.range == range(8, 3, 8, 15))
        #expect(itemViewed.value.items?.map(\.scalarValue) == ["a", "b"])

        let title = try #require(value(read.entries[4].value, "title")?.scalar)
        #expect(title.value == "Héllo")
        #expect(title.style == .doubleQuoted)
        let titleStart = try #require(utf8Offset(of: "\"Héllo\"", in: yaml))
        #expect(title.contentStart == titleStart)
        // `é` takes two bytes but one column.
        #expect(title.contentEnd == titleStart + 8)
        #expect(value(read.entries[4].value, "title")?.range == range(11, 12, 11, 19))

        let second = read.entries[5].value
        #expect(second.scalar?.value == "plain text")
        #expect(second.scalar?.style == .plain)
        #expect(second.range == range(12, 11, 12, 21))
        #expect(second.startOffset == utf8Offset(of: "plain text", in: yaml))
        expectStreamingMatchesWholeRead(read)
    }

    @Test func nestedContentOfAnEntryIsIntact() {
        let yaml = """
        tips:
          # The first tip.
          first:
            title: 'it''s: here'
            rules:
              - $isLoggedIn
              - "a.count >= 3" # trailing
              - - nested
                - [x, {y: z}]
            image: { asset: Art, size: [1, 2.5, ~] }
            message: |
              Line one
                indented
              last
            folded: >-
              folded
              text
            actions:
            - id: a
              title: A
            - {id: b, title: B}
            empty:
            multi: {a: 1,
              b: [2,
                3]}
          second: {x: [], y: {}}
        events:
          e: [ "été", '日本', plain ]

        """
        let read = StreamingComparison(yaml)
        #expect(read.streamedDiagnostics.isEmpty)
        #expect(read.entries.map(\.key.scalarValue) == ["first", "second", "e"])
        expectStreamingMatchesWholeRead(read)
    }

    @Test func complexKeysAnchorsAliasesAndTagsInsideEntries() {
        let yaml = "tips:\n  ? [a, b]\n  : 1\n  ? {k: v}\n  : [x]\n  c: &x {b: 1}\n  d: *x\n  e: !!str 2\n  f: !t\n    g: 1\n"
        let read = StreamingComparison(yaml)
        #expect(read.entries.count == 6)
        #expect(read.entries[0].key.items?.count == 2)
        #expect(read.entries[1].key.pairs?.count == 1)
        #expect(read.entries.map(\.key.scalarValue) == [nil, nil, "c", "d", "e", "f"])
        #expect(read.entries[2].value.hasProperties)
        #expect(read.entries[3].value.isAlias)
        #expect(read.entries[4].value.hasProperties)
        #expect(read.entries[5].value.hasProperties)
        #expect(read.streamedDiagnostics.map(\.code) == [.yaml, .yaml, .yaml, .yaml])
        expectStreamingMatchesWholeRead(read)
    }

    @Test func aRepeatedKeyInAStreamedSectionIsReportedAndNotHandedOn() throws {
        let yaml = "tips:\n  a:\n    title: one\n  b: 2\n  a:\n    title: two\n  c: 3\n"
        let read = StreamingComparison(yaml)
        #expect(read.entries.map(\.key.scalarValue) == ["a", "b", "c"])
        #expect(value(read.entries[0].value, "title")?.scalarValue == "one")
        let diagnostic = try #require(read.streamedDiagnostics.first)
        #expect(read.streamedDiagnostics.count == 1)
        #expect(diagnostic.code == .duplicateKey)
        #expect(diagnostic.message == "duplicate key 'a'")
        #expect(diagnostic.range == range(5, 3, 5, 4))
        #expect(diagnostic.notes.map(\.range) == [range(2, 3, 2, 4)])
        expectStreamingMatchesWholeRead(read)
    }

    @Test func aRepeatedKeyInAFlowSectionIsReportedToo() throws {
        let read = StreamingComparison("tips: {a: 1, b: 2, a: 3}\n")
        #expect(read.entries.map(\.key.scalarValue) == ["a", "b"])
        #expect(read.entries.map(\.value.scalarValue) == ["1", "2"])
        #expect(read.streamedDiagnostics.map(\.code) == [.duplicateKey])
        #expect(read.streamedDiagnostics.first?.range == range(1, 20, 1, 21))
        expectStreamingMatchesWholeRead(read)
    }

    @Test func aRepeatedKeyAmongManyIsStillFound() {
        let names = (0..<40).map { "tip\($0)" }
        let yaml = "tips:\n" + (names + ["tip7", "tip39"]).map { "  \($0): x\n" }.joined()
        let read = StreamingComparison(yaml)
        #expect(read.entries.map(\.key.scalarValue) == names)
        #expect(read.streamedDiagnostics.map(\.message) == ["duplicate key 'tip7'", "duplicate key 'tip39'"])
        expectStreamingMatchesWholeRead(read)
    }

    @Test func theSameKeyInTwoSectionsIsNoRepeat() {
        let read = StreamingComparison("parameters:\n  a: 1\nevents:\n  a: 2\ntips:\n  a: 3\n")
        #expect(read.streamedDiagnostics.isEmpty)
        #expect(read.entries.map { "\($0.section).\($0.key.scalarValue ?? "")=\($0.value.scalarValue ?? "")" }
                == ["parameters.a=1", "events.a=2", "tips.a=3"])
        expectStreamingMatchesWholeRead(read)
    }

    @Test func aRepeatedSectionIsNotStreamedAndIsReported() throws {
        let yaml = "tips:\n  a: 1\ntips:\n  b: 2\n"
        let read = StreamingComparison(yaml)
        #expect(read.entries.map(\.key.scalarValue) == ["a"])
        let diagnostic = try #require(read.streamedDiagnostics.first)
        #expect(read.streamedDiagnostics.count == 1)
        #expect(diagnostic.code == .duplicateKey)
        #expect(diagnostic.message == "duplicate key 'tips'")
        #expect(diagnostic.range == range(3, 1, 3, 5))
        #expect(diagnostic.notes.map(\.range) == [range(1, 1, 1, 5)])
        let pairs = try #require(read.streamedRoot?.pairs)
        #expect(pairs.count == 1)
        #expect(pairs.first?.value.pairs?.count == 0)
        #expect(pairs.first?.value.range == range(2, 3, 2, 7))
        expectStreamingMatchesWholeRead(read)
    }

    @Test func aSectionRepeatedAfterAValueThatIsNotAMappingIsNotStreamed() {
        let read = StreamingComparison("tips: 1\ntips:\n  a: 1\n")
        #expect(read.entries.isEmpty)
        #expect(read.streamedDiagnostics.map(\.code) == [.duplicateKey])
        expectStreamingMatchesWholeRead(read)
    }

    @Test(arguments: ["tips: [a, b]\n", "tips:\n  - a\n  - {b: 1}\n", "tips:\n- a\n", "tips: 1\n", "tips:\n", "tips: ~\n",
                      "tips: null\n", "tips: 'x'\n", "tips: |\n  a: 1\n", "tips: *alias\n"])
    func aSectionThatIsNotAMappingIsNotStreamed(yaml: String) {
        let read = StreamingComparison(yaml)
        #expect(read.entries.isEmpty)
        #expect(read.streamedRootRendering == read.wholeRoot.map { renderYAML($0) })
        expectStreamingMatchesWholeRead(read)
    }

    @Test(arguments: ["- tips:\n    a: 1\n", "tips\n", "[tips, {a: 1}]\n", "x:\n  tips:\n    a: 1\n", "? tips\n", "'tips: {a: 1}'\n"])
    func aRootThatIsNotAMappingOrANestedSectionStreamsNothing(yaml: String) {
        let read = StreamingComparison(yaml)
        #expect(read.entries.isEmpty)
        #expect(read.streamedRootRendering == read.wholeRoot.map { renderYAML($0) })
        expectStreamingMatchesWholeRead(read)
    }

    @Test func theRootKeepsAStreamedSectionAsAnEmptyMappingWithItsRange() throws {
        let yaml = "tips:\n  a: 1\n  b:\n    c: [2]\nother: x\nevents: {e: 1}\n"
        let read = StreamingComparison(yaml)
        #expect(read.streamedDiagnostics.isEmpty)
        let root = try #require(read.streamedRoot)
        let pairs = try #require(root.pairs)
        #expect(pairs.map(\.key.scalarValue) == ["tips", "other", "events"])
        let tips = pairs[0].value
        #expect(tips.pairs?.count == 0)
        #expect(!tips.isFlow)
        #expect(tips.range == range(2, 3, 4, 11))
        let events = pairs[2].value
        #expect(events.pairs?.count == 0)
        #expect(events.isFlow)
        #expect(events.range == range(6, 9, 6, 15))
        #expect(value(root, "other")?.scalarValue == "x")
        #expect(root.range == range(1, 1, 6, 15))
        expectStreamingMatchesWholeRead(read)
    }

    @Test func onlyTheNamedSectionsStream() {
        let read = StreamingComparison("parameters:\n  p: 1\ntips:\n  t: 2\n", streaming: ["tips"])
        #expect(read.entries.map(\.key.scalarValue) == ["t"])
        #expect(value(value(read.streamedRoot, "parameters"), "p")?.scalarValue == "1")
        expectStreamingMatchesWholeRead(read)
        let none = StreamingComparison("tips:\n  t: 2\n", streaming: [])
        #expect(none.entries.isEmpty)
        expectStreamingMatchesWholeRead(none)
    }

    @Test func quotedSectionNamesAndFlowRootsStream() {
        let quoted = StreamingComparison("\"tips\":\n  a: 1\n'events': {e: {}}\n")
        #expect(quoted.entries.map(\.section) == ["tips", "events"])
        expectStreamingMatchesWholeRead(quoted)
        let flow = StreamingComparison("{tips: {a: {b: [1]}}, events: {e: x}}\n")
        #expect(flow.entries.map(\.key.scalarValue) == ["a", "e"])
        expectStreamingMatchesWholeRead(flow)
    }

    @Test func aSectionAfterManyRootKeysStillStreamsAndARepeatIsFound() {
        let yaml = (0..<30).map { "k\($0): \($0)\n" }.joined() + "tips:\n  a: 1\nk3: again\ntips:\n  b: 2\n"
        let read = StreamingComparison(yaml)
        #expect(read.entries.map(\.key.scalarValue) == ["a"])
        #expect(read.streamedDiagnostics.map(\.message) == ["duplicate key 'k3'", "duplicate key 'tips'"])
        expectStreamingMatchesWholeRead(read)
    }

    @Test func anEntryCutShortByASyntaxErrorArrivesTruncated() throws {
        let yaml = "tips:\n  a:\n    x: 1\n  b:\n    y: [1, 2\n    z: 3\n"
        let read = StreamingComparison(yaml)
        #expect(read.streamedDiagnostics.map(\.code) == [.yaml])
        #expect(read.entries.map(\.key.scalarValue) == ["a", "b"])
        #expect(!read.entries[0].value.isTruncated)
        let b = read.entries[1].value
        #expect(b.isTruncated)
        let y = try #require(value(b, "y"))
        #expect(y.isTruncated)
        #expect(y.items?.first?.scalarValue == "1")
        #expect(value(read.streamedRoot, "tips")?.isTruncated == true)
        expectStreamingMatchesWholeRead(read)
    }

    @Test(arguments: [
        "tips:\n  a: 1\n  b: \"unterminated\n",
        "tips:\n  a: [\n",
        "tips:\n  a:\n    - x\n    - {k: v\n",
        "tips:\n  a: {b: [c, {d: e]}\n",
        "tips:\n  a:\n    b: 1\n   c: 2\n",
        "tips:\n  a: 1\n  b:\n\t c: 2\n",
        "tips:\n  a: 1\nevents:\n  e: [1, 2\n",
        "tips: {a: 1, b: [2\n",
        "tips:\n  a: 1\n---\nb: 2\n",
        "tips:\n  a:\n    b: @x\n",
    ])
    func afterASyntaxErrorTheStreamedReadMatchesTheWholeRead(yaml: String) {
        let read = StreamingComparison(yaml)
        #expect(read.streamedDiagnostics.contains { $0.code == .yaml })
        expectStreamingMatchesWholeRead(read)
    }

    @Test(arguments: [
        "tips: &a\n  x: 1\n",
        "tips: !!map\n  x: 1\n",
        "tips:\n  *a : 1\n  b: 2\n",
        "tips:\n  ? \n  : 1\n  : 2\n",
        "tips:\n  x: 1\n  ? x\n  : 2\n",
        "tips: {x: 1, ? y, z}\n",
        "tips:\n  a:\n  b:\n  c: ~\n",
        "? tips\n:\n  a: 1\n",
        "tips:\n  a: 1\nparameters:\n  a: 1\ntips:\n  b: 1\nparameters:\n  c: [\n",
        "{tips: {a: 1}, tips: {b: 2}}\n",
        "{tips: {a: 1}, events: [e]}\n",
        "\u{FEFF}tips:\r\n  a: é\r\n  b: [1,\r\n   2]\r\n  c: |\r\n    x\r\n",
        "tips:\n  a: |\n    text\n\n  b: >\n    more\n    text\n\n\nevents: {}\n",
        "tips:\n  a: 1 # c\n  # c\n  b: 2\n# end\n",
        "tips:\n  a:\n    b:\n      c:\n        d: [1, {e: [f]}]\n  g: h\n",
        "tips:\n  a: [1, 2]\n  b: {x: 1}\n  c: x\ntips:\n  a: [1, 2]\n",
        "tips:\n  'a': 1\n  \"a\": 2\n  a: 3\n",
        "tips:\n  a: 1\n\tb: 2\n",
        "tips:\n  a: \"x\ty\"\n",
    ])
    func unusualEntriesStreamLikeTheWholeRead(yaml: String) {
        expectStreamingMatchesWholeRead(StreamingComparison(yaml))
    }

    @Test func nestingBeyondTheLimitInsideAnEntryEndsItTruncated() {
        let depth = YAMLReader.maximumDepth + 2
        let yaml = "tips:\n  a: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n  b: 1\n"
        let read = StreamingComparison(yaml)
        #expect(read.streamedDiagnostics.map(\.code) == [.limit])
        #expect(read.entries.map(\.key.scalarValue) == ["a"])
        #expect(read.entries.first?.value.isTruncated == true)
        expectStreamingMatchesWholeRead(read)
    }

    @Test func eachEntryIsInADocumentOfItsOwn() {
        let read = StreamingComparison("tips:\n  a: {x: [1, 2]}\n  b: 3\n")
        #expect(read.entries.count == 2)
        #expect(read.entries[0].key.document !== read.entries[1].key.document)
        #expect(read.entries[0].key.document.records.count == 6)
        #expect(read.entries[1].key.document.records.count == 2)
        #expect(read.streamedRoot?.document.records.count == 3)
    }
}
