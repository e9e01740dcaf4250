/// Expressions: a precedence-climbing (Pratt) parser over `ExpressionPrecedence`.
///
/// Binary chains are built in a loop, never by recursion; recursion happens only where the
/// text nests (parentheses, `not`, unary minus, arguments, lists), and that is capped at
/// `RuleParser.maximumNestingDepth` levels. With at most `RuleParser.maximumOperatorCount`
/// operators in a rule, no tree the parser returns is deeper than the sum of the two (plus
/// one), and `RuleParser.maximumNodeCount` bounds its size.
extension RuleParser {
    /// Parses one rule expression with fresh limits; a rule over the size limit becomes an
    /// `.error` node.
    mutating func parseRuleExpression() -> Expression {
        nesting = 0
        nodeCount = 0
        operatorCount = 0
        openGroups = 0
        reportedNestingLimit = false
        isAbandoned = false
        let first = index
        let expression = parseExpression()
        if isAbandoned {
            skipRestOfAbandonedRule()
            return Expression(.error, at: range(since: first))
        }
        if index > first, let length = ruleLength(fromToken: first, toToken: index - 1), length > RuleParser.maximumRuleLength {
            report(.limit, "rule is \(length) characters long; at most \(RuleParser.maximumRuleLength) are allowed",
                   at: range(since: first), help: "split it into several rules, or simplify it")
            return Expression(.error, at: range(since: first))
        }
        return expression
    }

    /// The length in characters of the text from token `first` to token `last`, when it may
    /// exceed the limit (nil when its UTF-8 length already shows it does not).
    @inline(__always)
    private mutating func ruleLength(fromToken first: Int, toToken last: Int) -> Int? {
        let start = lexedToken(first).start, end = lexedToken(last).end
        guard end - start > RuleParser.maximumRuleLength else { return nil }
        return characterCount(from: start, to: end)
    }

    /// The number of characters (Unicode scalars) in the text from `start` to `end`.
    @inline(never)
    private mutating func characterCount(from start: Int, to end: Int) -> Int {
        bytes[start..<end].reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
    }

    /// After the size limit: skips the rest of the rule (the whole text, or in a `.tips` file
    /// up to the next line that does not continue it).
    private mutating func skipRestOfAbandonedRule() {
        guard lineBreaksEndExpressions else {
            abandonLexing()
            index = lexedCount - 1
            return
        }
        var balance = 0
        while !isAtEnd {
            if balance <= 0, currentIsAtLineStart, !currentContinuesExpression { return }
            switch currentKind {
            case .leftParen, .leftBracket: balance += 1
            case .rightParen, .rightBracket: balance -= 1
            default: break
            }
            skipToken()
        }
    }

    /// Parses an expression whose operators all bind at least as tightly as `minimum`.
    mutating func parseExpression(_ minimum: ExpressionPrecedence = .or) -> Expression {
        let operand = parsePrefix(minimum)
        // Most operands have no operator after them that binds tightly enough (`3` in `a >= 3
        // within 6d`, an argument, a list element): they are returned as they are, without the
        // state of the loop that reads operators.
        guard !isAbandoned, !endsExpressionAtLineBreak, let level = currentInfixPrecedence, level >= minimum else {
            return operand
        }
        return parseOperators(after: operand, minimum)
    }

    /// Reads the operators after `operand` (the current token is one) that bind at least as
    /// tightly as `minimum`, with their right operands.
    private mutating func parseOperators(after operand: consuming Expression, _ minimum: ExpressionPrecedence) -> Expression {
        var left = operand
        var lastWasComparison = false
        var reportedChain = false
        while !isAbandoned, !endsExpressionAtLineBreak {
            // The operator's kind and keyword, read once: reports below never move the cursor
            // off it (at the error limit the tokens after it are dropped, not it).
            let token = token(index)
            let kind = token.kind, keyword = token.keyword
            guard let level = Self.infixPrecedence(kind: kind, keyword: keyword), level >= minimum else { break }
            let operatorIndex = index
            operatorCount += 1
            if operatorCount > RuleParser.maximumOperatorCount {
                reportOperatorLimit(atToken: operatorIndex)
                break
            }
            let isComparison = level == .comparison
            if isComparison && lastWasComparison && !reportedChain {
                reportedChain = true
                reportChainedComparison(atToken: operatorIndex)
            }
            lastWasComparison = isComparison
            // `left` is consumed into the node that replaces it: the tree is moved, not copied.
            switch kind {
            case .dot:
                left = parseMember(of: consume left)
            case .identifier where keyword == .within:
                stepPastCurrent()
                let window = parseExpression(.not)
                let nodeRange = left.range.union(window.range)
                left = node(.within(consume left, window), at: nodeRange)
            case .identifier where keyword == .in:
                left = parseInList(consume left)
            default:
                let op = Self.binaryOperator(kind: kind, keyword: keyword)
                if kind == .assign { reportAssignment(atToken: operatorIndex) }
                stepPastCurrent()
                let right = parseExpression(level == .comparison ? .additive : level.tighter)
                let nodeRange = left.range.union(right.range)
                left = node(.binary(op, consume left, right), at: nodeRange)
            }
        }
        return left
    }

