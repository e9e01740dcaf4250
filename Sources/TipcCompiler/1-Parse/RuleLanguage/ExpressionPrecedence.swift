/// Binding strength of the rule language's operators, loosest first: `or`, `and`,
/// `within`, `not`, comparison and `in`, `+ -`, `* / %`, unary `-`, postfix `.member`.
/// The parser and the printer share it, so printed text re-parses to the same tree.
public enum ExpressionPrecedence: Int, Sendable, Comparable, CaseIterable {
    case or = 1
    case and
    case within
    case not
    case comparison
    case additive
    case multiplicative
    case unary
    case postfix
    /// Literals, names, calls and parenthesised expressions.
    case primary

    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }

    /// The next tighter level (the level of a left-associative operator's right operand).
    public var tighter: ExpressionPrecedence { ExpressionPrecedence(rawValue: rawValue + 1) ?? .primary }

    /// The level of a binary operator.
    public init(_ op: BinaryOperator) {
        switch op {
        case .or: self = .or
        case .and: self = .and
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: self = .comparison
        case .add, .subtract: self = .additive
        case .multiply, .divide, .remainder: self = .multiplicative
        }
    }
}
