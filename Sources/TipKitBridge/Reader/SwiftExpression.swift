import TipcCompiler

/// A Swift expression as far as TipKit declarations use them: names, literals, member
/// accesses, calls with labels and trailing closures, closures, arrays, key paths, `#Rule`,
/// prefix and binary operators. Anything else is `unknown` and keeps its token span, so that
/// the importer can quote it in a warning.
struct SwiftExpression: Sendable {
    struct Argument: Sendable {
        var label: String?
        var value: SwiftExpression
    }

    struct Closure: Sendable {
        /// Named parameters (`event in …`); empty for `$0` closures.
        var parameters: [String]
        /// Each statement of the body; `return x` is `x`.
        var statements: [SwiftExpression]
    }

    indirect enum Kind: Sendable {
        case identifier(String)
        /// `$0`, `$name`.
        case dollar(String)
        case integer(Int?)
        case floatingPoint(Double)
        case string(String, interpolated: Bool)
        /// `base.name`, or `.name` with no base.
        case member(SwiftExpression?, String)
        case call(SwiftExpression, [Argument], trailing: [Closure])
        /// `#Rule(…) { … }`, `#if` is not an expression.
        case macro(String, [Argument], trailing: [Closure])
        case closure(Closure)
        case array([SwiftExpression])
        /// `\.a.b`, `\Type.a`: the member names.
        case keyPath([String])
        case prefix(String, SwiftExpression)
        case binary(String, SwiftExpression, SwiftExpression)
        /// `( x )`.
        case parenthesized(SwiftExpression)
        case unknown
    }

    var kind: Kind
    /// Token indexes: `tokens[start..<end]`.
    var start: Int
    var end: Int
    /// The depth of the tree below and including this node (bounded by the parser, so that
    /// walking and freeing a tree never recurses deeply).
    var height: Int

    init(kind: Kind, start: Int, end: Int) {
        self.kind = kind
        self.start = start
        self.end = end
        var below = 0
        switch kind {
        case .member(let base, _): below = base?.height ?? 0
        case .call(let callee, let arguments, let trailing):
            below = max(callee.height, arguments.map(\.value.height).max() ?? 0, trailing.map(\.height).max() ?? 0)
        case .macro(_, let arguments, let trailing):
            below = max(arguments.map(\.value.height).max() ?? 0, trailing.map(\.height).max() ?? 0)
        case .closure(let closure): below = closure.height
        case .array(let elements): below = elements.map(\.height).max() ?? 0
        case .prefix(_, let operand), .parenthesized(let operand): below = operand.height
        case .binary(_, let left, let right): below = max(left.height, right.height)
        default: below = 0
        }
        self.height = below + 1
    }
}

extension SwiftExpression.Closure {
    var height: Int { (statements.map(\.height).max() ?? 0) + 1 }
}

/// Parses `SwiftExpression`s from a token array (with its bracket matches). Recursion is bounded
/// by the lexer's nesting limit and by `maximumDepth`.
struct SwiftExpressionParser {
    typealias Argument = SwiftExpression.Argument
    typealias Closure = SwiftExpression.Closure

    static let maximumDepth = 200
    /// The deepest expression tree kept; deeper text is one `unknown` node.
    static let maximumHeight = 400

    let tokens: [SwiftToken]
    let matching: [Int]
    var index: Int
    let limit: Int
    private var depth = 0

    init(tokens: [SwiftToken], matching: [Int], from start: Int, to limit: Int) {
        self.tokens = tokens
        self.matching = matching
        self.index = start
        self.limit = min(limit, tokens.count)
    }

    private var atEnd: Bool { index >= limit }
    private var current: SwiftToken? { index < limit ? tokens[index] : nil }

    /// The index of the bracket that closes the one at `open` (clamped to `limit`).
    private func closing(_ open: Int) -> Int { min(matching[open], limit) }

