/// Where a large manifest can be read in two parts at once: the start of a line near the middle
/// of the file that begins an entry of a top-level block section (`tips:` then `  tipN:` lines).
///
/// Found from the text alone, so it is only a candidate: the part before it is read with the
/// whole file as input and confirms that libyaml's parser is exactly there (an entry key of that
/// section, nothing else open); the part after it is read as the section's header line followed
/// by the rest of the file, which puts libyaml in the same state. See `YAMLReader.readPart`.
struct YAMLSplitPoint: Sendable, Equatable {
    /// The section's name, as its header line writes it (`tips`).
    var section: String
    /// The UTF-8 range of the section's header line, its line break included.
    var header: Range<Int>
    /// The UTF-8 offset of the line where the second part starts.
    var offset: Int
    /// The number of spaces before the entry's key on that line.
    var indent: Int

    /// Where the second part's first key starts.
    var keyOffset: Int { offset + indent }

    /// The candidate nearest after the middle of `file`, or nil when there is none (the middle
    /// is not inside the entries of a top-level section whose header is a plain `name:` line).
    static func find(in file: SourceFile) -> YAMLSplitPoint? {
        file.bytes.withUnsafeBufferPointer { find(in: $0, start: file.hasByteOrderMark ? 3 : 0) }
    }

    private static func find(in bytes: UnsafeBufferPointer<UInt8>, start: Int) -> YAMLSplitPoint? {
        guard bytes.count - start > 2 else { return nil }
        let middle = start + (bytes.count - start) / 2
        // The header: the last top-level line before the middle (lines at column 0 that are not
        // comments belong to the top level, whatever else the file holds).
        let lineStart = Self.lastTopLevelLineStart(atOrBefore: Self.lineStart(atOrBefore: middle, in: bytes, from: start),
                                                   in: bytes, from: start)
        guard Self.isTopLevelLine(at: lineStart, in: bytes),
              let (section, headerEnd) = Self.header(at: lineStart, in: bytes) else { return nil }
        // The section's entries are indented as its first entry is.
        guard let indent = Self.firstEntryIndent(after: headerEnd, in: bytes) else { return nil }
        // The first line after the middle indented exactly so, and starting a key.
        var candidate = Self.nextLineStart(after: middle, in: bytes)
        while candidate < bytes.count {
            if Self.isTopLevelLine(at: candidate, in: bytes) { return nil }  // the section ended
            let indentation = Self.indentation(at: candidate, in: bytes)
            if indentation == indent, candidate + indent < bytes.count, Self.startsKey(bytes[candidate + indent]) {
                return YAMLSplitPoint(section: section, header: lineStart..<headerEnd, offset: candidate, indent: indent)
            }
            candidate = Self.nextLineStart(after: candidate, in: bytes)
        }
        return nil
    }

    private static func lineStart(atOrBefore index: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        var index = index
        while index > start, bytes[index - 1] != 0x0A { index -= 1 }
        return index
    }

    /// The start of the last top-level line (see `isTopLevelLine`) that starts at or before
    /// `index`, a line start; `start` when there is none. Looks at eight bytes at a time, for
    /// it crosses about half the file.
    private static func lastTopLevelLineStart(atOrBefore index: Int, in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        if index <= start || Self.isTopLevelLine(at: index, in: bytes) { return index }
        // Line breaks before `end` (exclusive) are looked at; the line after each starts a candidate.
        var end = index - 1
        let raw = UnsafeRawBufferPointer(bytes)
        while end - 8 >= start {
            let word = ASCIIWord(raw, at: end - 8)
            if word.isASCII {
                var breaks = word.bytes(equalTo: 0x0A)
                while breaks != 0 {
                    // The highest flag is the last line break in the word.
                    let byte = (63 - breaks.leadingZeroBitCount) / 8
                    let lineStart = end - 8 + byte + 1
                    if Self.isTopLevelLine(at: lineStart, in: bytes) { return lineStart }
                    breaks &= ~(UInt64(0x80) << (8 * UInt64(byte)))
                }
            } else {
                for offset in stride(from: end - 1, through: end - 8, by: -1) where bytes[offset] == 0x0A {
                    if Self.isTopLevelLine(at: offset + 1, in: bytes) { return offset + 1 }
                }
            }
            end -= 8
        }
        while end > start {
            end -= 1
            if bytes[end] == 0x0A, Self.isTopLevelLine(at: end + 1, in: bytes) { return end + 1 }
        }
        return start
    }

    /// The start of the line after the one holding `index` (the end of the file if none).
    private static func nextLineStart(after index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var index = index
        while index < bytes.count, bytes[index] != 0x0A { index += 1 }
        return min(index + 1, bytes.count)
    }

    /// A line with content at column 0 that is not a comment.
    private static func isTopLevelLine(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard index < bytes.count else { return false }
        let byte = bytes[index]
        return byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x23 && byte != 0x09
    }

    /// `name:` alone on its line (a comment may follow): the name and the end of the line.
    private static func header(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (String, Int)? {
        var end = index
        while end < bytes.count, Self.isNameByte(bytes[end]) { end += 1 }
        guard end > index, end < bytes.count, bytes[end] == 0x3A else { return nil }
        let name = String(decoding: bytes[index..<end], as: UTF8.self)
        var rest = end + 1
        while rest < bytes.count, bytes[rest] == 0x20 { rest += 1 }
        guard rest < bytes.count, [0x0A, 0x0D, 0x23].contains(bytes[rest]) else { return nil }
        return (name, Self.nextLineStart(after: rest, in: bytes))
    }

    /// The indentation of the first line with content after `index`, if it is indented.
    private static func firstEntryIndent(after index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        var line = index
        while line < bytes.count {
            let indent = Self.indentation(at: line, in: bytes)
            let first = line + indent
            if first < bytes.count, bytes[first] != 0x0A, bytes[first] != 0x0D, bytes[first] != 0x23 {
                return indent > 0 && Self.startsKey(bytes[first]) ? indent : nil
            }
            line = Self.nextLineStart(after: line, in: bytes)
        }
        return nil
    }

    private static func indentation(at index: Int, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var end = index
        while end < bytes.count, bytes[end] == 0x20 { end += 1 }
        return end - index
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte) || (0x30...0x39).contains(byte) || byte == 0x5F || byte == 0x2D
    }

    /// A byte that begins a plain or quoted key.
    private static func startsKey(_ byte: UInt8) -> Bool {
        Self.isNameByte(byte) && byte != 0x2D || byte == 0x22 || byte == 0x27
    }
}
