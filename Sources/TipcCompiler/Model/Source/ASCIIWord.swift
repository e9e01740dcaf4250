/// Byte tests on eight bytes at once (a 64-bit word of text), for the scans that run over a
/// whole file, every scalar or every rule. Each answer has one flag per byte, its high bit (0x80 in that
/// byte), set when the test holds for that byte.
struct ASCIIWord {
    let bits: UInt64

    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    /// The eight bytes of `bytes` at `index` (which must have eight bytes after it).
    init(_ bytes: UnsafeRawBufferPointer, at index: Int) {
        bits = bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)
    }

    /// Bytes that are not ASCII (0x80 and above).
    var nonASCII: UInt64 { bits & Self.highBits }

    /// Whether every byte is ASCII (below 0x80). The other tests hold only for ASCII words.
    var isASCII: Bool { nonASCII == 0 }

    /// Whether every byte of `bytes` is ASCII, looked at a word at a time.
    static func isASCII(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var highBits: UInt64 = 0
        var index = 0
        while index + 8 <= bytes.count {
            highBits |= ASCIIWord(bytes, at: index).nonASCII
            index += 8
        }
        while index < bytes.count {
            highBits |= UInt64(bytes[index])
            index += 1
        }
        return highBits & Self.highBits == 0
    }

    /// Bytes below 0x20 (control characters), in an ASCII word: adding 0x60 to a byte below
    /// 0x80 never carries into the next one, and reaches 0x80 exactly from 0x20 up.
    var controls: UInt64 { ~(bits &+ 0x60 &* Self.ones) & Self.highBits }

    /// Bytes equal to `byte` (below 0x80), in an ASCII word.
    func bytes(equalTo byte: UInt8) -> UInt64 {
        ~((bits ^ UInt64(byte) &* Self.ones) &+ 0x7F &* Self.ones) & Self.highBits
    }
}