    private static let binaryPrecedence: [String: Int] = [
        "||": 1, "&&": 2, "==": 3, "!=": 3, "<": 3, "<=": 3, ">": 3, ">=": 3, "===": 3, "!==": 3, "??": 3,
        "+": 4, "-": 4, "*": 5, "/": 5, "%": 5,
    ]

    /// The statements from here to `limit`, separated by line breaks or `;`.
    mutating func statements() -> [SwiftExpression] {
        var result: [SwiftExpression] = []
        while !atEnd {
            if current!.isPunctuation(";") || current!.isPunctuation(",") { index += 1; continue }
            let before = index
            if current!.isIdentifier("return") { index += 1; if atEnd || current!.startsLine { continue } }
            result.append(expression())
            if index == before { index += 1 }
            // Whatever the expression did not take on its line is not part of a statement we read.
            while !atEnd, !current!.startsLine, !current!.isPunctuation(";") {
                index = skipOne(index)
            }
        }
        return result
    }

    /// Skips one token, or a bracketed group whole.
    private func skipOne(_ at: Int) -> Int {
        let token = tokens[at]
        if token.kind == .punctuation, "({[".contains(token.text) { return closing(at) + 1 }
        return at + 1
    }

    mutating func expression(minimumPrecedence: Int = 1) -> SwiftExpression {
        guard depth < Self.maximumDepth else {
            let start = index
            index = limit
            return SwiftExpression(kind: .unknown, start: start, end: limit)
        }
        depth += 1
        defer { depth -= 1 }
        var left = prefixExpression()
        while let token = current, token.kind == .operator, isBinary(at: index),
              let precedence = Self.binaryPrecedence[token.text], precedence >= minimumPrecedence {
            index += 1
            let right = expression(minimumPrecedence: precedence + 1)
            left = SwiftExpression(kind: .binary(token.text, left, right), start: left.start, end: right.end)
            if left.height > Self.maximumHeight { return tooDeep(from: left.start) }
        }
        return left
    }

    /// An operator is binary when it has whitespace on both sides or on neither (Swift's rule).
    private func isBinary(at position: Int) -> Bool {
        guard position > 0, position + 1 < tokens.count else { return false }
        let spaceBefore = tokens[position - 1].end < tokens[position].start || tokens[position].startsLine
        let spaceAfter = tokens[position].end < tokens[position + 1].start
        return spaceBefore == spaceAfter
    }

    /// Text nested deeper than `maximumHeight`: one `unknown` node, and the rest not read.
    private mutating func tooDeep(from start: Int) -> SwiftExpression {
        index = limit
        return SwiftExpression(kind: .unknown, start: start, end: limit)
    }

    private mutating func prefixExpression() -> SwiftExpression {
        guard let token = current else { return SwiftExpression(kind: .unknown, start: index, end: index) }
        if token.kind == .operator, token.text == "!" || token.text == "-" {
            let start = index
            index += 1
            guard depth < Self.maximumDepth else { return tooDeep(from: start) }
            depth += 1
            defer { depth -= 1 }
            let operand = prefixExpression()
            return SwiftExpression(kind: .prefix(token.text, operand), start: start, end: operand.end)
        }
        if token.isIdentifier("try") || token.isIdentifier("await") {
            index += 1
            if let next = current, next.kind == .operator, next.text == "?" || next.text == "!" { index += 1 }
            return prefixExpression()
        }
        return postfixExpression(primary())
    }

