import TipRuntime

/// Prints an `Expression` in canonical rule-language syntax: `not`/`and`/`or` spelled as
/// words, single spaces around infix operators, parentheses only where precedence needs
/// them, names in backticks where they are not plain identifiers (or are keywords), strings
/// escaped, durations in canonical form (`1d12h`). Parsing the output gives the same tree
/// (ranges aside) for every tree the parser produces.
///
/// Trees from elsewhere may hold values the parser never produces: a negative number prints
/// as a negation (`-3`); an infinite or NaN Double as `(1.0 / 0.0)` / `(0.0 / 0.0)`; an
/// `.error` node as `<error>`, which does not parse.
public enum ExpressionPrinter {
    public static func print(_ expression: Expression) -> String {
        var output = ""
        write(expression, minimum: .or, into: &output)
        return output
    }

    /// The binding level of the expression's outermost form.
    public static func precedence(of expression: Expression) -> ExpressionPrecedence {
        switch expression.kind {
        case .literal(let literal):
            switch literal {
            case .int(let value): return value < 0 ? .unary : .primary
            case .double(let value): return value.sign == .minus && value.isFinite ? .unary : .primary
            case .duration(let seconds): return seconds < 0 ? .unary : .primary
            case .bool, .string: return .primary
            }
        case .now, .parameter, .name, .functionCall, .error: return .primary
        case .member, .methodCall: return .postfix
        case .unary(let op, _): return op == .not ? .not : .unary
        case .binary(let op, _, _): return ExpressionPrecedence(op)
        case .within: return .within
        case .inList: return .comparison
        }
    }

    private static func write(_ expression: Expression, minimum: ExpressionPrecedence, into output: inout String) {
        let level = precedence(of: expression)
        let parenthesize = level < minimum
        if parenthesize { output += "(" }
        switch expression.kind {
        case .literal(let literal):
            output += spelling(of: literal)
        case .now:
            output += "now"
        case .parameter(let name):
            output += "$" + NameSyntax.spelling(ofMember: name)
        case .name(let name):
            output += NameSyntax.spelling(ofName: name)
        case .member(let base, let name):
            write(base, minimum: .postfix, into: &output)
            output += "." + NameSyntax.spelling(ofMember: name.name)
        case .methodCall(let base, let name, let arguments):
            write(base, minimum: .postfix, into: &output)
            output += "." + NameSyntax.spelling(ofMember: name.name)
            writeList(arguments, open: "(", close: ")", into: &output)
        case .functionCall(let name, let arguments):
            output += NameSyntax.spelling(ofName: name.name)
            writeList(arguments, open: "(", close: ")", into: &output)
        case .unary(.not, let operand):
            output += "not "
            write(operand, minimum: .not, into: &output)
        case .unary(.negate, let operand):
            output += "-"
            write(operand, minimum: .unary, into: &output)
        case .binary(let op, let left, let right):
            let level = ExpressionPrecedence(op)
            let isComparison = level == .comparison
            write(left, minimum: isComparison ? .additive : level, into: &output)
            output += " \(op.rawValue) "
            write(right, minimum: isComparison ? .additive : level.tighter, into: &output)
        case .within(let clause, let window):
            write(clause, minimum: .within, into: &output)
            output += " within "
            write(window, minimum: .not, into: &output)
        case .inList(let value, let elements):
            write(value, minimum: .additive, into: &output)
            output += " in "
            writeList(elements, open: "[", close: "]", into: &output)
        case .error:
            output += "<error>"
        }
        if parenthesize { output += ")" }
    }

    private static func writeList(_ items: [Expression], open: String, close: String, into output: inout String) {
        output += open
        for (offset, item) in items.enumerated() {
            if offset > 0 { output += ", " }
            write(item, minimum: .or, into: &output)
        }
        output += close
    }

    /// A literal as rule-language source.
    public static func spelling(of literal: Literal) -> String {
        switch literal {
        case .bool(let value):
            return value ? "true" : "false"
        case .int(let value):
            return String(value)
        case .double(let value):
            if value.isNaN { return "(0.0 / 0.0)" }
            if value.isInfinite { return value < 0 ? "(-1.0 / 0.0)" : "(1.0 / 0.0)" }
            // Swift's shortest round-tripping form always has a '.' or an exponent.
            return value.description
        case .string(let value):
            return quoted(value)
        case .duration(let seconds):
            return DurationText.string(seconds: seconds)
        }
    }

    /// `text` as a string literal, with `\" \\ \n \t` and `\u{…}` for other control characters.
    public static func quoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            default:
                if scalar.properties.generalCategory == .control || scalar == "\u{2028}" || scalar == "\u{2029}" {
                    output += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        return output + "\""
    }
}
