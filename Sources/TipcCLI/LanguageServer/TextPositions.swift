import TipcJSON
import TipcCompiler

/// A position as the protocol counts it: a 0-based line and a 0-based offset in UTF-16 code
/// units within the line.
struct ProtocolPosition: Hashable, Comparable {
    var line: Int
    var character: Int

    static func < (a: ProtocolPosition, b: ProtocolPosition) -> Bool {
        (a.line, a.character) < (b.line, b.character)
    }

    init(line: Int, character: Int) {
        self.line = line
        self.character = character
    }

    /// Reads `{line, character}`; nil when either is missing or negative.
    init?(_ json: JSON?) {
        guard case .integer(let line)? = json?["line"], case .integer(let character)? = json?["character"],
              line >= 0, character >= 0 else { return nil }
        self.init(line: Int(clamping: line), character: Int(clamping: character))
    }

    var json: JSON { .object([("line", .integer(line)), ("character", .integer(character))]) }
}

/// The conversions between the protocol's positions (UTF-16 columns), the compiler's
/// locations (1-based lines, columns in Unicode scalars) and UTF-8 offsets, for one text.
/// Lines break at LF, CR LF and a lone CR, as both the protocol and the compiler break them. A
/// byte-order mark at the start is not counted (the compiler does not count it either).
extension SourceFile {
    /// The UTF-8 offset where 0-based `line`'s content starts (past a BOM on the first line).
    private func contentStart(ofLine line: Int) -> Int {
        let start = lineStarts[line]
        if line == 0, bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { return 3 }
        return start
    }

    /// The UTF-8 offset where 0-based `line`'s content ends (before its line break).
    private func contentEnd(ofLine line: Int) -> Int {
        var end = line + 1 < lineStarts.count ? lineStarts[line + 1] : bytes.count
        if end > lineStarts[line], end <= bytes.count, line + 1 < lineStarts.count {
            if bytes[end - 1] == 0x0A { end -= 1 }
            if end > lineStarts[line], bytes[end - 1] == 0x0D { end -= 1 }
        }
        return end
    }

    /// The length of the UTF-8 sequence that starts with `byte`.
    private static func sequenceLength(_ byte: UInt8) -> Int {
        switch byte {
        case 0xF0...: return 4
        case 0xE0...: return 3
        case 0xC0...: return 2
        default: return 1
        }
    }

    /// The UTF-8 offset of a protocol position, clamped to its line (a line past the end is
    /// the end of the text; a column past the line's end is the line's end; a column inside a
    /// surrogate pair is the character's start).
    func offset(of position: ProtocolPosition) -> Int {
        guard position.line < lineStarts.count else { return bytes.count }
        var offset = contentStart(ofLine: position.line)
        let end = contentEnd(ofLine: position.line)
        var units = 0
        while offset < end {
            let length = Self.sequenceLength(bytes[offset])
            let width = length == 4 ? 2 : 1
            if units + width > position.character { break }
            units += width
            offset = min(end, offset + length)
        }
        return offset
    }

    /// The protocol position of a UTF-8 offset.
    func position(ofOffset offset: Int) -> ProtocolPosition {
        let offset = min(max(0, offset), bytes.count)
        let line = self.line(containing: offset) - 1
        var index = contentStart(ofLine: line)
        var units = 0
        while index < offset {
            let length = Self.sequenceLength(bytes[index])
            units += length == 4 ? 2 : 1
            index += length
        }
        return ProtocolPosition(line: line, character: units)
    }

    /// The protocol position of a compiler location (clamped to the text).
    func position(of location: SourceLocation) -> ProtocolPosition {
        position(ofOffset: offset(of: location))
    }

    /// The UTF-8 offset of a compiler location (clamped to its line).
    func offset(of location: SourceLocation) -> Int {
        let line = min(max(0, location.line - 1), lineStarts.count - 1)
        var offset = contentStart(ofLine: line)
        let end = contentEnd(ofLine: line)
        var column = 1
        while column < location.column, offset < end {
            offset = min(end, offset + Self.sequenceLength(bytes[offset]))
            column += 1
        }
        return offset
    }

    /// The compiler location of a protocol position.
    func location(of position: ProtocolPosition) -> SourceLocation {
        location(atUTF8Offset: offset(of: position))
    }

    /// The protocol range `{start, end}` of a compiler range in this file.
    func protocolRange(_ range: SourceRange) -> JSON {
        Self.rangeJSON(position(of: range.start), position(of: range.end))
    }

    static func rangeJSON(_ start: ProtocolPosition, _ end: ProtocolPosition) -> JSON {
        .object([("start", start.json), ("end", end.json)])
    }

    /// The text between two UTF-8 offsets.
    func text(from start: Int, to end: Int) -> String {
        let start = min(max(0, start), bytes.count)
        return String(decoding: bytes[start..<min(max(start, end), bytes.count)], as: UTF8.self)
    }

    /// The text of a compiler range.
    func text(of range: SourceRange) -> String {
        text(from: offset(of: range.start), to: offset(of: range.end))
    }

    /// This text with the bytes between two offsets replaced.
    func replacing(from start: Int, to end: Int, with replacement: String) -> SourceFile {
        var bytes = self.bytes
        bytes.replaceSubrange(start..<max(start, end), with: Array(replacement.utf8))
        return SourceFile(path: path, bytes: bytes)
    }
}