    private mutating func primary() -> SwiftExpression {
        let start = index
        let token = tokens[index]
        func made(_ kind: SwiftExpression.Kind) -> SwiftExpression { SwiftExpression(kind: kind, start: start, end: index) }
        switch token.kind {
        case .identifier:
            index += 1
            return made(.identifier(token.text))
        case .dollarIdentifier:
            index += 1
            return made(.dollar(token.text))
        case .integer:
            index += 1
            return made(.integer(Self.integer(token.text)))
        case .floatingPoint:
            index += 1
            return made(.floatingPoint(Double(token.text) ?? 0))
        case .string:
            index += 1
            return made(.string(token.text, interpolated: token.isInterpolated))
        case .poundIdentifier:
            index += 1
            let (arguments, trailing) = callTail()
            return made(.macro(token.text, arguments, trailing: trailing))
        case .punctuation:
            switch token.text {
            case ".":
                index += 1
                guard let name = current, name.kind == .identifier else { return made(.unknown) }
                index += 1
                return made(.member(nil, name.text))
            case "\\":
                index += 1
                var names: [String] = []
                if let type = current, type.kind == .identifier, !type.startsLine { index += 1 }
                while let dot = current, dot.isPunctuation("."), index + 1 < limit, tokens[index + 1].kind == .identifier {
                    names.append(tokens[index + 1].text)
                    index += 2
                }
                return made(.keyPath(names))
            case "(":
                let close = closing(index)
                var inner = SwiftExpressionParser(tokens: tokens, matching: matching, from: index + 1, to: close)
                inner.depth = depth
                let value = inner.expression()
                index = min(close + 1, limit)
                return made(inner.index >= close ? .parenthesized(value) : .unknown)
            case "[":
                let close = closing(index)
                let elements = list(from: index + 1, to: close).map { $0.value }
                index = min(close + 1, limit)
                return made(.array(elements))
            case "{":
                let closure = self.closure(at: index)
                return made(.closure(closure))
            default:
                index = skipOne(index)
                return made(.unknown)
            }
        default:
            index = skipOne(index)
            return made(.unknown)
        }
    }

    private mutating func postfixExpression(_ base: SwiftExpression) -> SwiftExpression {
        var result = base
        while let token = current {
            if token.isPunctuation("."), index + 1 < limit,
               [.identifier, .integer, .dollarIdentifier].contains(tokens[index + 1].kind) {
                index += 2
                let member = tokens[index - 1]
                result = SwiftExpression(kind: .member(result, member.kind == .dollarIdentifier ? "$" + member.text : member.text),
                                         start: result.start, end: index)
            } else if token.isPunctuation("("), !token.startsLine {
                let (arguments, trailing) = callTail()
                result = SwiftExpression(kind: .call(result, arguments, trailing: trailing), start: result.start, end: index)
            } else if token.isPunctuation("{"), !token.startsLine, isCallee(result) {
                let (_, trailing) = callTail()
                result = SwiftExpression(kind: .call(result, [], trailing: trailing), start: result.start, end: index)
            } else if token.kind == .operator, token.text == "?" || token.text == "!", token.start == tokens[index - 1].end,
                      index + 1 >= limit || tokens[index + 1].kind == .punctuation || tokens[index + 1].start > token.end {
                index += 1
            } else if token.kind == .operator, token.text == "<", token.start == tokens[index - 1].end, let close = genericClose(from: index) {
                // `Event<Payload>(id:)`: the generic argument is kept as a member access of the base.
                let argument = tokens[index + 1].text
                index = close + 1
                result = SwiftExpression(kind: .member(result, "<\(argument)>"), start: result.start, end: index)
            } else {
                break
            }
            if result.height > Self.maximumHeight { return tooDeep(from: result.start) }
        }
        return result
    }

    /// Whether a `{` after `expression` is a trailing closure (it follows a name or a call).
    private func isCallee(_ expression: SwiftExpression) -> Bool {
        switch expression.kind {
        case .identifier(let name): return !["in", "else", "return", "true", "false"].contains(name)
        case .member, .call, .macro: return true
        default: return false
        }
    }

    /// The `>` closing a generic argument list of simple names starting at `open`.
    private func genericClose(from open: Int) -> Int? {
        var k = open + 1
        while k < limit, k < open + 16 {
            let token = tokens[k]
            if token.kind == .operator, token.text.hasPrefix(">") { return token.text == ">" ? k : nil }
            guard token.kind == .identifier || token.isPunctuation(".") || token.isPunctuation(",") else { return nil }
            k += 1
        }
        return nil
    }

