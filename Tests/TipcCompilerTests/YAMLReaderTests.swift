#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TipcCompiler

@Suite struct YAMLReaderTests {
    private func only(_ diagnostics: [Diagnostic]) -> Diagnostic? {
        #expect(diagnostics.count == 1, "\(diagnostics)")
        return diagnostics.first
    }

    @Test func buildsOrderedTreeWithStylesAndRanges() throws {
        let yaml = "b: plain\na: 'single'\nc: \"double\"\nd: |\n  lit\ne: >\n  fold\nlist: [1, x]\nmap:\n  k: v\n"
        let (root, diagnostics, _) = readYAML(yaml)
        #expect(diagnostics.isEmpty)
        let pairs = try #require(root?.pairs)
        #expect(pairs.map { $0.key.scalar?.value } == ["b", "a", "c", "d", "e", "list", "map"])
        #expect(pairs.map { $0.value.scalar?.style } == [.plain, .singleQuoted, .doubleQuoted, .literal, .folded, nil, nil])
        #expect(value(root, "c")?.scalar?.value == "double")
        #expect(value(root, "c")?.range == SourceRange(file: "test.yaml", start: location(3, 4), end: location(3, 12)))
        #expect(value(root, "d")?.range == SourceRange(file: "test.yaml", start: location(4, 4), end: location(5, 6)))
        let list = try #require(value(root, "list"))
        #expect(list.isFlow)
        #expect(list.items?.map { $0.scalar?.value } == ["1", "x"])
        #expect(list.range == SourceRange(file: "test.yaml", start: location(8, 7), end: location(8, 13)))
        let map = try #require(value(root, "map"))
        #expect(!map.isFlow)
        #expect(map.range == SourceRange(file: "test.yaml", start: location(10, 3), end: location(10, 7)))
        #expect(root?.range.start == location(1, 1))
    }

    /// Every node's range is the position of its offsets, however lines break and whatever
    /// the file holds: in an ASCII file the reader takes libyaml's own lines and columns, in
    /// others it counts from the offsets, and both must agree with `SourceFile`.
    @Test(arguments: ["\n", "\r\n", "\r"], [false, true])
    func everyRangeIsWhereItsOffsetsAre(lineBreak: String, nonASCII: Bool) throws {
        let lines = [
            "tipkit: 1   # comment", "tips:", "  t1:", "    title: 'It''s'\t", "    message: \"a\\tb \\\"c\\\"\"",
            "    rules:", "      - $a > 1 and", "        $b < 2", "      - \"x\"", "    list: [1, {k: v}, [2]]",
            "    block: |", "      literal", "      text", "    folded: >-", "      folded", "      text",
            "  t2: {title: T\(nonASCII ? " é" : ""), rules: [x]}", "",
        ]
        let (root, diagnostics, file) = readYAML((nonASCII ? "\u{FEFF}" : "") + lines.joined(separator: lineBreak))
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        #expect(try expectRangesAtTheirOffsets(under: #require(root), in: file).count == 34)
    }

    /// Expects every node under `root` to have the range of its offsets; returns the nodes.
    @discardableResult
    private func expectRangesAtTheirOffsets(under root: YAMLNode, in file: SourceFile) -> [YAMLNode] {
        let nodes = yamlNodes(under: root)
        for node in nodes {
            #expect(node.range == file.range(fromUTF8: node.startOffset, to: node.endOffset), "\(node.kindDescription)")
        }
        return nodes
    }

    /// Documents cut short by an error, read whole and streamed: every node's range, truncated
    /// collections' included, is still the position of its offsets.
    @Test(arguments: ["a:\n  b: 1\n  c: [1, 2\n", "a:\n  - x\n  - [y", "a:\n  b:\n  c: @", "tips:\n  t:\n    title: T\n    rules: [x\n",
                      "tips:\n  t:\n    title: T\n  u:\n    rules:\n      - x\n    message: {a: b\n", "tips:\n  t:\n    title: 'T\n"])
    func rangesOfDocumentsCutShortAreWhereTheirOffsetsAre(text: String) throws {
        func expectRanges(_ node: YAMLNode, in file: SourceFile) -> Int {
            expectRangesAtTheirOffsets(under: node, in: file).count
        }
        let (root, diagnostics, file) = readYAML(text)
        #expect(!diagnostics.isEmpty)
        var checked = try expectRanges(#require(root), in: file)
        var streamedDiagnostics: [Diagnostic] = []
        let streamedRoot = YAMLReader.read(file, diagnostics: &streamedDiagnostics, streaming: ["tips"]) { _, key, value in
            checked += expectRanges(key, in: file) + expectRanges(value, in: file)
        }
        if let streamedRoot { checked += expectRanges(streamedRoot, in: file) }
        #expect(checked > 4)
    }

    /// At the end of a file without a final line break libyaml's mark moves to a line the
    /// file does not have; the nodes there keep the file's own positions.
    @Test(arguments: ["---", "--- # c", "a:\n  b:\n    ? c", "tipkit: 1\ntips:\n  t:\n    title: T\n    ? message"])
    func nodesAtTheEndOfAFileWithoutALineBreakStayOnItsLastLine(text: String) throws {
        let (root, _, file) = readYAML(text)
        for node in try expectRangesAtTheirOffsets(under: #require(root), in: file) {
            #expect(node.range.end.line <= file.lineStarts.count)
        }
    }

    @Test func malformedYAMLReportsLibyamlProblemAndPosition() throws {
        let (_, diagnostics, _) = readYAML("a: 1\nb: [1, 2\nc: 3\n")
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.message == "did not find expected ',' or ']'")
        #expect(diagnostic.range.start == location(3, 2))
        #expect(diagnostic.notes.first?.message == "while parsing a flow sequence")
        #expect(diagnostic.notes.first?.range?.start == location(2, 4))
    }

