/// Turns libyaml's mark indices into UTF-8 offsets. libyaml counts characters (Unicode
/// scalars), not bytes, and does not count a leading byte order mark; a CR LF pair counts as two.
/// Marks arrive nearly in order, so a cursor that walks from the previous answer is cheap.
struct YAMLCharacterOffsets {
    private let bytes: [UInt8]
    /// The offset of character 0: after a byte order mark.
    private let start: Int
    /// Whether every byte is ASCII (no BOM either): then characters are bytes.
    private let isASCII: Bool
    /// The cursor: a character and its offset.
    private var characterIndex = 0
    private var byteOffset: Int

    /// Offsets for libyaml reading the whole of `file`, which must be valid UTF-8.
    init(file: SourceFile) {
        bytes = file.bytes
        start = file.hasByteOrderMark ? 3 : 0
        isASCII = file.isASCII
        byteOffset = start
    }

    /// The UTF-8 offset of character `index` (clamped to the file).
    mutating func byteOffset(ofCharacter index: Int) -> Int {
        if isASCII { return min(max(start, start + index), bytes.count) }
        while characterIndex < index, byteOffset < bytes.count {
            byteOffset += Self.sequenceLength(lead: bytes[byteOffset])
            characterIndex += 1
        }
        while characterIndex > index, byteOffset > start {
            byteOffset -= 1
            while byteOffset > start, bytes[byteOffset] & 0xC0 == 0x80 { byteOffset -= 1 }
            characterIndex -= 1
        }
        return min(byteOffset, bytes.count)
    }

    /// The length of the UTF-8 sequence that `lead` starts (1 for a stray continuation byte).
    static func sequenceLength(lead: UInt8) -> Int {
        switch lead {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }
}

/// Converts ascending UTF-8 offsets to positions without rescanning each line from its start.
struct SourceLocationCursor {
    private let file: SourceFile
    /// The file's size and whether it is ASCII, kept at hand for the common path.
    private let byteCount: Int
    private let isASCII: Bool
    private var offset = -1
    private var location = SourceLocation(line: 1, column: 1)
    private var lineEnd = -1

    init(file: SourceFile) {
        self.file = file
        self.byteCount = file.bytes.count
        self.isASCII = file.isASCII
    }

    /// A cursor whose first answer is searched from line `line` outward.
    init(file: SourceFile, nearLine line: Int) {
        self.init(file: file)
        self.location = SourceLocation(line: line, column: 1)
    }

    mutating func location(atUTF8Offset target: Int) -> SourceLocation {
        let target = min(max(0, target), byteCount)
        guard offset >= 0, target >= offset, target < lineEnd else {
            location = file.location(atUTF8Offset: target, onLine: file.line(containing: target, near: location.line))
            offset = target
            lineEnd = location.line < file.lineStarts.count ? file.lineStarts[location.line] : byteCount + 1
            return location
        }
        if isASCII {
            location = SourceLocation(line: location.line, column: location.column + target - offset)
            offset = target
            return location
        }
        let bytes = file.bytes
        var column = location.column
        // `column` belongs to the scalar containing `offset`; move scalar by scalar.
        var index = offset
        while index < target {
            index += 1
            if index < bytes.count, bytes[index] & 0xC0 != 0x80 { column += 1 }
            if index == bytes.count { column += 1 }
        }
        offset = target
        location = SourceLocation(line: location.line, column: column)
        return location
    }
}