    /// `( arguments )` and any trailing closures (the first may be labelled-less; later ones
    /// `label: { … }`).
    private mutating func callTail() -> ([Argument], [Closure]) {
        var arguments: [Argument] = []
        if let open = current, open.isPunctuation("("), !open.startsLine {
            let close = closing(index)
            arguments = list(from: index + 1, to: close)
            index = min(close + 1, limit)
        }
        var trailing: [Closure] = []
        while let open = current, open.isPunctuation("{"), !open.startsLine {
            trailing.append(closure(at: index))
            // `label: { … }` continues the trailing closures.
            if index + 2 < limit, tokens[index].kind == .identifier, tokens[index + 1].isPunctuation(":"), tokens[index + 2].isPunctuation("{"),
               !tokens[index].startsLine {
                index += 2
            }
        }
        return (arguments, trailing)
    }

    /// The comma-separated, optionally labelled elements in `tokens[start..<end]`.
    func list(from start: Int, to end: Int) -> [Argument] {
        var result: [Argument] = []
        var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: start, to: end)
        parser.depth = depth + 1
        while !parser.atEnd {
            var label: String?
            if let name = parser.current, name.kind == .identifier, parser.index + 1 < end, tokens[parser.index + 1].isPunctuation(":") {
                label = name.text
                parser.index += 2
            }
            let before = parser.index
            let value = parser.expression()
            result.append(Argument(label: label, value: value))
            // Skip to the next comma.
            while !parser.atEnd, !parser.current!.isPunctuation(",") { parser.index = parser.skipOne(parser.index) }
            if !parser.atEnd { parser.index += 1 }
            if parser.index == before { parser.index += 1 }
        }
        return result
    }

    /// The closure whose `{` is at `open`; leaves `index` after its `}`.
    private mutating func closure(at open: Int) -> Closure {
        let close = closing(open)
        var parameters: [String] = []
        var bodyStart = open + 1
        // `name in`, `a, b in`, `(a, b) in`, `[weak self] x in`.
        var k = open + 1
        while k < close, k < open + 12 {
            if tokens[k].isIdentifier("in") {
                parameters = tokens[(open + 1)..<k].filter { $0.kind == .identifier }.map(\.text)
                bodyStart = k + 1
                break
            }
            guard tokens[k].kind == .identifier || tokens[k].isPunctuation(",") || tokens[k].isPunctuation("(") || tokens[k].isPunctuation(")")
                    || tokens[k].isPunctuation(":") else { break }
            k += 1
        }
        var body = SwiftExpressionParser(tokens: tokens, matching: matching, from: bodyStart, to: close)
        body.depth = depth + 1
        let statements = body.statements()
        index = min(close + 1, limit)
        return Closure(parameters: parameters, statements: statements)
    }

    static func integer(_ text: String) -> Int? {
        if text.hasPrefix("0x") { return Int(text.dropFirst(2), radix: 16) }
        if text.hasPrefix("0b") { return Int(text.dropFirst(2), radix: 2) }
        if text.hasPrefix("0o") { return Int(text.dropFirst(2), radix: 8) }
        return Int(text)
    }
}

/// For each opening bracket token, the index of its closing bracket (`tokens.count` when
/// unclosed); other tokens map to themselves.
func swiftBracketMatches(_ tokens: [SwiftToken]) -> [Int] {
    var matching = Array(tokens.indices)
    var stack: [Int] = []
    for (i, token) in tokens.enumerated() where token.kind == .punctuation {
        switch token.text {
        case "(", "[", "{": stack.append(i)
        case ")", "]", "}":
            let opener = token.text == ")" ? "(" : token.text == "]" ? "[" : "{"
            // A stray closer closes the nearest opener of its kind, if any, else nothing.
            if let position = stack[max(0, stack.count - SwiftLexer.maximumNestingDepth)...].lastIndex(where: { tokens[$0].text == opener }) {
                for unclosed in stack[(position + 1)...] { matching[unclosed] = i }
                matching[stack[position]] = i
                stack.removeSubrange(position...)
            }
        default: break
        }
    }
    for unclosed in stack { matching[unclosed] = tokens.count }
    return matching
}
