extension YAMLScalar {
    /// The scalar's decoded value as rule text, with the file position of each of its UTF-8
    /// bytes: exact for plain, quoted and block scalars alike. Should the re-scan ever disagree
    /// with libyaml's value, every byte maps to the scalar's start (positions stay in the file,
    /// the text stays libyaml's).
    public func ruleText(in file: SourceFile) -> RuleText {
        ruleText(in: file, cursor: SourceLocationCursor(file: file))
    }

    /// `ruleText(in:)` for a scalar whose text starts at `start` (its node's range's start):
    /// a value written verbatim starts there, or one column later after its quote, and other
    /// positions are searched from that line. Consuming: the value moves into the rule text
    /// (a scalar read for its rule is not needed after).
    consuming func ruleText(in file: SourceFile, startingAt start: SourceLocation) -> RuleText {
        if let first = verbatimStart(in: file.bytes) {
            let location = first == contentStart ? start : SourceLocation(line: start.line, column: start.column + 1)
            return RuleText(text: value, pathNumber: file.pathNumber, mapping: .singleLine(start: location))
        }
        return ruleText(in: file, cursor: SourceLocationCursor(file: file, nearLine: start.line))
    }

    private func ruleText(in file: SourceFile, cursor: SourceLocationCursor) -> RuleText {
        var cursor = cursor
        if let first = verbatimStart(in: file.bytes) {
            return RuleText(text: value, pathNumber: file.pathNumber, mapping: .singleLine(start: cursor.location(atUTF8Offset: first)))
        }
        guard let output = YAMLScalarScanner.scan(self, in: file.bytes), output.bytes.elementsEqual(value.utf8) else {
            let start = cursor.location(atUTF8Offset: contentStart)
            let end = cursor.location(atUTF8Offset: contentEnd)
            let table = Array(repeating: start, count: value.utf8.count) + [end]
            return RuleText(text: value, pathNumber: file.pathNumber, mapping: .table(table))
        }
        let origins = output.origins
        if let first = origins.first {
            let contiguous = origins.indices.allSatisfy { origins[$0] == first + $0 }
            if contiguous, file.line(containing: first) == file.line(containing: output.end),
               output.end == first + origins.count {
                return RuleText(text: value, pathNumber: file.pathNumber, mapping: .singleLine(start: cursor.location(atUTF8Offset: first)))
            }
        } else {
            return RuleText(text: value, pathNumber: file.pathNumber, mapping: .singleLine(start: cursor.location(atUTF8Offset: output.end)))
        }
        var table: [SourceLocation] = []
        table.reserveCapacity(origins.count + 1)
        for origin in origins { table.append(cursor.location(atUTF8Offset: origin)) }
        table.append(cursor.location(atUTF8Offset: output.end))
        return RuleText(text: value, pathNumber: file.pathNumber, mapping: .table(table))
    }

    /// Where the value starts in the file when it is written there byte for byte on one line
    /// (a plain or quoted scalar without escapes, folding or non-ASCII text): the common case,
    /// which needs no re-scan. Nil otherwise.
    private func verbatimStart(in bytes: [UInt8]) -> Int? {
        var start = contentStart
        var end = contentEnd
        switch style {
        case .plain:
            break
        case .singleQuoted, .doubleQuoted:
            let quote: UInt8 = style == .singleQuoted ? 0x27 : 0x22
            guard end - start >= 2, end <= bytes.count, bytes[start] == quote, bytes[end - 1] == quote else { return nil }
            start += 1
            end -= 1
        case .literal, .folded:
            return nil
        }
        let utf8 = value.utf8
        guard start >= 0, start < end, end <= bytes.count, utf8.count == end - start else { return nil }
        // Inside quotes, the quote itself and (double-quoted) the backslash take the exact path,
        // as do line breaks, tabs and non-ASCII text.
        let excluded: (UInt8, UInt8) = switch style {
        case .singleQuoted: (0x27, 0x27)
        case .doubleQuoted: (0x22, 0x5C)
        default: (0x7F, 0x7F)
        }
        let matches = bytes.withUnsafeBytes { file in
            utf8.withContiguousStorageIfAvailable { text in
                let text = UnsafeRawBufferPointer(text)
                var offset = 0
                // Eight bytes at a time: the same, printable ASCII, none excluded.
                while offset + 8 <= text.count {
                    let raw = ASCIIWord(file, at: start + offset)
                    guard raw.bits == ASCIIWord(text, at: offset).bits, raw.isASCII,
                          raw.controls | raw.bytes(equalTo: 0x7F) | raw.bytes(equalTo: excluded.0) | raw.bytes(equalTo: excluded.1) == 0
                    else { return false }
                    offset += 8
                }
                while offset < text.count {
                    let raw = file[start + offset]
                    guard raw == text[offset], raw >= 0x20, raw < 0x7F, raw != excluded.0, raw != excluded.1 else { return false }
                    offset += 1
                }
                return true
            } ?? false
        }
        return matches ? start : nil
    }
}
