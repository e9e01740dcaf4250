#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Parses a text template: `{$p}` a parameter, `{name}` a placeholder, `{{` and `}}`
/// braces; everything else is literal. A lone `{` or `}`, an unclosed `{`, or braces around
/// something that is not a name are `unbalanced-brace` errors. Positions come from the
/// `RuleText` mapping of the text into its file.
enum TextTemplateParser {
    static func parse(_ text: RuleText, diagnostics: inout [Diagnostic]) -> [TemplatePiece] {
        // Most texts have no braces: one literal, the text itself.
        if !hasBraces(text.text) {
            let length = text.text.utf8.count
            return length == 0 ? [] : [TemplatePiece(kind: .literal(text.text), range: text.range(fromUTF8: 0, to: length))]
        }
        let bytes = Array(text.text.utf8)
        var pieces: [TemplatePiece] = []
        var literal: [UInt8] = []
        var literalStart = 0
        var index = 0
        func flushLiteral(upTo end: Int) {
            if !literal.isEmpty {
                pieces.append(TemplatePiece(kind: .literal(String(decoding: literal, as: UTF8.self)),
                                            range: text.range(fromUTF8: literalStart, to: end)))
                literal = []
            }
        }
        func startLiteral(at offset: Int) {
            if literal.isEmpty { literalStart = offset }
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "}") {
                startLiteral(at: index)
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "}") {
                    literal.append(byte)
                    index += 2
                } else {
                    diagnostics.append(Diagnostic(.unbalancedBrace, "'}' without a '{' in a text", at: text.range(fromUTF8: index, to: index + 1),
                                                  help: "write '}}' for a literal brace"))
                    literal.append(byte)
                    index += 1
                }
                continue
            }
            guard byte == UInt8(ascii: "{") else {
                startLiteral(at: index)
                literal.append(byte)
                index += 1
                continue
            }
            if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "{") {
                startLiteral(at: index)
                literal.append(byte)
                index += 2
                continue
            }
            // A reference: up to the next '}' (or a '{', or the end, which leave it unclosed).
            var end = index + 1
            while end < bytes.count, bytes[end] != UInt8(ascii: "}"), bytes[end] != UInt8(ascii: "{") { end += 1 }
            guard end < bytes.count, bytes[end] == UInt8(ascii: "}") else {
                diagnostics.append(Diagnostic(.unbalancedBrace, "'{' is not closed in a text", at: text.range(fromUTF8: index, to: index + 1),
                                              help: "close it as '{name}' or '{$parameter}', or write '{{' for a literal brace"))
                startLiteral(at: index)
                literal.append(byte)
                index += 1
                continue
            }
            let isParameter = bytes[index + 1] == UInt8(ascii: "$")
            let nameStart = index + 1 + (isParameter ? 1 : 0)
            let name = String(decoding: bytes[nameStart..<end], as: UTF8.self)
            let nameRange = text.range(fromUTF8: nameStart, to: end)
            guard ManifestScalars.isValidName(name) else {
                let shown = String(decoding: bytes[index...end], as: UTF8.self)
                diagnostics.append(Diagnostic(.unbalancedBrace, "'\(shown)' in a text is neither '{name}' nor '{$parameter}'",
                                              at: text.range(fromUTF8: index, to: end + 1),
                                              help: "write '{{' and '}}' for literal braces"))
                startLiteral(at: index)
                literal.append(contentsOf: bytes[index...end])
                index = end + 1
                continue
            }
            flushLiteral(upTo: index)
            pieces.append(TemplatePiece(kind: isParameter ? .parameter(name) : .placeholder(name), range: nameRange))
            index = end + 1
        }
        flushLiteral(upTo: bytes.count)
        return pieces
    }

    /// Whether `text` holds a `{` or a `}`.
    static func hasBraces(_ text: String) -> Bool {
        // Read in place (a native or small string) with `memchr`, not through a copy (which
        // retains) byte by byte.
        let found = text.utf8.withContiguousStorageIfAvailable { bytes in
            guard let base = bytes.baseAddress else { return false }
            return memchr(base, Int32(UInt8(ascii: "{")), bytes.count) != nil || memchr(base, Int32(UInt8(ascii: "}")), bytes.count) != nil
        }
        return found ?? text.utf8.contains { $0 == UInt8(ascii: "{") || $0 == UInt8(ascii: "}") }
    }
}
