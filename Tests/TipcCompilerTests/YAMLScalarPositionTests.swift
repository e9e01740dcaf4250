import Testing
@testable import TipcCompiler

/// Every byte of a scalar's decoded value maps to the file position it was written at.
@Suite struct YAMLScalarPositionTests {
    /// The rule text of the scalar at `key` of the top mapping. Read from the node's start
    /// as the manifest reader does, it maps every byte to the same position.
    private func ruleText(_ yaml: String, _ key: String = "r") -> RuleText? {
        let (root, diagnostics, file) = readYAML(yaml)
        #expect(diagnostics.isEmpty, "\(diagnostics)")
        guard let node = value(root, key), let scalar = node.scalar else { return nil }
        let text = scalar.ruleText(in: file)
        let fromStart = scalar.ruleText(in: file, startingAt: node.range.start)
        #expect(fromStart.text == text.text)
        for offset in 0...text.text.utf8.count {
            #expect(fromStart.location(atUTF8Offset: offset) == text.location(atUTF8Offset: offset), "offset \(offset)")
        }
        return text
    }

    /// Where the first occurrence of `needle` in the decoded text points.
    private func position(of needle: String, in text: RuleText) -> TipcCompiler.SourceLocation? {
        utf8Offset(of: needle, in: text.text).map { text.location(atUTF8Offset: $0) }
    }

    @Test func plainSingleLine() throws {
        let text = try #require(ruleText("r: $a and b.count >= 3\n"))
        #expect(text.text == "$a and b.count >= 3")
        guard case .singleLine(let start) = text.mapping else { Issue.record("expected a single-line mapping"); return }
        #expect(start == location(1, 4))
        #expect(position(of: "b.count", in: text) == location(1, 11))
        #expect(text.location(atUTF8Offset: text.text.utf8.count) == location(1, 23))
    }

    @Test func plainAfterNonASCII() throws {
        let text = try #require(ruleText("é: 0\nr: x == \"ü\" and ok\n"))
        #expect(text.text == "x == \"ü\" and ok")
        #expect(position(of: "and", in: text) == location(2, 13))
    }

    @Test func plainMultiLineFoldsBreaks() throws {
        let yaml = "r: $a and\n  b.count >= 3\n\n  and c\n"
        let text = try #require(ruleText(yaml))
        #expect(text.text == "$a and b.count >= 3\nand c")
        #expect(position(of: "b.count", in: text) == location(2, 3))
        #expect(position(of: "c", in: text) == location(2, 5))  // "b.count": its 'c'
        #expect(position(of: "and c", in: text) == location(4, 3))
        // The folded space stands for the line break after "and".
        #expect(text.location(atUTF8Offset: 6) == location(1, 10))
    }

    @Test func singleQuotedWithEscapedQuote() throws {
        let text = try #require(ruleText("r: 'it''s x == ''a'''\n"))
        #expect(text.text == "it's x == 'a'")
        #expect(position(of: "x ==", in: text) == location(1, 11))
        #expect(position(of: "'a'", in: text) == location(1, 16))
        #expect(position(of: "a'", in: text) == location(1, 18))
    }

    @Test func singleQuotedWithoutEscapesIsOneLine() throws {
        let text = try #require(ruleText("r: '!$a'\n"))
        guard case .singleLine(let start) = text.mapping else { Issue.record("expected a single-line mapping"); return }
        #expect(start == location(1, 5))
    }

    @Test func doubleQuotedEscapes() throws {
        // Source: r: "a\tb \u00e9 \x41 \U0001F600 \"q\" \\ z"
        let yaml = #"r: "a\tb \u00e9 \x41 \U0001F600 \"q\" \\ z""# + "\n"
        let text = try #require(ruleText(yaml))
        #expect(text.text == "a\tb é A 😀 \"q\" \\ z")
        #expect(position(of: "\t", in: text) == location(1, 6))
        #expect(position(of: "b", in: text) == location(1, 8))
        #expect(position(of: "é", in: text) == location(1, 10))
        // The second byte of é maps to the same escape.
        #expect(text.location(atUTF8Offset: utf8Offset(of: "é", in: text.text)! + 1) == location(1, 10))
        #expect(position(of: "A", in: text) == location(1, 17))
        #expect(position(of: "😀", in: text) == location(1, 22))
        #expect(position(of: "\"q", in: text) == location(1, 33))
        #expect(position(of: "q", in: text) == location(1, 35))
        #expect(position(of: "\\", in: text) == location(1, 39))
        #expect(position(of: "z", in: text) == location(1, 42))
        #expect(text.location(atUTF8Offset: text.text.utf8.count) == location(1, 43))
    }

    @Test func doubleQuotedLineFoldingAndEscapedBreak() throws {
        let yaml = "r: \"a and\n    b \\\n    c\n\n    d\"\n"
        let text = try #require(ruleText(yaml))
        #expect(text.text == "a and b c\nd")
        #expect(position(of: "b", in: text) == location(2, 5))
        #expect(position(of: "c", in: text) == location(3, 5))
        #expect(position(of: "\nd", in: text) == location(4, 1))
        #expect(text.location(atUTF8Offset: text.text.utf8.count - 1) == location(5, 5))
        #expect(text.location(atUTF8Offset: 5) == location(1, 10))  // the folded break
    }

