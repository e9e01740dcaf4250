/// Re-scans a scalar's raw text to learn where each byte of its decoded value came from.
///
/// libyaml gives the decoded value and the scalar's start and end, but not how quoting,
/// escapes and line folding moved the text around. This scanner repeats libyaml's decoding
/// (`yaml_parser_scan_plain_scalar`, `…_flow_scalar`, `…_block_scalar`) over the file's bytes
/// and records, for every output byte, the file offset it came from: the character itself,
/// the backslash of an escape, the first quote of `''`, or the line break a fold replaced.
struct YAMLScalarScanner {
    /// The decoded bytes and the file offset each came from.
    struct Output {
        var bytes: [UInt8] = []
        var origins: [Int] = []
        /// The file offset just after the scalar's last content character.
        var end = 0

        mutating func append(_ byte: UInt8, from origin: Int) {
            bytes.append(byte)
            origins.append(origin)
        }

        mutating func append(_ part: LineBreak) {
            for byte in part.text { append(byte, from: part.origin) }
        }
    }

    /// A line break as YAML normalises it (`\n`, or an LS/PS kept as is), and where it was.
    struct LineBreak {
        var text: [UInt8]
        var origin: Int
        var isLineFeed: Bool { text == [0x0A] }
    }

    let bytes: [UInt8]
    /// The scan never reads at or past this offset (libyaml's end mark of the scalar).
    let end: Int

    init(bytes: [UInt8], end: Int) {
        self.bytes = bytes
        self.end = min(end, bytes.count)
    }

    /// Re-scans `scalar`; nil when the text does not have the expected shape.
    static func scan(_ scalar: YAMLScalar, in bytes: [UInt8]) -> Output? {
        let scanner = YAMLScalarScanner(bytes: bytes, end: scalar.contentEnd)
        switch scalar.style {
        case .plain, .singleQuoted, .doubleQuoted:
            return scanner.scanFlowScalar(from: scalar.contentStart, style: scalar.style)
        case .literal, .folded:
            return scanner.scanBlockScalar(from: scalar.contentStart, parentIndent: scalar.parentIndent)
        }
    }

    // MARK: - Characters

    private func byte(_ index: Int) -> UInt8? {
        index < end ? bytes[index] : nil
    }

    private func isBlank(_ index: Int) -> Bool {
        byte(index) == 0x20 || byte(index) == 0x09
    }

    /// The line break at `index` (CR LF, CR, LF, NEL, LS, PS) and its length in bytes.
    private func lineBreak(at index: Int) -> (LineBreak, Int)? {
        guard let first = byte(index) else { return nil }
        switch first {
        case 0x0D:
            let length = byte(index + 1) == 0x0A ? 2 : 1
            return (LineBreak(text: [0x0A], origin: index), length)
        case 0x0A:
            return (LineBreak(text: [0x0A], origin: index), 1)
        case 0xC2 where byte(index + 1) == 0x85:
            return (LineBreak(text: [0x0A], origin: index), 2)
        case 0xE2 where byte(index + 1) == 0x80 && (byte(index + 2) == 0xA8 || byte(index + 2) == 0xA9):
            return (LineBreak(text: Array(bytes[index..<index + 3]), origin: index), 3)
        default:
            return nil
        }
    }

    /// Copies the UTF-8 character at `index`; returns its length.
    private func copyCharacter(at index: Int, into output: inout Output) -> Int {
        let length = min(YAMLCharacterOffsets.sequenceLength(lead: bytes[index]), end - index)
        for offset in 0..<length { output.append(bytes[index + offset], from: index + offset) }
        return length
    }

    // MARK: - Plain and quoted scalars

    /// Blanks and breaks between two pieces of content, joined as YAML folds them.
    private struct PendingSpace {
        var blanks: [(UInt8, Int)] = []
        var sawBreak = false
        var leadingBreak: LineBreak?
        var trailingBreaks: [LineBreak] = []

        mutating func flush(into output: inout Output) {
            if sawBreak {
                if let leading = leadingBreak, leading.isLineFeed {
                    if trailingBreaks.isEmpty {
                        output.append(0x20, from: leading.origin)
                    }
                } else if let leading = leadingBreak {
                    output.append(leading)
                }
                for line in trailingBreaks { output.append(line) }
            } else {
                for (byte, origin) in blanks { output.append(byte, from: origin) }
            }
            self = PendingSpace()
        }
    }

    func scanFlowScalar(from start: Int, style: YAMLScalarStyle) -> Output? {
        let quote: UInt8? = style == .singleQuoted ? 0x27 : style == .doubleQuoted ? 0x22 : nil
        var index = start
        if let quote {
            guard byte(index) == quote else { return nil }
            index += 1
        }
        var output = Output()
        var pending = PendingSpace()
        output.end = index
        while index < end {
            let current = bytes[index]
            if let quote, current == quote {
                if quote == 0x27, byte(index + 1) == 0x27 {
                    pending.flush(into: &output)
                    output.append(0x27, from: index)
                    index += 2
                    output.end = index
                    continue
                }
                pending.flush(into: &output)
                output.end = index
                return output
            }
            if current == 0x20 || current == 0x09 {
                if !pending.sawBreak { pending.blanks.append((current, index)) }
                index += 1
                continue
            }
            if let (lineBreak, length) = lineBreak(at: index) {
                if pending.sawBreak {
                    pending.trailingBreaks.append(lineBreak)
                } else {
                    pending.blanks.removeAll()
                    pending.leadingBreak = lineBreak
                    pending.sawBreak = true
                }
                index += length
                continue
            }
            pending.flush(into: &output)
            if quote == 0x22, current == 0x5C {
                if let (_, length) = lineBreak(at: index + 1) {
                    // An escaped line break joins the lines without a space.
                    pending.sawBreak = true
                    index += 1 + length
                    continue
                }
                guard let length = decodeEscape(at: index, into: &output) else { return nil }
                index += length
                output.end = index
                continue
            }
            index += copyCharacter(at: index, into: &output)
            output.end = index
        }
        // A quoted scalar ends with its closing quote, inside the bounds.
        return quote == nil ? output : nil
    }

