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

    /// The keyword spelled by `bytes` (an identifier's UTF-8 bytes), if any.
    init?(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) {
        // Dispatch on the length and the first byte; compare the rest only on a match.
        func matches(_ word: StaticString) -> Bool {
            word.withUTF8Buffer { $0.elementsEqual(bytes) }
        }
        guard let first = bytes.first else { return nil }
        switch (bytes.count, first) {
        case (2, 0x6F /* o */) where matches("or"): self = .or
        case (2, 0x69 /* i */) where matches("in"): self = .in
        case (3, 0x61 /* a */) where matches("and"): self = .and
        case (3, 0x6E /* n */) where matches("not"): self = .not
        case (3, 0x6E /* n */) where matches("now"): self = .now
        case (4, 0x74 /* t */) where matches("true"): self = .true
        case (5, 0x66 /* f */) where matches("false"): self = .false
        case (6, 0x77 /* w */) where matches("within"): self = .within
        default: return nil
        }
    }
}