    // The reports of `parseExpression`, kept out of it: their messages would otherwise be
    // prepared on every call.

    @inline(never)
    private mutating func reportOperatorLimit(atToken operatorIndex: Int) {
        abandonRule("rule has more than \(RuleParser.maximumOperatorCount) operators", at: range(ofToken: operatorIndex))
    }

    @inline(never)
    private mutating func reportChainedComparison(atToken operatorIndex: Int) {
        report(.syntax, "comparison operators cannot be chained", at: range(ofToken: operatorIndex),
               help: "combine the comparisons with 'and': a < b and b < c")
    }

    @inline(never)
    private mutating func reportAssignment(atToken operatorIndex: Int) {
        report(.syntax, "'=' is not an operator", at: range(ofToken: operatorIndex), help: "use '==' to compare")
    }

    /// Whether the current token cannot continue an expression: in a `.tips` file, a line
    /// break outside brackets ends it unless the new line starts with an infix operator.
    @inline(__always)
    var endsExpressionAtLineBreak: Bool {
        mutating get { lineBreaksEndExpressions && openGroups == 0 && currentIsAtLineStart && !currentContinuesExpression }
    }

    /// Whether the current token is an infix or postfix operator.
    private var currentContinuesExpression: Bool {
        mutating get { currentInfixPrecedence != nil }
    }

    /// The level of the current token as an infix or postfix operator; nil when it is none.
    @inline(__always)
    var currentInfixPrecedence: ExpressionPrecedence? {
        mutating get {
            let token = token(index)
            return Self.infixPrecedence(kind: token.kind, keyword: token.keyword)
        }
    }

    /// The level of an infix or postfix operator token; nil when the token is none.
    @inline(__always)
    static func infixPrecedence(kind: RuleTokenKind, keyword: RuleKeyword?) -> ExpressionPrecedence? {
        switch kind {
        case .pipePipe: return .or
        case .ampAmp: return .and
        case .equalEqual, .bangEqual, .less, .lessEqual, .greater, .greaterEqual, .assign: return .comparison
        case .plus, .minus: return .additive
        case .star, .slash, .percent: return .multiplicative
        case .dot: return .postfix
        case .identifier:
            switch keyword {
            case .or: return .or
            case .and: return .and
            case .within: return .within
            case .in: return .comparison
            default: return nil
            }
        default: return nil
        }
    }

    /// The binary operator an infix operator token of `kind` spelling `keyword` stands for.
    @inline(__always)
    private static func binaryOperator(kind: RuleTokenKind, keyword: RuleKeyword?) -> BinaryOperator {
        switch kind {
        case .pipePipe: return .or
        case .ampAmp: return .and
        case .equalEqual, .assign: return .equal
        case .bangEqual: return .notEqual
        case .less: return .less
        case .lessEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterEqual: return .greaterOrEqual
        case .plus: return .add
        case .minus: return .subtract
        case .star: return .multiply
        case .slash: return .divide
        case .percent: return .remainder
        default: return keyword == .or ? .or : .and
        }
    }

    // MARK: - Prefix operators and primaries

    /// Parses an operand: a primary, or a prefix operator and its operand. Inlined into
    /// `parseExpression`, its one caller: most operands are primaries, read one call deeper.
    @inline(__always)
    private mutating func parsePrefix(_ minimum: ExpressionPrecedence) -> Expression {
        if isAbandoned {
            // The rule is being abandoned: unwind without reading on.
            return Expression(.error, at: emptyRange(atToken: index))
        }
        let token = token(index)
        if token.keyword == .not || token.kind == .bang { return parseUnary(.not, minimum) }
        if token.kind == .minus { return parseUnary(.negate, minimum) }
        return parsePrimary()
    }