    /// Decodes the escape sequence at `index` (a backslash); returns its length in bytes.
    private func decodeEscape(at index: Int, into output: inout Output) -> Int? {
        guard let letter = byte(index + 1) else { return nil }
        let simple: [UInt8: UInt32] = [
            0x30: 0, 0x61: 7, 0x62: 8, 0x74: 9, 0x09: 9, 0x6E: 10, 0x76: 11, 0x66: 12, 0x72: 13,
            0x65: 27, 0x20: 0x20, 0x22: 0x22, 0x2F: 0x2F, 0x27: 0x27, 0x5C: 0x5C,
            0x4E: 0x85, 0x5F: 0xA0, 0x4C: 0x2028, 0x50: 0x2029,
        ]
        var scalar: UInt32
        var length = 2
        if let value = simple[letter] {
            scalar = value
        } else {
            let digits: Int
            switch letter {
            case 0x78: digits = 2
            case 0x75: digits = 4
            case 0x55: digits = 8
            default: return nil
            }
            scalar = 0
            for offset in 0..<digits {
                guard let digit = byte(index + 2 + offset), let value = Self.hexValue(digit) else { return nil }
                scalar = scalar &* 16 &+ value
            }
            length += digits
        }
        guard let unicode = Unicode.Scalar(scalar) else { return nil }
        for unit in String(unicode).utf8 { output.append(unit, from: index) }
        return length
    }

    private static func hexValue(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: return UInt32(byte - 0x30)
        case 0x41...0x46: return UInt32(byte - 0x41 + 10)
        case 0x61...0x66: return UInt32(byte - 0x61 + 10)
        default: return nil
        }
    }

    // MARK: - Block scalars

    func scanBlockScalar(from start: Int, parentIndent: Int) -> Output? {
        guard let indicator = byte(start), indicator == 0x7C || indicator == 0x3E else { return nil }
        let literal = indicator == 0x7C
        var index = start + 1
        var chomping = 0
        var increment = 0
        for _ in 0..<2 {
            guard let current = byte(index) else { break }
            if chomping == 0, current == 0x2B || current == 0x2D {
                chomping = current == 0x2B ? 1 : -1
                index += 1
            } else if increment == 0, (0x31...0x39).contains(current) {
                increment = Int(current - 0x30)
                index += 1
            }
        }
        while isBlank(index) { index += 1 }
        if byte(index) == 0x23 {
            while index < end, lineBreak(at: index) == nil { index += 1 }
        }
        if let (_, length) = lineBreak(at: index) {
            index += length
        } else if index < end {
            return nil
        }

        var indent = increment > 0 ? (parentIndent >= 0 ? parentIndent + increment : increment) : 0
        var output = Output()
        output.end = index
        var trailingBreaks: [LineBreak] = []
        var leadingBreak: LineBreak?
        var leadingBlank = false
        guard var column = scanBreaks(&index, indent: &indent, parentIndent: parentIndent, into: &trailingBreaks) else { return nil }

        while column == indent, index < end {
            let trailingBlank = isBlank(index)
            if !literal, let leading = leadingBreak, leading.isLineFeed, !leadingBlank, !trailingBlank {
                if trailingBreaks.isEmpty { output.append(0x20, from: leading.origin) }
            } else if let leading = leadingBreak {
                output.append(leading)
            }
            leadingBreak = nil
            for line in trailingBreaks { output.append(line) }
            trailingBreaks.removeAll()
            leadingBlank = isBlank(index)
            while index < end, lineBreak(at: index) == nil {
                index += copyCharacter(at: index, into: &output)
            }
            output.end = index
            guard let (lineBreak, length) = lineBreak(at: index) else { break }
            leadingBreak = lineBreak
            index += length
            guard let next = scanBreaks(&index, indent: &indent, parentIndent: parentIndent, into: &trailingBreaks) else { return nil }
            column = next
        }
        if chomping != -1, let leading = leadingBreak { output.append(leading) }
        if chomping == 1 { for line in trailingBreaks { output.append(line) } }
        return output
    }

    /// Skips indentation and empty lines (collecting their breaks), fixing the indentation
    /// when it is not yet known; returns the column reached (spaces skipped on the last line).
    private func scanBreaks(_ index: inout Int, indent: inout Int, parentIndent: Int, into breaks: inout [LineBreak]) -> Int? {
        var maximumIndent = 0
        var column = 0
        while true {
            column = 0
            while indent == 0 || column < indent, byte(index) == 0x20 {
                index += 1
                column += 1
            }
            maximumIndent = max(maximumIndent, column)
            if indent == 0 || column < indent, byte(index) == 0x09 { return nil }
            guard let (lineBreak, length) = lineBreak(at: index) else { break }
            breaks.append(lineBreak)
            index += length
        }
        if indent == 0 {
            indent = max(maximumIndent, parentIndent + 1, 1)
        }
        return column
    }
}
