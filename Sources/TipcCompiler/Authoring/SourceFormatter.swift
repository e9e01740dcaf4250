/// `tipc fmt`: the canonical text of a source file. A `.tips` file is reprinted whole
/// (`TipsFormatter`); in a YAML manifest only the rules change (`YAMLRuleFormatter`). The
/// result is verified: it must parse without errors to the same declarations, with the same
/// comments, else nothing is returned.
public enum SourceFormatter {
    /// The canonical bytes of `source`, which parsed as `file` without errors.
    public static func format(_ source: SourceFile, parsed file: ManifestFile) throws(AuthoringError) -> [UInt8] {
        switch file.format {
        case .tips:
            let text = TipsFormatter.format(source, parsed: file)
            let output = SourceFile(path: source.path, text: text)
            try verify(output, against: file)
            let before = RuleLexer.lex(RuleText(file: source)).comments.count
            let after = RuleLexer.lex(RuleText(file: output)).comments.count
            guard before == after else {
                throw AuthoringError(path: source.path, message: "formatting would lose comments (\(before) before, \(after) after)")
            }
            return output.bytes
        case .yaml:
            let bytes = YAMLRuleFormatter.format(source)
            if bytes == source.bytes { return bytes }
            try verify(SourceFile(path: source.path, bytes: bytes), against: file)
            return bytes
        }
    }

    /// Checks that `output` parses without errors to the declarations of `original`.
    static func verify(_ output: SourceFile, against original: ManifestFile) throws(AuthoringError) {
        var diagnostics: [Diagnostic] = []
        let reparsed = Frontend.parse(output, diagnostics: &diagnostics)
        if let error = diagnostics.first(where: { $0.severity == .error }) {
            throw AuthoringError(path: output.path, message: "the formatted text does not parse (\(error.message) at \(error.range.start))")
        }
        if let difference = ManifestDifference.first(between: original, and: reparsed) {
            throw AuthoringError(path: output.path, message: "formatting would change \(difference)")
        }
    }
}

/// Formatting or conversion could not keep the program unchanged.
public struct AuthoringError: Error, Sendable, Hashable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { "\(path): \(message)" }
}

/// Names the first declaration that differs between two files (positions and comments aside).
package enum ManifestDifference {
    package static func first(between a: ManifestFile, and b: ManifestFile) -> String? {
        let a = a.strippingLayout()
        let b = b.strippingLayout()
        if a == b { return nil }
        if a.version != b.version { return "the format version" }
        if a.displayFrequency != b.displayFrequency { return "the display frequency" }
        func named<T: Equatable>(_ kind: String, _ x: [T], _ y: [T], name: (T) -> String) -> String? {
            for (index, left) in x.enumerated() where index >= y.count || y[index] != left {
                return "\(kind) '\(name(left))'"
            }
            return y.count > x.count ? "\(kind) '\(name(y[x.count]))'" : nil
        }
        return named("parameter", a.parameters, b.parameters) { $0.name.name }
            ?? named("event", a.events, b.events) { $0.name.name }
            ?? named("tip", a.tips, b.tips) { $0.name.name }
            ?? named("group", a.groups, b.groups) { $0.name.name }
            ?? named("experiment", a.experiments, b.experiments) { $0.name.name }
            ?? "the declarations"
    }
}