    /// Parses the prefix operator at the current token (`not`, `!` or `-`) and its operand.
    private mutating func parseUnary(_ op: UnaryOperator, _ minimum: ExpressionPrecedence) -> Expression {
        let operatorIndex = index
        if op == .not, minimum > .not { reportMisplacedNot() }
        guard enterNesting() else { return skipOverlyNested() }
        defer { nesting -= 1 }
        stepPastCurrent()
        let operand = parseExpression(op == .not ? .not : .unary)
        return node(.unary(op, operand), at: range(ofToken: operatorIndex).union(operand.range))
    }

    /// Reports a `not` or `!` (the current token) where only a tighter operand may stand.
    @inline(never)
    private mutating func reportMisplacedNot() {
        report(.syntax, "expected expression, found \(describe(current))", at: range(ofToken: index),
               help: "'not' binds more loosely than comparisons and arithmetic; put it in parentheses: (not …)")
    }

    private mutating func parsePrimary() -> Expression {
        let tokenIndex = index
        let token = token(tokenIndex)
        switch token.kind {
        case .integer:
            let value = token.value
            stepPastCurrent()
            if case .integer(let value?) = value { return node(.literal(.int(value)), at: range(ofToken: tokenIndex)) }
            return node(.error, at: range(ofToken: tokenIndex))
        case .double:
            let value = token.value
            stepPastCurrent()
            if case .double(let value?) = value { return node(.literal(.double(value)), at: range(ofToken: tokenIndex)) }
            return node(.error, at: range(ofToken: tokenIndex))
        case .duration:
            let value = token.value
            stepPastCurrent()
            if case .duration(let seconds?) = value {
                return node(.literal(.duration(seconds: seconds)), at: range(ofToken: tokenIndex))
            }
            return node(.error, at: range(ofToken: tokenIndex))
        case .string:
            let contents = text(of: token.value)
            stepPastCurrent()
            // Counting characters is needed only when the UTF-8 length is over the limit.
            if contents.utf8.count > RuleParser.maximumStringLiteralLength, isOverlyLong(contents, atToken: tokenIndex) {
                return node(.error, at: range(ofToken: tokenIndex))
            }
            return node(.literal(.string(contents)), at: range(ofToken: tokenIndex))
        case .parameter:
            let name = text(of: token.value)
            stepPastCurrent()
            return node(name.isEmpty ? .error : .parameter(name), at: range(ofToken: tokenIndex))
        case .identifier where token.keyword != nil:
            switch token.keyword {
            case .true, .false:
                let value = token.keyword == .true
                stepPastCurrent()
                return node(.literal(.bool(value)), at: range(ofToken: tokenIndex))
            case .now:
                stepPastCurrent()
                return node(.now, at: range(ofToken: tokenIndex))
            default:
                return keywordAsName()
            }
        case .identifier, .quotedName:
            let text = text(of: token.value)
            stepPastCurrent()
            if currentKind == .leftParen, !endsExpressionAtLineBreak {
                let name = Identifier(text, at: range(ofToken: tokenIndex))
                let (arguments, end) = parseArguments()
                return node(.functionCall(name, arguments), at: range(fromToken: tokenIndex, toToken: end))
            }
            // The text goes into the node as it is: no `Identifier` copy to retain and release.
            return node(.name(text), at: range(ofToken: tokenIndex))
        case .leftParen:
            guard enterNesting() else { return skipOverlyNested() }
            defer { nesting -= 1 }
            stepPastCurrent()
            openGroups += 1
            let inner = parseExpression()
            let closed = expectClosing(.rightParen, opening: tokenIndex)
            openGroups -= 1
            var result = inner
            result.range = closed ? range(fromToken: tokenIndex, toToken: index - 1) : range(ofToken: tokenIndex).union(inner.range)
            return result
        default:
            return expressionMissing(help: nil)
        }
    }

    /// Whether string literal `contents` (of token `tokenIndex`) has more characters than the
    /// limit; reports it when so.
    @inline(never)
    private mutating func isOverlyLong(_ contents: String, atToken tokenIndex: Int) -> Bool {
        let length = contents.unicodeScalars.count
        guard length > RuleParser.maximumStringLiteralLength else { return false }
        report(.limit, "string literal is \(length) characters long; at most \(RuleParser.maximumStringLiteralLength) are allowed",
               at: range(ofToken: tokenIndex))
        return true
    }

