/// The rule language's parser: one rule expression (the value of a YAML `rules:` item, or any
/// rule text), or a whole `.tips` file. It reads tokens that its `RuleLexer` makes as they are
/// needed (`RuleParser+Tokens`); the grammar is in `RuleParser+Expressions`,
/// `RuleParser+Declarations` and `RuleParser+Texts` and follows `Grammar/tips.ebnf`.
///
/// The parser never throws: every problem is a diagnostic, and the result has `.error`
/// nodes where text did not parse.
///
/// Limits, so that hostile input is an error in bounded time and never exhausts the stack:
/// - at most `maximumNestingDepth` (256) nested levels of parentheses, `not`/`!`, unary `-`,
///   call arguments and `in` lists; deeper text is one `limit` diagnostic and is skipped;
/// - at most `maximumOperatorCount` (500) binary operators, `within`s, `in`s and `.member`s
///   in one rule, and at most `maximumNodeCount` (10,000) syntax-tree nodes (list elements
///   included). A larger rule is one `limit` diagnostic, is not read further (a rule longer
///   than `lexAheadLength` is not lexed beyond that point), and becomes an `.error` node.
///
/// - at most `maximumRuleLength` (10,000) characters of rule text and `maximumStringLiteralLength`
///   (1,000) characters in one string literal; longer is a `limit` diagnostic and an `.error` node;
/// - at most `maximumErrorCount` (100) errors from one parser (a `.tips` file, or one rule from
///   YAML); at the limit one `limit` diagnostic says so and the rest of the text is not read, so
///   binary garbage costs a bounded number of diagnostics.
///
/// Together they bound the depth of every tree the parser returns (at most 757 levels), so
/// code that walks a tree recursively, including the synthesized `==`, hashing and
/// deallocation of `Expression`, stays well within a secondary thread's stack.
public struct RuleParser {
    /// The deepest nesting of parentheses, `not`, unary minus, arguments and lists.
    public static let maximumNestingDepth = 256
    /// The most binary operators, `within`s, `in`s and `.member`s one rule may have.
    public static let maximumOperatorCount = 500
    /// The most syntax-tree nodes one rule may have.
    public static let maximumNodeCount = 10_000
    /// The longest rule, in characters (Unicode scalars).
    public static let maximumRuleLength = 10_000
    /// The longest string literal in a rule, in characters (Unicode scalars).
    public static let maximumStringLiteralLength = 1_000
    /// The most errors one parser reports before it stops reading.
    public static let maximumErrorCount = 100