    @Test func anchorsAliasesAndTagsAreRefused() throws {
        let (root, diagnostics, _) = readYAML("a: &x 1\nb: *x\nc: !!str 2\n")
        #expect(diagnostics.map(\.code) == [.yaml, .yaml, .yaml])
        #expect(diagnostics.map(\.range.start) == [location(1, 4), location(2, 4), location(3, 4)])
        #expect(diagnostics[0].message.contains("anchors"))
        #expect(diagnostics[1].message.contains("'*x'"))
        #expect(diagnostics[2].message.contains("'!!str'"))
        #expect(value(root, "b")?.isAlias == true)
        #expect(value(root, "c")?.scalar?.value == "2")
    }

    @Test func anchoredCollectionStartsAfterItsPropertiesAndComment() throws {
        let (root, diagnostics, _) = readYAML("a: &x # note\n  b: 1\n")
        #expect(diagnostics.map(\.range.start) == [location(1, 4)])
        #expect(value(root, "a")?.range.start == location(2, 3))
        #expect(value(root, "a")?.hasProperties == true)
    }

    @Test func backtickAtTheStartOfAValueSuggestsQuoting() throws {
        let (_, diagnostics, _) = readYAML("rules:\n  - `a-b`.count >= 3\n")
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.range.start == location(2, 5))
        #expect(diagnostic.help == "a value cannot start with '`' in YAML; quote it")
    }

    @Test func billionLaughsIsRefusedWithoutExpansion() throws {
        var yaml = "a0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            let previous = "*a\(level - 1)"
            yaml += "a\(level): &a\(level) [\(Array(repeating: previous, count: 10).joined(separator: ", "))]\n"
        }
        let (root, diagnostics, _) = readYAML(yaml)
        #expect(diagnostics.first?.code == .yaml)
        #expect(diagnostics.first?.range.start == location(1, 5))
        #expect(diagnostics.count == 10 + 90)  // each anchor and each alias, once
        // The document holds the nodes as written, and no more: the mapping, its 10 keys and
        // 10 sequences, the 10 `lol`s and the 90 aliases (expanded, a9 alone would be 10^10).
        let document = try #require(root?.document)
        #expect(document.records.count == 1 + 10 + 10 + 10 + 90)
        let last = try #require(value(root, "a9")?.items.map(Array.init))
        #expect(last.count == 10)
        for item in last {
            guard case .alias(let name) = item.content else { Issue.record("a9 holds \(item.content), not an alias"); continue }
            #expect(name == "a8")
        }
    }

    @Test func deepFlowNestingIsALimitAndNothingPastItIsKept() throws {
        let yaml = String(repeating: "[", count: 100_000)
        let result = readYAML(yaml)
        let diagnostic = try #require(only(result.diagnostics))
        #expect(diagnostic.code == .limit)
        #expect(diagnostic.range.start == location(1, 65))
        #expect(result.root?.isTruncated == true)
        // Nothing was kept past the limit: one sequence for each level up to it.
        #expect(result.root?.document.records.count == 64)
    }

    @Test func nestingUpToTheLimitIsFine() {
        let yaml = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(readYAML(yaml).diagnostics.isEmpty)
        let deeper = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(readYAML(deeper).diagnostics.map(\.code) == [.limit])
    }

    @Test func deepBlockNestingIsALimit() {
        var yaml = ""
        for level in 0..<100 { yaml += String(repeating: " ", count: level) + "k:\n" }
        #expect(readYAML(yaml).diagnostics.map(\.code) == [.limit])
    }

    @Test func tabIndentationIsRefused() throws {
        let (_, diagnostics, _) = readYAML("a:\n\tb: 1\n")
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.message == "tab character used for indentation")
        #expect(diagnostic.range.start == location(2, 1))
    }

    @Test func tabIndentationInFlowIsRefusedToo() throws {
        let (_, diagnostics, _) = readYAML("a: [1,\n  \t2]\n")
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.range.start == location(2, 3))
    }

    @Test func tabsInsideTextAreFine() {
        #expect(readYAML("a: |\n  x\n  \ty\nb: 'p\n\tq'\nc: x\ty # \tz\nd: [1,\n  2,\t3]\n").diagnostics.isEmpty)
    }

    @Test func tabBeforeACommentLineIsRefusedWhereLibyamlRefusesIt() {
        let diagnostics = readYAML("a: 1\n\t# comment\n").diagnostics
        #expect(diagnostics.map(\.message) == ["tab character used for indentation"])
        #expect(diagnostics.first?.range.start == location(2, 1))
    }

    @Test func invalidUTF8PointsAtTheByte() throws {
        let (root, diagnostics, _) = readYAML(bytes: Array("a: 1\nb: é".utf8) + [0xFF] + Array("\n".utf8))
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.message == "invalid UTF-8 byte 0xFF")
        #expect(diagnostic.range.start == location(2, 5))
        #expect(root == nil)
    }

    @Test func nulByteIsRefused() throws {
        let (_, diagnostics, _) = readYAML(bytes: Array("a: 1\nb: x".utf8) + [0] + Array("y\n".utf8))
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.message.contains("NUL"))
        #expect(diagnostic.range.start == location(2, 5))
    }

    @Test func utf16IsRefusedAsInvalidUTF8() {
        let (_, diagnostics, _) = readYAML(bytes: [0xFF, 0xFE, 0x61, 0x00])
        #expect(diagnostics.map(\.code) == [.yaml])
        #expect(diagnostics.first?.range.start == location(1, 1))
    }

    @Test func multipleDocumentsAreRefused() throws {
        let (root, diagnostics, _) = readYAML("a: 1\n---\nb: 2\n")
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.range.start == location(2, 1))
        #expect(root?.pairs?.count == 1)
    }

    @Test func explicitSingleDocumentIsFine() {
        let (root, diagnostics, _) = readYAML("---\na: 1\n...\n")
        #expect(diagnostics.isEmpty)
        #expect(root?.pairs?.count == 1)
    }

    @Test func duplicateKeyPointsAtTheSecondWithANoteAtTheFirst() throws {
        let (root, diagnostics, _) = readYAML("a: 1\nb:\n  x: 1\n  y: 2\n  x: 3\n")
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .duplicateKey)
        #expect(diagnostic.message == "duplicate key 'x'")
        #expect(diagnostic.range == SourceRange(file: "test.yaml", start: location(5, 3), end: location(5, 4)))
        #expect(diagnostic.notes.first?.range?.start == location(3, 3))
        #expect(value(value(root, "b"), "x")?.scalar?.value == "1")
        #expect(value(root, "b")?.pairs?.count == 2)
    }

    @Test func emptyFileHasNoRoot() {
        #expect(readYAML("").root == nil)
        #expect(readYAML("# only a comment\n").root == nil)
        #expect(readYAML("").diagnostics.isEmpty)
    }

    @Test func crlfAndBOMPositionsOfErrors() throws {
        let yaml: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("é: 1\r\nb: [1,\r\nc\r\n".utf8)
        let (_, diagnostics, _) = readYAML(bytes: yaml)
        let diagnostic = try #require(only(diagnostics))
        #expect(diagnostic.code == .yaml)
        #expect(diagnostic.notes.first?.range?.start == location(2, 4))
    }

    /// The input check reads plain text eight bytes at a time, four words at once: a forbidden
    /// byte is found at its exact offset wherever it falls in a word or a run of four (and in
    /// the bytes after the last whole word), and allowed ones (tab, CR, LF, é) are not taken for
    /// problems.
    @Test func everyForbiddenByteIsFoundWhereverItFallsInAWord() {
        let forbidden = Array(UInt8(0)...0x1F).filter { ![0x09, 0x0A, 0x0D].contains($0) } + [0x7F]
        let plain = Array("k: abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789\n".utf8)
        for position in 3..<(plain.count - 2) {
            for byte in forbidden {
                var bytes = plain
                bytes[position] = byte
                let problem = YAMLInputCheck.firstProblem(in: SourceFile(path: "x.yaml", bytes: bytes))
                #expect(problem?.range.start == location(1, position + 1), "byte \(byte) at \(position)")
            }
            for allowed in [[0x09], [0x0D], [0x0A], Array("é".utf8)] as [[UInt8]] {
                var bytes = plain
                bytes.replaceSubrange(position..<position + allowed.count, with: allowed)
                #expect(YAMLInputCheck.firstProblem(in: SourceFile(path: "x.yaml", bytes: bytes)) == nil, "\(allowed) at \(position)")
            }
        }
    }
}
