/// The text of one input file, with a line table for turning UTF-8 offsets into positions.
public struct SourceFile: Sendable {
    /// The path as the user gave it; diagnostics print it verbatim.
    public let path: String
    /// The raw bytes, as read from disk (a BOM and CRLF line endings included).
    public let bytes: [UInt8]
    /// UTF-8 offset at which each line starts; `lineStarts[0] == 0`.
    public let lineStarts: [Int]
    /// `path`'s number in `SourcePaths`, for making ranges in this file.
    let pathNumber: UInt32
    /// Whether every byte is ASCII (no BOM either): then a column is an offset in its line.
    let isASCII: Bool

    public init(path: String, bytes: [UInt8]) {
        self.path = path
        self.pathNumber = SourcePaths.number(of: path)
        self.bytes = bytes
        var starts = [0]
        var index = 0
        var allBits: UInt8 = 0
        while index < bytes.count {
            let byte = bytes[index]
            allBits |= byte
            if byte == 0x0A {
                starts.append(index + 1)
            } else if byte == 0x0D {
                // CR LF counts as one break; a lone CR is a break too (YAML's rule).
                if index + 1 < bytes.count, bytes[index + 1] == 0x0A { index += 1 }
                starts.append(index + 1)
            }
            index += 1
        }
        self.lineStarts = starts
        self.isASCII = allBits < 0x80
    }

    public init(path: String, text: String) {
        self.init(path: path, bytes: Array(text.utf8))
    }

    /// The 1-based line containing UTF-8 offset `offset`.
    public func line(containing offset: Int) -> Int {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if lineStarts[mid] <= offset { low = mid } else { high = mid - 1 }
        }
        return low + 1
    }

    /// The position of UTF-8 offset `offset` (clamped to the file). Columns count Unicode
    /// scalars, so a continuation byte never starts a column and a BOM is not counted.
    public func location(atUTF8Offset offset: Int) -> SourceLocation {
        let offset = min(max(0, offset), bytes.count)
        return location(atUTF8Offset: offset, onLine: line(containing: offset))
    }

    /// The 1-based line containing UTF-8 offset `offset`, searched outward from line `hint`:
    /// cheap when successive offsets asked for are close together.
    func line(containing offset: Int, near hint: Int) -> Int {
        var index = min(max(0, hint - 1), lineStarts.count - 1)
        for _ in 0..<8 {
            if lineStarts[index] > offset {
                guard index > 0 else { return 1 }
                index -= 1
            } else if index + 1 < lineStarts.count, lineStarts[index + 1] <= offset {
                index += 1
            } else {
                return index + 1
            }
        }
        return line(containing: offset)
    }

    /// The position of `offset` (already clamped to the file), which lies on 1-based `line`.
    func location(atUTF8Offset offset: Int, onLine line: Int) -> SourceLocation {
        if isASCII { return SourceLocation(line: line, column: offset - lineStarts[line - 1] + 1) }
        var start = lineStarts[line - 1]
        if line == 1, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            start = min(3, offset)
        }
        var column = 1
        var index = start
        while index < offset {
            if bytes[index] & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        // `column` now counts the scalars before `offset`, plus one; a continuation byte at
        // `offset` belongs to the scalar already counted.
        if offset < bytes.count, offset > start, bytes[offset] & 0xC0 == 0x80 { column -= 1 }
        return SourceLocation(line: line, column: column)
    }

    public func range(fromUTF8 start: Int, to end: Int) -> SourceRange {
        SourceRange(fileNumber: pathNumber, start: location(atUTF8Offset: start), end: location(atUTF8Offset: end))
    }

    /// The text of 1-based line `number` without its line break (invalid UTF-8 repaired), for
    /// showing under a diagnostic.
    public func lineText(_ number: Int) -> String {
        guard number >= 1, number <= lineStarts.count else { return "" }
        var start = lineStarts[number - 1]
        if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        var end = number < lineStarts.count ? lineStarts[number] : bytes.count
        while end > start, bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
