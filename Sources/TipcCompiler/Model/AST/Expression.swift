/// A name as written, with where it was written.
public struct Identifier: Sendable, Hashable {
    public var name: String
    public var range: SourceRange

    public init(_ name: String, at range: SourceRange) {
        self.name = name
        self.range = range
    }
}

/// A literal value of the rule language or of a manifest.
public enum Literal: Sendable, Hashable {
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    /// A duration in whole seconds (`1d12h` is 129,600).
    case duration(seconds: Int)
}

public enum UnaryOperator: String, Sendable, Hashable {
    case not
    case negate = "-"
}

public enum BinaryOperator: String, Sendable, Hashable, CaseIterable {
    case or
    case and
    case equal = "=="
    case notEqual = "!="
    case less = "<"
    case lessOrEqual = "<="
    case greater = ">"
    case greaterOrEqual = ">="
    case add = "+"
    case subtract = "-"
    case multiply = "*"
    case divide = "/"
    case remainder = "%"

    public var isComparison: Bool {
        switch self {
        case .equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual: return true
        default: return false
        }
    }

    public var isLogical: Bool { self == .and || self == .or }
}

/// An expression of the rule language, as written. Both front ends produce it; the checker
/// resolves names and types it into a `CheckedExpression`.
///
/// Parentheses leave no node: the range of a parenthesised expression covers the parentheses.
public struct Expression: Sendable, Hashable {
    // Only the cases that hold expressions are boxed: leaves (literals, names) are stored
    // inline, which spares an allocation for about half the nodes of a rule.
    public enum Kind: Sendable, Hashable {
        case literal(Literal)
        /// `now`: the evaluation instant.
        case now
        /// `$name`: a parameter's current value.
        case parameter(String)
        /// A bare name: an event (or, inside `where`, a payload field).
        case name(String)
        /// `base.member`, e.g. `e.count`.
        indirect case member(Expression, Identifier)
        /// `base.method(arguments)`, e.g. `e.within(3d)`, `e.where(...)`, `e.distinct(f)`.
        indirect case methodCall(Expression, Identifier, [Expression])
        /// `function(arguments)`, e.g. `date("2026-12-24T00:00:00Z")`.
        indirect case functionCall(Identifier, [Expression])
        indirect case unary(UnaryOperator, Expression)
        indirect case binary(BinaryOperator, Expression, Expression)
        /// `clause within duration`: windows every event in the clause that has no `.within`.
        indirect case within(Expression, Expression)
        /// `value in [a, b, …]`.
        indirect case inList(Expression, [Expression])
        /// Stands in for text that did not parse (a diagnostic has been reported).
        case error
    }

    public var kind: Kind
    public var range: SourceRange

    public init(_ kind: Kind, at range: SourceRange) {
        self.kind = kind
        self.range = range
    }
}
