/// Text handed to the rule-language parser, and how to find each of its bytes in the file
/// it came from. A `.tips` file is its own rule text; a rule inside a YAML scalar is the
/// scalar's decoded value, mapped back through quoting, escapes and line folding so that
/// diagnostics point into the YAML file.
public struct RuleText: Sendable {
    /// How offsets in `text` map to positions in the file.
    public enum Mapping: Sendable {
        /// The text is a whole file (or a slice starting at `baseOffset` of it).
        case file(SourceFile, baseOffset: Int)
        /// The text sits on one line, unchanged, starting at `start` (a plain or quoted
        /// scalar without escapes or folding).
        case singleLine(start: SourceLocation)
        /// One position per UTF-8 byte of `text`, plus one for the end.
        case table([SourceLocation])
    }

    public let text: String
    public let mapping: Mapping
    /// The file's number in `SourcePaths`.
    let pathNumber: UInt32

    /// The path of the file the text is mapped into.
    public var path: String { SourcePaths.path(pathNumber) }

    public init(text: String, path: String, mapping: Mapping) {
        self.init(text: text, pathNumber: SourcePaths.number(of: path), mapping: mapping)
    }

    init(text: String, pathNumber: UInt32, mapping: Mapping) {
        self.text = text
        self.pathNumber = pathNumber
        self.mapping = mapping
    }

    /// A whole source file as rule text.
    public init(file: SourceFile) {
        self.init(text: String(decoding: file.bytes, as: UTF8.self), pathNumber: file.pathNumber, mapping: .file(file, baseOffset: 0))
    }

    /// The file position of UTF-8 offset `offset` of `text` (`text.utf8.count` is the end).
    public func location(atUTF8Offset offset: Int) -> SourceLocation {
        switch mapping {
        case .file(let file, let base):
            return file.location(atUTF8Offset: base + offset)
        case .singleLine(let start):
            // One column per character (UTF-8 lead byte) before `offset`; an offset inside a
            // character is that character's column; past the end, one column per byte.
            var text = text
            return text.withUTF8 { bytes in
                let count = min(max(offset, 0), bytes.count)
                var column = start.column
                for byte in bytes[..<count] where byte & 0xC0 != 0x80 { column += 1 }
                if count < bytes.count, count > 0, bytes[count] & 0xC0 == 0x80 { column -= 1 }
                return SourceLocation(line: start.line, column: column + max(0, offset - count))
            }
        case .table(let table):
            guard !table.isEmpty else { return SourceLocation(line: 1, column: 1) }
            return table[min(max(0, offset), table.count - 1)]
        }
    }

    /// The file range of the UTF-8 offsets `start..<end` of `text`.
    public func range(fromUTF8 start: Int, to end: Int) -> SourceRange {
        SourceRange(fileNumber: pathNumber, start: location(atUTF8Offset: start), end: location(atUTF8Offset: end))
    }
}
