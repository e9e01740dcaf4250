@testable import TipcCompiler

/// `fmt` of one source: the formatted text; the source must parse without errors.
func formatted(_ source: SourceFile) throws -> SourceFile {
    let parsed = parseSource(source)
    guard parsed.errors.isEmpty else {
        throw AuthoringError(path: source.path, message: parsed.errors.map(\.message).joined(separator: "; "))
    }
    return SourceFile(path: source.path, bytes: try SourceFormatter.format(source, parsed: parsed.file))
}

func formatted(_ text: String, path: String) throws -> String {
    String(decoding: try formatted(SourceFile(path: path, text: text)).bytes, as: UTF8.self)
}

/// The file's bytes with every rule scalar's byte range replaced by one marker byte, so that
/// two manifests compare equal when they differ only inside rules.
func maskingRules(_ source: SourceFile) -> [UInt8] {
    var bytes = source.bytes
    for range in YAMLRuleFormatter.ruleScalarRanges(in: source).reversed() {
        bytes.replaceSubrange(range, with: [0])
    }
    return bytes
}
