/// The spelling rules for names in the rule language.
public enum NameSyntax {
    /// Words that a bare name cannot be in an expression: such a name is written in backticks.
    public static let expressionKeywords: Set<String> = ["and", "or", "not", "within", "in", "true", "false", "now"]

    /// Whether `name` matches `[A-Za-z_][A-Za-z0-9_.-]*`, the form of every declared name.
    public static func isValidName(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard let first = utf8.first, RuleLexer.isIdentifierStart(first) else { return false }
        return utf8.dropFirst().allSatisfy { RuleLexer.isIdentifierContinue($0) || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") }
    }

    /// Whether `name` matches `[A-Za-z_][A-Za-z0-9_]*` and so needs no backticks (keywords aside).
    public static func isPlainIdentifier(_ name: String) -> Bool {
        let utf8 = Array(name.utf8)
        guard let first = utf8.first, RuleLexer.isIdentifierStart(first) else { return false }
        return utf8.dropFirst().allSatisfy(RuleLexer.isIdentifierContinue)
    }

    /// `name` as written where a bare name could be read as a keyword: in backticks unless it
    /// is a plain identifier and not a keyword.
    public static func spelling(ofName name: String) -> String {
        isPlainIdentifier(name) && !expressionKeywords.contains(name) ? name : "`\(name)`"
    }

    /// `name` as written after `.` or `$`, where keywords need no backticks.
    public static func spelling(ofMember name: String) -> String {
        isPlainIdentifier(name) ? name : "`\(name)`"
    }
}
