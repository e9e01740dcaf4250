/// Turns libyaml's mark indices into UTF-8 offsets. libyaml counts characters (Unicode
/// scalars), not bytes, and does not count a leading byte order mark; a CR LF pair counts as two.
/// Marks arrive nearly in order, so a cursor that walks from the previous answer is cheap.
struct YAMLCharacterOffsets {
    /// A run of the file's bytes that libyaml reads, and the character index it starts at.
    private struct Piece {
        var bytes: Range<Int>
        var firstCharacter: Int
    }

    private let bytes: [UInt8]
    private let pieces: [Piece]
    /// The last piece, kept apart for the ASCII path.
    private let lastPiece: Piece
    /// ASCII read in one or two pieces (every part of a file read in parts): the fast path.
    private let countsBytesInTwoPieces: Bool
    /// The cursor: a piece, and a character of it with its offset.
    private var piece = 0
    private var characterIndex: Int
    private var byteOffset: Int
    /// Whether every byte is ASCII (no BOM either): then characters are bytes.
    private let isASCII: Bool

    /// Offsets for libyaml reading the whole of `file`, which must be valid UTF-8.
    init(file: SourceFile) {
        self.init(file: file, reading: [(file.hasByteOrderMark ? 3 : 0)..<file.bytes.count])
    }

    /// Offsets for libyaml reading the runs `ranges` of `file` one after the other (the second
    /// part of a file read in two parts: its section's header line, then the rest of the file).
    init(file: SourceFile, reading ranges: [Range<Int>]) {
        self.bytes = file.bytes
        let isASCII = file.isASCII
        self.isASCII = isASCII
        var pieces: [Piece] = []
        var characters = 0
        for range in ranges {
            pieces.append(Piece(bytes: range, firstCharacter: characters))
            characters += isASCII ? range.count : file.bytes[range].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
        }
        self.pieces = pieces
        self.lastPiece = pieces.last ?? Piece(bytes: 0..<0, firstCharacter: 0)
        self.countsBytesInTwoPieces = isASCII && (1...2).contains(pieces.count)
        self.characterIndex = 0
        self.byteOffset = pieces.first?.bytes.lowerBound ?? 0
    }

    /// The UTF-8 offset of character `index` (clamped to the piece holding it).
    mutating func byteOffset(ofCharacter index: Int) -> Int {
        if countsBytesInTwoPieces {
            // Characters are bytes: the offset is counted from the start of the piece holding
            // the character.
            let piece = index >= lastPiece.firstCharacter ? lastPiece : pieces[0]
            return min(max(piece.bytes.lowerBound, piece.bytes.lowerBound + index - piece.firstCharacter), piece.bytes.upperBound)
        }
        var holder = pieces.count - 1
        while holder > 0, pieces[holder].firstCharacter > index { holder -= 1 }
        let bounds = pieces[holder].bytes
        if isASCII { return min(max(bounds.lowerBound, bounds.lowerBound + index - pieces[holder].firstCharacter), bounds.upperBound) }
        if holder != piece {
            piece = holder
            characterIndex = pieces[holder].firstCharacter
            byteOffset = bounds.lowerBound
        }
        while characterIndex < index, byteOffset < bounds.upperBound {
            byteOffset += Self.sequenceLength(lead: bytes[byteOffset])
            characterIndex += 1
        }
        while characterIndex > index, byteOffset > bounds.lowerBound {
            byteOffset -= 1
            while byteOffset > bounds.lowerBound, bytes[byteOffset] & 0xC0 == 0x80 { byteOffset -= 1 }
            characterIndex -= 1
        }
        return min(byteOffset, bounds.upperBound)
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