    /// A keyword (the current token) where an operand is expected: reported as missing.
    @inline(never)
    private mutating func keywordAsName() -> Expression {
        expressionMissing(help: "a name that is a keyword is written in backticks: `\(text(of: current))`")
    }

    /// Reports a missing expression at the current token and returns an `.error` node. The
    /// token is consumed unless it closes or separates something (`)` `]` `,` `}`, the end,
    /// a line break that ends the expression), where the caller resynchronises.
    @inline(never)
    private mutating func expressionMissing(help: String?) -> Expression {
        reportExpected("expression", help: help)
        if isSynchronisationPoint {
            return node(.error, at: emptyRange(atToken: index))
        }
        let tokenIndex = index
        stepPastCurrent()
        return node(.error, at: range(ofToken: tokenIndex))
    }

    /// Where a missing operand is reported without consuming the token: closers, separators,
    /// the end, and infix operators (which the caller then reads with an `.error` operand).
    private var isSynchronisationPoint: Bool {
        mutating get {
            switch currentKind {
            case .rightParen, .rightBracket, .rightBrace, .comma, .endOfFile: return true
            default: return endsExpressionAtLineBreak || currentInfixPrecedence != nil
            }
        }
    }

    // MARK: - Postfix and lists

    private mutating func parseMember(of base: consuming Expression) -> Expression {
        let dotIndex = index
        stepPastCurrent()
        let token = token(index)
        guard token.kind == .identifier || token.kind == .quotedName else {
            reportMissingMemberName()
            return node(.error, at: base.range.union(range(ofToken: dotIndex)))
        }
        let nameIndex = index
        let nameText = text(of: token.value)
        stepPastCurrent()
        let name = Identifier(nameText, at: range(ofToken: nameIndex))
        if currentKind == .leftParen, !endsExpressionAtLineBreak {
            let (arguments, end) = parseArguments()
            let nodeRange = base.range.union(range(ofToken: end))
            return node(.methodCall(base, name, arguments), at: nodeRange)
        }
        let nodeRange = base.range.union(name.range)
        return node(.member(base, name), at: nodeRange)
    }

    @inline(never)
    private mutating func reportMissingMemberName() {
        reportExpected("a member name after '.'", help: "for example .count, .within(3d), .where(…)")
    }

    /// Parses `( expr, … )` from the current `(`; returns the arguments and the index of the
    /// last token consumed.
    private mutating func parseArguments() -> ([Expression], Int) {
        let opening = index
        guard enterNesting() else {
            _ = skipOverlyNested()
            return ([], max(opening, index - 1))
        }
        defer { nesting -= 1 }
        stepPastCurrent()
        openGroups += 1
        defer { openGroups -= 1 }
        let arguments = parseList(closing: .rightParen, opening: opening, what: "argument")
        return (arguments, index - 1)
    }

    private mutating func parseInList(_ value: consuming Expression) -> Expression {
        let inIndex = index
        stepPastCurrent()
        guard currentKind == .leftBracket else {
            reportExpected("'[' after 'in'", help: "membership is tested in a list: x in [\"a\", \"b\"]")
            guard canStartExpression else {
                let nodeRange = value.range.union(range(ofToken: inIndex))
                return node(.inList(value, []), at: nodeRange)
            }
            // Read the operand as a one-element list and go on.
            let element = parseExpression(.additive)
            let nodeRange = value.range.union(element.range)
            return node(.inList(value, [element]), at: nodeRange)
        }
        let opening = index
        guard enterNesting() else {
            _ = skipOverlyNested()
            return node(.error, at: value.range.union(range(fromToken: inIndex, toToken: index - 1)))
        }
        defer { nesting -= 1 }
        stepPastCurrent()
        openGroups += 1
        defer { openGroups -= 1 }
        let elements = parseList(closing: .rightBracket, opening: opening, what: "list element")
        let nodeRange = value.range.union(range(ofToken: index - 1))
        return node(.inList(value, elements), at: nodeRange)
    }

    /// Parses comma-separated expressions up to and including `closing` (a trailing comma is
    /// allowed). The opening bracket has been consumed.
    private mutating func parseList(closing: RuleTokenKind, opening: Int, what: String) -> [Expression] {
        var items: [Expression] = []
        while currentKind != closing {
            if isAbandoned { return items }
            let before = index
            items.append(parseExpression())
            let kind = currentKind
            if kind == .comma {
                stepPastCurrent()
                continue
            }
            if kind != closing {
                // An argument that was missing altogether has been reported already.
                if index != before { reportMissingSeparator(closing: closing, opening: opening) }
                skipInsideGroup(closing: closing)
                if currentKind == closing { skipToken() }
                return items
            }
        }
        stepPastCurrent()
        return items
    }