    @Test func literalBlockScalar() throws {
        let yaml = "r: |\n  a and\n    b\n\n  c\nz: 1\n"
        let text = try #require(ruleText(yaml))
        #expect(text.text == "a and\n  b\n\nc\n")
        #expect(position(of: "a", in: text) == location(2, 3))
        #expect(position(of: "b", in: text) == location(3, 5))
        #expect(position(of: "c", in: text) == location(5, 3))
    }

    @Test func foldedBlockScalarWithIndentationIndicator() throws {
        let yaml = "t:\n  r: >2-\n     x and\n    y\n\n    z\n"
        let (root, diagnostics, file) = readYAML(yaml)
        #expect(diagnostics.isEmpty)
        let text = try #require(value(value(root, "t"), "r")?.scalar?.ruleText(in: file))
        #expect(text.text == " x and\ny\nz")
        #expect(position(of: "x", in: text) == location(3, 6))
        #expect(position(of: "y", in: text) == location(4, 5))
        #expect(position(of: "z", in: text) == location(6, 5))
    }

    @Test func crlfLineEndings() throws {
        let yaml = "a: 1\r\nr: \"x\\u00e9 and\r\n  y\"\r\ns: plain\r\n  more\r\n"
        let (root, diagnostics, file) = readYAML(yaml)
        #expect(diagnostics.isEmpty)
        let quoted = try #require(value(root, "r")?.scalar?.ruleText(in: file))
        #expect(quoted.text == "xé and y")
        #expect(position(of: "and", in: quoted) == location(2, 13))
        #expect(position(of: "y", in: quoted) == location(3, 3))
        let plain = try #require(value(root, "s")?.scalar?.ruleText(in: file))
        #expect(plain.text == "plain more")
        #expect(position(of: "more", in: plain) == location(5, 3))
        #expect(value(root, "s")?.range.start == location(4, 4))
    }

    @Test func byteOrderMarkIsNotCounted() throws {
        let yaml: [UInt8] = [0xEF, 0xBB, 0xBF] + Array("é: 1\nr: 'x' \n".utf8)
        let (root, diagnostics, file) = readYAML(bytes: yaml)
        #expect(diagnostics.isEmpty)
        #expect(root?.pairs?.first?.key.range.start == location(1, 1))
        #expect(value(root, "é")?.range.start == location(1, 4))
        let text = try #require(value(root, "r")?.scalar?.ruleText(in: file))
        #expect(text.location(atUTF8Offset: 0) == location(2, 5))
    }

    @Test func tagPropertyIsSkipped() throws {
        let (root, _, file) = readYAML("r: !t  x y\n")
        let text = try #require(value(root, "r")?.scalar?.ruleText(in: file))
        #expect(text.text == "x y")
        #expect(text.location(atUTF8Offset: 2) == location(1, 10))
    }

    /// Positions of an ASCII file are computed without counting characters, and a cursor
    /// moving forward gives the same positions as a fresh search, in ASCII and other text.
    @Test func asciiAndCursorPositionsAgreeWithCountingCharacters() {
        for text in ["a: 1\nbb: [x, y]\r\n  c: \"d\"\n\n", "a: é\nbé: [ü, 🦜]\r\n  c: \"d\"\n", "\u{FEFF}k: v\nw: x"] {
            let file = SourceFile(path: "p.yaml", text: text)
            #expect(file.isASCII == text.utf8.allSatisfy { $0 < 0x80 })
            var cursor = SourceLocationCursor(file: file)
            // Offsets inside a BOM are never asked for (libyaml's marks skip it).
            for offset in (file.hasByteOrderMark ? 3 : 0)...file.bytes.count {
                let line = file.line(containing: offset)
                var start = file.lineStarts[line - 1]
                if line == 1, file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = min(3, offset) }
                var column = 1 + file.bytes[start..<offset].filter { $0 & 0xC0 != 0x80 }.count
                if offset < file.bytes.count, offset > start, file.bytes[offset] & 0xC0 == 0x80 { column -= 1 }
                let expected = SourceLocation(line: line, column: column)
                #expect(file.location(atUTF8Offset: offset) == expected, "\(text) at \(offset)")
                #expect(cursor.location(atUTF8Offset: offset) == expected, "\(text) at \(offset)")
            }
        }
    }

    /// The text written byte for byte is recognised eight bytes at a time: an escape, a tab or
    /// non-ASCII text anywhere in a long scalar still takes the exact path, and every byte
    /// keeps its own column.
    @Test func anEscapeAnywhereInALongScalarKeepsEveryColumn() throws {
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for position in 0...letters.count {
            let before = String(letters[..<position]), after = String(letters[position...])
            let text = try #require(ruleText("r: \"\(before)\\\"\(after)\"\n"))
            #expect(text.text == before + "\"" + after)
            for (offset, _) in text.text.utf8.enumerated() {
                // The value starts at column 5; the escape takes two columns for one byte.
                let column = 5 + offset + (offset > position ? 1 : 0)
                #expect(text.location(atUTF8Offset: offset) == location(1, column), "escape at \(position), byte \(offset)")
            }
            let plain = try #require(ruleText("r: \(before)é\(after)\n"))
            #expect(plain.location(atUTF8Offset: plain.text.utf8.count) == location(1, 4 + letters.count + 1))
        }
    }
}
