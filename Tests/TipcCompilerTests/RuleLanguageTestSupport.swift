@testable import TipcCompiler

/// Parses `text` as one rule of a file named `rule.tips`.
func parseRule(_ text: String) -> (expression: Expression, diagnostics: [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let expression = RuleParser.parseRule(RuleText(file: SourceFile(path: "rule.tips", text: text)), diagnostics: &diagnostics)
    return (expression, diagnostics)
}

/// Parses `text` as a `.tips` file.
func parseTipsFile(_ text: String, path: String = "test.tips") -> (file: ManifestFile, diagnostics: [Diagnostic]) {
    var diagnostics: [Diagnostic] = []
    let file = RuleParser.parseFile(SourceFile(path: path, text: text), diagnostics: &diagnostics)
    return (file, diagnostics)
}

/// The tree of `text` as an S-expression (see `sexpr`), or the diagnostics' messages when
/// there are any.
func tree(_ text: String) -> String {
    let (expression, diagnostics) = parseRule(text)
    if !diagnostics.isEmpty { return "diagnostics: " + diagnostics.map(\.message).joined(separator: "; ") }
    return sexpr(expression)
}

/// A compact, range-free rendering of a tree, for exact expectations in tests.
func sexpr(_ expression: Expression) -> String {
    switch expression.kind {
    case .literal(.bool(let value)): return String(value)
    case .literal(.int(let value)): return String(value)
    case .literal(.double(let value)): return "\(value)"
    case .literal(.string(let value)): return ExpressionPrinter.quoted(value)
    case .literal(.duration(let seconds)): return "dur(\(seconds))"
    case .now: return "now"
    case .parameter(let name): return "$\(name)"
    case .name(let name): return name
    case .member(let base, let name): return "(. \(sexpr(base)) \(name.name))"
    case .methodCall(let base, let name, let arguments):
        return "(call \(sexpr(base)) \(name.name)\(arguments.map { " " + sexpr($0) }.joined()))"
    case .functionCall(let name, let arguments):
        return "(fn \(name.name)\(arguments.map { " " + sexpr($0) }.joined()))"
    case .unary(.not, let operand): return "(not \(sexpr(operand)))"
    case .unary(.negate, let operand): return "(neg \(sexpr(operand)))"
    case .binary(let op, let left, let right): return "(\(op.rawValue) \(sexpr(left)) \(sexpr(right)))"
    case .within(let clause, let window): return "(within \(sexpr(clause)) \(sexpr(window)))"
    case .inList(let value, let elements): return "(in \(sexpr(value)) [\(elements.map(sexpr).joined(separator: " "))])"
    case .error: return "<error>"
    }
}

extension Expression {
    /// The same tree with every range (of nodes and identifiers) replaced by one fixed range,
    /// so that trees parsed from different text compare equal when their shapes do.
    func strippingRanges() -> Expression {
        let none = SourceRange(file: "", at: SourceLocation(line: 0, column: 0))
        func id(_ identifier: Identifier) -> Identifier { Identifier(identifier.name, at: none) }
        let kind: Kind
        switch self.kind {
        case .literal, .now, .parameter, .name, .error: kind = self.kind
        case .member(let base, let name): kind = .member(base.strippingRanges(), id(name))
        case .methodCall(let base, let name, let arguments):
            kind = .methodCall(base.strippingRanges(), id(name), arguments.map { $0.strippingRanges() })
        case .functionCall(let name, let arguments): kind = .functionCall(id(name), arguments.map { $0.strippingRanges() })
        case .unary(let op, let operand): kind = .unary(op, operand.strippingRanges())
        case .binary(let op, let left, let right): kind = .binary(op, left.strippingRanges(), right.strippingRanges())
        case .within(let clause, let window): kind = .within(clause.strippingRanges(), window.strippingRanges())
        case .inList(let value, let elements): kind = .inList(value.strippingRanges(), elements.map { $0.strippingRanges() })
        }
        return Expression(kind, at: none)
    }
}

/// `line:column-line:column` of a range, for exact position expectations.
func span(_ range: SourceRange) -> String {
    "\(range.start.line):\(range.start.column)-\(range.end.line):\(range.end.column)"
}
