/// Checks the raw bytes of a YAML file before libyaml sees them: it must be UTF-8 and hold
/// only characters YAML allows. libyaml would refuse these too, but only with a byte offset;
/// doing it here gives the exact line and column.
enum YAMLInputCheck {
    /// The first encoding problem of `file`, or nil.
    static func firstProblem(in file: SourceFile) -> Diagnostic? {
        let bytes = file.bytes
        let range = (file.hasByteOrderMark ? 3 : 0)..<bytes.count
        var index = range.lowerBound
        while index < range.upperBound {
            // Most of a manifest is printable ASCII and line breaks: skipped a word at a time.
            index = bytes.withUnsafeBytes { Self.plainRunEnd(in: $0, from: index, to: range.upperBound) }
            guard index < range.upperBound else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                if byte < 0x20, byte != 0x09, byte != 0x0A, byte != 0x0D {
                    let what = byte == 0 ? "a NUL byte" : "the control character U+\(hex(UInt32(byte), digits: 4))"
                    return problem("\(what) is not allowed in YAML", at: index, in: file,
                                   help: "remove it; write it as an escape (\\x\(hex(UInt32(byte), digits: 2))) inside a double-quoted string if it is meant")
                }
                if byte == 0x7F {
                    return problem("the control character U+007F is not allowed in YAML", at: index, in: file, help: nil)
                }
                index += 1
                continue
            }
            guard let (scalar, length) = decode(bytes, at: index) else {
                return problem("invalid UTF-8 byte 0x\(hex(UInt32(bytes[index]), digits: 2))", at: index, in: file,
                               help: "a manifest must be encoded in UTF-8")
            }
            let allowed = scalar == 0x85 || (0xA0...0xD7FF).contains(scalar)
                || (0xE000...0xFFFD).contains(scalar) || (0x10000...0x10FFFF).contains(scalar)
            if !allowed {
                return problem("the character U+\(hex(scalar, digits: 4)) is not allowed in YAML", at: index, in: file, help: nil)
            }
            index += length
        }
        return nil
    }

    /// The end of the run of plain bytes from `start` on, before `end`, in whole words: printable
    /// ASCII, tabs and line breaks (the bytes checked one by one find no problem in them). Four
    /// words are tested at once while they are all plain.
    private static func plainRunEnd(in bytes: UnsafeRawBufferPointer, from start: Int, to end: Int) -> Int {
        var index = start
        while index + 32 <= end {
            let flags = notPlain(ASCIIWord(bytes, at: index)) | notPlain(ASCIIWord(bytes, at: index + 8))
                | notPlain(ASCIIWord(bytes, at: index + 16)) | notPlain(ASCIIWord(bytes, at: index + 24))
            if flags != 0 { break }
            index += 32
        }
        while index + 8 <= end, notPlain(ASCIIWord(bytes, at: index)) == 0 { index += 8 }
        return index
    }

    /// Flags of the bytes of `word` that are not plain; never none when one is not ASCII (the
    /// other tests are exact only for ASCII bytes, and then do not matter).
    private static func notPlain(_ word: ASCIIWord) -> UInt64 {
        let allowedControls = word.bytes(equalTo: 0x09) | word.bytes(equalTo: 0x0A) | word.bytes(equalTo: 0x0D)
        return word.nonASCII | word.controls & ~allowedControls | word.bytes(equalTo: 0x7F)
    }

    /// Decodes the well-formed UTF-8 sequence starting at `index` (shortest form, no surrogates).
    static func decode(_ bytes: [UInt8], at index: Int) -> (UInt32, Int)? {
        let lead = bytes[index]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard index + length <= bytes.count else { return nil }
        for offset in 1..<length {
            let byte = bytes[index + offset]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, value <= 0x10FFFF, !(0xD800...0xDFFF).contains(value) else { return nil }
        return (value, length)
    }

    private static func problem(_ message: String, at offset: Int, in file: SourceFile, help: String?) -> Diagnostic {
        let start = file.location(atUTF8Offset: offset)
        let end = SourceLocation(line: start.line, column: start.column + 1)
        return Diagnostic(.yaml, message, at: SourceRange(file: file.path, start: start, end: end), help: help)
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}

extension SourceFile {
    /// The file starts with a UTF-8 byte order mark (which positions do not count).
    var hasByteOrderMark: Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }
}