    @inline(never)
    private mutating func reportMissingSeparator(closing: RuleTokenKind, opening: Int) {
        let closingText = closing == .rightParen ? "')'" : "']'"
        reportExpected("',' or \(closingText)", notes: [DiagnosticNote("to match this", at: range(ofToken: opening))])
    }

    /// Consumes the closing bracket, or reports it missing and skips to it. Returns whether
    /// it was found.
    private mutating func expectClosing(_ closing: RuleTokenKind, opening: Int) -> Bool {
        if currentKind == closing {
            skipToken()
            return true
        }
        if isAbandoned { return false }
        let text = closing == .rightParen ? "')'" : "']'"
        reportExpected(text, notes: [DiagnosticNote("to match this", at: range(ofToken: opening))])
        skipInsideGroup(closing: closing)
        if currentKind == closing {
            skipToken()
            return true
        }
        return false
    }

    /// Skips tokens up to the `closing` bracket that balances the innermost open one, the
    /// end, or (in `.tips` files) an unbalanced `}` or a line starting with a declaration
    /// keyword.
    private mutating func skipInsideGroup(closing: RuleTokenKind) {
        var balance = 0
        while !isAtEnd {
            let kind = currentKind
            if balance == 0 {
                if kind == closing || kind == .rightParen || kind == .rightBracket { return }
                if lineBreaksEndExpressions, kind == .rightBrace || (currentIsAtLineStart && currentKind == .identifier
                    && DeclarationKeywords.all.contains(text(of: current))) {
                    return
                }
            }
            switch kind {
            case .leftParen, .leftBracket: balance += 1
            case .rightParen, .rightBracket: balance -= 1
            default: break
            }
            skipToken()
        }
    }

    // MARK: - Limits

    /// Makes a node, counting it against the size limit; past the limit, reports once and
    /// returns an `.error` leaf, so no tree grows beyond the limit.
    @inline(__always)
    mutating func node(_ kind: consuming Expression.Kind, at range: SourceRange) -> Expression {
        nodeCount += 1
        if nodeCount > RuleParser.maximumNodeCount { return nodeOverLimit(at: range) }
        return Expression(kind, at: range)
    }

    /// `node(_:at:)` past the size limit.
    @inline(never)
    private mutating func nodeOverLimit(at range: SourceRange) -> Expression {
        abandonRule("rule has more than \(RuleParser.maximumNodeCount) operators and operands", at: range)
        return Expression(.error, at: range)
    }

    /// Reports a size limit (once) and gives up on the current rule.
    private mutating func abandonRule(_ message: String, at range: SourceRange) {
        guard !isAbandoned else { return }
        isAbandoned = true
        report(.limit, message, at: range, help: "split it into several rules")
    }

    /// Enters one nesting level; false (after reporting once) when that would exceed the limit.
    private mutating func enterNesting() -> Bool {
        if nesting >= RuleParser.maximumNestingDepth {
            if !reportedNestingLimit {
                reportedNestingLimit = true
                report(.limit, "expression nests deeper than \(RuleParser.maximumNestingDepth) levels", at: range(ofToken: index),
                       help: "simplify the expression")
            }
            return false
        }
        nesting += 1
        return true
    }

    /// Skips the over-deep operand at the current token without recursing: everything up to a
    /// `)` `]` or `,` that is not balanced inside it, or a point where the expression ends.
    private mutating func skipOverlyNested() -> Expression {
        let first = index
        let startsWithGroup = currentKind == .leftParen || currentKind == .leftBracket
        var balance = 0
        while true {
            let token = current
            let kind = token.kind
            if kind == .endOfFile { break }
            if balance == 0, index > first {
                if kind == .rightParen || kind == .rightBracket || kind == .comma { break }
                if lineBreaksEndExpressions, kind == .rightBrace || (openGroups == 0 && token.isAtLineStart) { break }
            }
            switch kind {
            case .leftParen, .leftBracket: balance += 1
            case .rightParen, .rightBracket: balance -= 1
            default: break
            }
            index += 1
            if startsWithGroup, balance == 0 { break }
        }
        return Expression(.error, at: range(since: first))
    }
}