    /// Parses a `.tips` file into the same declarations as the YAML front end. A BOM
    /// and CRLF line endings are accepted.
    public static func parseFile(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> ManifestFile {
        var parser = RuleParser(bytes: file.bytes, source: RuleText(file: file), lineBreaksEndExpressions: true)
        let manifest = parser.parseFile(file)
        diagnostics.append(contentsOf: parser.diagnosticsInOrder)
        return manifest
    }

    /// Parses `text` as one expression; the whole text must be consumed.
    public static func parseRule(_ text: RuleText, diagnostics: inout [Diagnostic]) -> Expression {
        var parser = RuleParser(bytes: text.text.utf8, source: text, lineBreaksEndExpressions: false)
        return parseRule(with: &parser, diagnostics: &diagnostics)
    }

    /// `parseRule(_:diagnostics:)` with a parser made for rule text (`init(reusableFor:)`) and
    /// reused from rule to rule: `parser` is reset to `text` first.
    static func parseRule(_ text: consuming RuleText, reusing parser: inout RuleParser,
                          diagnostics: inout [Diagnostic]) -> Expression {
        parser.reset(source: text)
        return parseRule(with: &parser, diagnostics: &diagnostics)
    }

    /// Rule texts up to this many bytes are lexed ahead of parsing, in one loop rather than
    /// token by token as the parser asks (see `lexAheadIfClean`). A rule this
    /// short can still reach a limit (500 operators, the nesting depth, 100 errors); the parser
    /// then gives up, and the rule is parsed again lexing on demand.
    private static let lexAheadLength = 1_024

    private static func parseRule(with parser: inout RuleParser, diagnostics: inout [Diagnostic]) -> Expression {
        if parser.lexAheadIfClean(maximumLength: lexAheadLength) {
            let expression = parseLexedRule(with: &parser, diagnostics: &diagnostics)
            if !parser.abandonedAfterLexingAhead { return expression }
            // The parser gave up reading (too many errors): parse again, lexing on demand.
            parser.rewind()
        }
        return parseLexedRule(with: &parser, diagnostics: &diagnostics)
    }

    /// Parses the rule `parser` was reset to, lexing as it reads unless its text was lexed ahead.
    static func parseLexedRule(with parser: inout RuleParser, diagnostics: inout [Diagnostic]) -> Expression {
        var expression = parser.parseRuleExpression()
        if !parser.isAtEnd {
            // Report the first stray token, then parse what follows so that its own errors
            // are reported too; it is not part of the result.
            parser.reportExpected("an operator or the end of the rule")
            while !parser.isAtEnd {
                if parser.canStartExpression {
                    _ = parser.parseRuleExpression()
                } else {
                    parser.advance()
                }
            }
            if case .error = expression.kind {} else {
                expression = Expression(.error, at: expression.range)
            }
        }
        if parser.abandonedAfterLexingAhead || !parser.hasDiagnostics { return expression }
        diagnostics.append(contentsOf: parser.diagnosticsInOrder)
        return expression
    }

    // MARK: - State

    // The tokens (see `RuleParser+Tokens`).
    /// The tokens lexed so far; their memory is kept from text to text.
    var tokens: [ScannedToken] = []
    /// A copy of the text, at an address that stays put while the lexer reads it; reused (and
    /// replaced by a larger one when needed) by `reset`.
    var storage: TextCopy
    /// The length of the text in `storage`.
    var length = 0
    var lexer: RuleLexer
    /// Set when the end-of-file token has been lexed.
    var lexedAll = false
    /// Set by `lexAheadIfClean`: every token was lexed before the parser asked for one.
    var lexedAhead = false
    /// Set when `abandonLexing` was called on tokens lexed ahead, where it cannot do what it
    /// does on tokens lexed on demand (see `lexAheadIfClean`).
    var abandonedAfterLexingAhead = false

    // The grammar's state.
    /// The number of the file the text is in (every range the parser makes is in it).
    private(set) var fileNumber: UInt32
    /// In `.tips` files a line break ends an expression outside brackets, unless the next line
    /// starts with an infix operator; in rule text from YAML line breaks are plain spaces.
    let lineBreaksEndExpressions: Bool
    var index = 0
    /// The parser's own diagnostics (the lexer has its own: see `diagnosticsInOrder`).
    var diagnostics: [Diagnostic]

    /// Brackets `(` `[` open around the current token inside an expression.
    var openGroups = 0
    /// Nesting levels entered (parentheses, `not`, unary minus, arguments, lists).
    var nesting = 0
    /// Syntax-tree nodes built for the current rule.
    var nodeCount = 0
    /// Binary operators, `within`, `in` and `.member`s read in the current rule.
    var operatorCount = 0
    var reportedNestingLimit = false
    /// Set once `RuleParser.maximumErrorCount` errors were reported: the text is no longer read.
    var reportedErrorLimit = false
    /// Set when the current rule exceeded a size limit: it is skipped and becomes `.error`.
    var isAbandoned = false
    /// The first comment not yet attached to a declaration.
    var commentCursor = 0

    /// A parser of `bytes`, placed in their file through `source` (whose UTF-8 offsets are
    /// those of `bytes`).
    init<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText, lineBreaksEndExpressions: Bool) {
        storage = TextCopy(capacity: max(bytes.count, 64))
        lexer = RuleLexer(bytes: UnsafeBufferPointer(start: nil, count: 0), source: source)
        self.fileNumber = source.pathNumber
        self.lineBreaksEndExpressions = lineBreaksEndExpressions
        self.diagnostics = []
        let isASCII = copyText(bytes)
        restartLexing(source: source, isASCII: isASCII)
    }

    /// A parser for rule texts (line breaks are plain spaces) in the file numbered
    /// `pathNumber`, which has read nothing yet: one that `parseRule(_:reusing:diagnostics:)`
    /// resets to each rule. (Not an optional made at the first rule: a check of an optional
    /// this large is a call, three per rule.)
    init(reusableFor pathNumber: UInt32) {
        let empty = RuleText(text: "", pathNumber: pathNumber, mapping: .singleLine(start: SourceLocation(line: 1, column: 1)))
        self.init(bytes: EmptyCollection<UInt8>(), source: empty, lineBreaksEndExpressions: false)
    }

    /// Starts over on the text of `source` with the same settings, reusing this parser's
    /// memory: a front end that parses thousands of rules parses them all with one parser.
    mutating func reset(source: consuming RuleText) {
        fileNumber = source.pathNumber
        let isASCII = copyText(source.text.utf8)
        restartLexing(source: source, isASCII: isASCII)
        resetState()
    }

    /// Starts over on the same text, lexing it on demand.
    mutating func rewind() {
        lexer.rewind()
        forgetTokens()
        resetState()
    }

    /// The state of a parser that has read nothing.
    private mutating func resetState() {
        index = 0
        if !diagnostics.isEmpty { diagnostics.removeAll(keepingCapacity: true) }
        openGroups = 0
        nesting = 0
        nodeCount = 0
        operatorCount = 0
        reportedNestingLimit = false
        reportedErrorLimit = false
        isAbandoned = false
        commentCursor = 0
    }
}

extension RuleParser {
    /// Whether the current token can begin an expression.
    var canStartExpression: Bool {
        mutating get {
            switch currentKind {
            case .integer, .double, .string, .duration, .parameter, .quotedName, .leftParen, .minus, .bang: return true
            case .identifier:
                switch currentKeyword {
                case .and, .or, .within, .in: return false
                default: return true
                }
            default: return false
            }
        }
    }
}
