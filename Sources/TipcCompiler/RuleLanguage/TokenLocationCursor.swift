/// Computes the file positions of increasing UTF-8 offsets of a rule text, as
/// `RuleText.location(atUTF8Offset:)` gives them, without asking the `RuleText` for each.
///
/// - ASCII text on one line (`.singleLine`, the usual rule from YAML): the column is the
///   start column plus the offset.
/// - Otherwise the first token of a line asks the `RuleText`, and later ones count scalars on
///   from the previous offset, which keeps a very long line linear instead of quadratic.
struct TokenLocationCursor {
    private let bytes: UnsafeBufferPointer<UInt8>
    /// The text whose positions these are.
    let source: RuleText
    /// Where offset 0 is, when positions are plain arithmetic (ASCII text on one line).
    private let asciiLineStart: SourceLocation?
    /// Whether line breaks in the bytes are line breaks of the positions.
    private let isFile: Bool
    private let isTable: Bool
    private var offset = -1
    private var location = SourceLocation(line: 1, column: 1)

    init(bytes: UnsafeBufferPointer<UInt8>, source: RuleText) {
        self.bytes = bytes
        self.source = source
        switch source.mapping {
        case .file: (isFile, isTable, asciiLineStart) = (true, false, nil)
        case .singleLine(let start): (isFile, isTable, asciiLineStart) = (false, false, Self.isASCII(bytes) ? start : nil)
        case .table: (isFile, isTable, asciiLineStart) = (false, true, nil)
        }
    }

    private static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        bytes.reduce(0, |) < 0x80
    }

    mutating func location(at target: Int) -> SourceLocation {
        if let start = asciiLineStart {
            return SourceLocation(line: start.line, column: start.column + target)
        }
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
