/// The words of `NameSyntax.expressionKeywords`, recognised once by the lexer so that the
/// parser tests a plain identifier for a keyword by comparing a byte, never a string.
///
/// An identifier token carries its keyword whatever its position; whether the word acts as
/// a keyword there is the parser's decision. A backticked name is never a keyword.
enum RuleKeyword: UInt8, Sendable, CaseIterable {
    case and, or, not, within, `in`, `true`, `false`, now

    /// The word as written.
    var spelling: String {
        switch self {
        case .and: return "and"
        case .or: return "or"
        case .not: return "not"
        case .within: return "within"
        case .in: return "in"
        case .true: return "true"
        case .false: return "false"
        case .now: return "now"
        }
    }

    /// The length of the longest keyword (`within`).
    static let longestSpelling = 6

    /// The keyword spelled by `bytes[start..<end]` (an identifier's UTF-8 bytes), if any.
    ///
    /// The bytes, at most eight, are read as one little-endian word and compared with each
    /// keyword's: an identifier has no zero byte, so the word also tells the length.
    @inline(__always)
    static func spelled(in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> RuleKeyword? {
        let count = end - start
        guard count >= 2, count <= longestSpelling else { return nil }
        var word: UInt64 = 0
        if start + 8 <= bytes.count {
            let loaded = UnsafeRawBufferPointer(bytes).loadUnaligned(fromByteOffset: start, as: UInt64.self)
            word = UInt64(littleEndian: loaded) & (1 << UInt64(count * 8) - 1)
        } else {
            for offset in 0..<count { word |= UInt64(bytes[start + offset]) << UInt64(offset * 8) }
        }
        switch word {
        case 0x726F: return .or                 // "or"
        case 0x6E69: return .in                 // "in"
        case 0x64_6E61: return .and             // "and"
        case 0x74_6F6E: return .not             // "not"
        case 0x77_6F6E: return .now             // "now"
        case 0x6575_7274: return .true          // "true"
        case 0x65_736C_6166: return .false      // "false"
        case 0x6E69_6874_6977: return .within   // "within"
        default: return nil
        }
    }
}
