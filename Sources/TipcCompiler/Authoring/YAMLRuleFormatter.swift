/// Rewrites the rules inside a YAML manifest in canonical form and changes nothing else:
/// each rule scalar whose canonical text differs has exactly its own bytes replaced, written in
/// the scalar's own style. A plain rule stays plain when the canonical text is safe as a plain
/// scalar (else it is double-quoted); quoted rules keep their quotes; block scalars keep their
/// header line and indentation.
public enum YAMLRuleFormatter {
    /// One rule scalar of a manifest: its bytes in the file, and its canonical replacement.
    public struct Replacement: Sendable, Hashable {
        /// UTF-8 offsets of the rewritten bytes in the original file.
        public var range: Range<Int>
        public var text: String
    }

    /// The byte ranges of every rule scalar of the manifest in `file` (whole scalars, quotes
    /// and block headers included), in file order.
    public static func ruleScalarRanges(in file: SourceFile) -> [Range<Int>] {
        ruleScalars(in: file).map { $0.scalar.contentStart..<$0.scalar.contentEnd }
    }

    /// The replacements that make every rule canonical (empty when all are).
    public static func replacements(in file: SourceFile) -> [Replacement] {
        var result: [Replacement] = []
        for (scalar, inFlow) in ruleScalars(in: file) {
            var diagnostics: [Diagnostic] = []
            let expression = RuleParser.parseRule(scalar.ruleText(in: file), diagnostics: &diagnostics)
            guard diagnostics.isEmpty else { continue }
            let canonical = ExpressionPrinter.print(expression)
            if let replacement = replacement(for: scalar, canonical: canonical, inFlow: inFlow, in: file) {
                result.append(replacement)
            }
        }
        return result
    }

    /// The file with every rule in canonical form.
    public static func format(_ file: SourceFile) -> [UInt8] {
        var bytes = file.bytes
        for replacement in replacements(in: file).reversed() {
            bytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
        }
        return bytes
    }

    // MARK: - Finding the rules

    /// The scalars of `tips.*.rules[*]`, each with whether its list is in flow style.
    private static func ruleScalars(in file: SourceFile) -> [(scalar: YAMLScalar, inFlow: Bool)] {
        var diagnostics: [Diagnostic] = []
        guard let root = YAMLReader.read(file, diagnostics: &diagnostics), let sections = root.pairs else { return [] }
        var found: [(YAMLScalar, Bool)] = []
        for section in sections where section.key.scalar?.value == "tips" {
            for tip in section.value.pairs ?? .empty {
                for attribute in tip.value.pairs ?? .empty where attribute.key.scalar?.value == "rules" {
                    let list = attribute.value
                    for item in list.items ?? .empty where !item.hasProperties {
                        if let scalar = item.scalar, !scalar.isNull { found.append((scalar, list.isFlow)) }
                    }
                }
            }
        }
        return found.sorted { $0.0.contentStart < $1.0.contentStart }
    }

    // MARK: - Writing one rule

    private static func replacement(for scalar: YAMLScalar, canonical: String, inFlow: Bool,
                                    in file: SourceFile) -> Replacement? {
        let start = scalar.contentStart
        let end = scalar.contentEnd
        guard start >= 0, start <= end, end <= file.bytes.count else { return nil }
        let original = Array(file.bytes[start..<end])
        switch scalar.style {
        case .plain, .singleQuoted, .doubleQuoted:
            let text = quoted(canonical, style: scalar.style, inFlow: inFlow)
            return Array(text.utf8) == original ? nil : Replacement(range: start..<end, text: text)
        case .literal, .folded:
            return blockReplacement(original: original, offset: start, canonical: canonical)
        }
    }

    /// `canonical` in the style of the original scalar (plain only when safe).
    static func quoted(_ canonical: String, style: YAMLScalarStyle, inFlow: Bool) -> String {
        switch style {
        case .plain:
            return YAMLScalarWriter.isSafePlain(canonical, inFlow: inFlow) ? canonical : YAMLScalarWriter.doubleQuoted(canonical)
        case .singleQuoted:
            return YAMLScalarWriter.canSingleQuote(canonical) ? YAMLScalarWriter.singleQuoted(canonical)
                : YAMLScalarWriter.doubleQuoted(canonical)
        case .doubleQuoted, .literal, .folded:
            return YAMLScalarWriter.doubleQuoted(canonical)
        }
    }

    /// A block scalar keeps its header line (`|`, `>-`, `|2`, a comment) and the lines after its
    /// text; its content lines become one line at the indentation of the first.
    private static func blockReplacement(original: [UInt8], offset: Int, canonical: String) -> Replacement? {
        let newline = UInt8(ascii: "\n")
        guard let headerEnd = original.firstIndex(of: newline) else { return nil }
        var lineStart = headerEnd + 1
        var indent: Int?
        var contentStart: Int?
        var contentEnd: Int?
        while lineStart < original.count {
            var lineEnd = lineStart
            while lineEnd < original.count, original[lineEnd] != newline { lineEnd += 1 }
            var spaces = 0
            while lineStart + spaces < lineEnd, original[lineStart + spaces] == UInt8(ascii: " ") { spaces += 1 }
            var textEnd = lineEnd
            while textEnd > lineStart, original[textEnd - 1] == UInt8(ascii: "\r") { textEnd -= 1 }
            let isBlank = lineStart + spaces >= textEnd
            if !isBlank {
                if let indent, spaces < indent { break }
                if indent == nil {
                    indent = spaces
                    contentStart = lineStart
                }
                contentEnd = textEnd
            }
            lineStart = lineEnd + 1
        }
        guard let indent, let contentStart, let contentEnd, canonical.unicodeScalars.allSatisfy(YAMLScalarWriter.isPrintable) else {
            return nil
        }
        let text = String(repeating: " ", count: indent) + canonical
        if Array(text.utf8) == Array(original[contentStart..<contentEnd]) { return nil }
        return Replacement(range: (offset + contentStart)..<(offset + contentEnd), text: text)
    }
}
