/// Computes the file positions of increasing UTF-8 offsets of a rule text, as
/// `RuleText.location(atUTF8Offset:)` gives them, without asking the `RuleText` for each.
///
/// - ASCII text on one line (`.singleLine`, the usual rule from YAML): the column is the
///   start column plus the offset.
/// - Otherwise the first token of a line asks the `RuleText`, and later ones count scalars on
///   from the previous offset, which keeps a very long line linear instead of quadratic.
struct TokenLocationCursor {
    private var bytes: UnsafeBufferPointer<UInt8>
    /// The text whose positions these are.
    private(set) var source: RuleText
    /// Where offset 0 is, when positions are plain arithmetic (ASCII text on one line).
    private var asciiLineStart: SourceLocation?
    /// Whether line breaks in the bytes are line breaks of the positions.
    private var isFile: Bool
    private var isTable: Bool
    private var offset = -1
    private var location = SourceLocation(line: 1, column: 1)

    init(bytes: UnsafeBufferPointer<UInt8>, source: consuming RuleText) {
        self.bytes = bytes
        (isFile, isTable, asciiLineStart) = Self.kind(of: source.mapping, bytes: bytes, isASCII: nil)
        self.source = source
    }

    /// Starts over on another text, as a new cursor would; in place, so that only the text
    /// this cursor held is released. `isASCII` tells whether `bytes` are all ASCII, when the
    /// caller knows (nil: look).
    mutating func reset(bytes: UnsafeBufferPointer<UInt8>, source: consuming RuleText, isASCII: Bool?) {
        self.bytes = bytes
        (isFile, isTable, asciiLineStart) = Self.kind(of: source.mapping, bytes: bytes, isASCII: isASCII)
        self.source = source
        rewind()
    }

    /// Whether line breaks are the file's, whether positions come from a table, and where
    /// offset 0 is when positions are plain arithmetic.
    private static func kind(of mapping: RuleText.Mapping, bytes: UnsafeBufferPointer<UInt8>,
                             isASCII: Bool?) -> (Bool, Bool, SourceLocation?) {
        switch mapping {
        case .file: return (true, false, nil)
        case .singleLine(let start):
            // Plain arithmetic for ASCII text whose every column fits in a `SourceLocation`.
            let fits = start.column + bytes.count < Int(Int32.max)
            return (false, false, fits && (isASCII ?? ASCIIWord.isASCII(UnsafeRawBufferPointer(bytes))) ? start : nil)
        case .table: return (false, true, nil)
        }
    }

    /// Back to the state of a new cursor, for the same text.
    mutating func rewind() {
        offset = -1
        location = SourceLocation(line: 1, column: 1)
    }

    /// The position of `target`, which is not before the offset asked for last.
    ///
    /// Inlined: the lexer asks twice per token, and the usual answer is one addition.
    @inline(__always)
    mutating func location(at target: Int) -> SourceLocation {
        if let start = asciiLineStart {
            return start.movedRight(by: target)
        }
        return countedLocation(at: target)
    }

    private mutating func countedLocation(at target: Int) -> SourceLocation {
        defer { offset = target }
        // Counting needs a table-free mapping, a start at a scalar boundary and a target after it.
        guard !isTable, offset >= 0, target >= offset, target <= bytes.count,
              offset == bytes.count || bytes[offset] & 0xC0 != 0x80,
              target == bytes.count || bytes[target] & 0xC0 != 0x80 else {
            location = source.location(atUTF8Offset: target)
            return location
        }
        var column = location.column
        var index = offset
        while index < target {
            let byte = bytes[index]
            if isFile, byte == 0x0A || byte == 0x0D {
                location = source.location(atUTF8Offset: target)
                return location
            }
            if byte & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        location = SourceLocation(line: location.line, column: column)
        return location
    }
}
