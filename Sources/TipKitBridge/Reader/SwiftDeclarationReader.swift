import TipcCompiler

/// The declarations of one Swift file that the TipKit importer looks at: types (with their
/// enclosing types and what they conform to) and properties (with their initializer or getter
/// as expressions). Everything else — functions, statements, other declarations — is skipped,
/// except that expressions anywhere in the file are searched for `Tips.configure` and
/// `TipGroup` (`SwiftOutline.calls`).
struct SwiftOutline: Sendable {
    struct TypeDeclaration: Sendable {
        /// The qualified name (`["TaggingTips", "Date"]`).
        var path: [String]
        var keyword: String
        var inherits: [String]
        /// Token index of the name.
        var nameToken: Int
        /// The tokens of the body, `{` and `}` excluded.
        var body: Range<Int>
    }

    /// `case name` or `case name = "raw"` of an enum.
    struct EnumCase: Sendable {
        var owner: [String]
        var name: String
        var rawValue: SwiftExpression?
    }

    /// `self.name = value` (or `name = value`) in an initializer of the type `owner`.
    struct Assignment: Sendable {
        var owner: [String]
        var name: String
        var value: SwiftExpression
    }

    /// One branch of an `#if … #elseif … #else … #endif`: the tokens it holds, and whether a
    /// release build for an iOS device compiles it (no compilation condition set: `DEBUG` and
    /// custom flags are false; `os(iOS)` is true and every other `os(…)` false;
    /// `targetEnvironment(…)` is false; `canImport(…)`, `swift(…)`, `compiler(…)`, `arch(…)` are
    /// true).
    struct ConditionalBranch: Sendable {
        /// The token of `#if`, `#elseif` or `#else`.
        var directive: Int
        var body: Range<Int>
        var isCompiledInRelease: Bool
    }

    struct Property: Sendable {
        /// The enclosing type's qualified name (empty at the top level).
        var owner: [String]
        var name: String
        var nameToken: Int
        var isStatic: Bool
        /// `@Parameter(.transient)` → `["Parameter": [.transient]]`.
        var attributes: [String: [SwiftExpression.Argument]]
        /// The declared type's spelling (`Bool`, `Text?`, `[Rule]`), if any.
        var typeName: String?
        var initializer: SwiftExpression?
        /// The getter's statements (`var x: T { … }`, or its `get { … }`).
        var getter: [SwiftExpression]?
        /// The token of the innermost `#if` around the declaration, if any.
        var conditionToken: Int?
    }

    /// A call found anywhere (`Tips.configure(…)`, `TipGroup(…)`), with the property it
    /// initializes when it is one's initializer.
    struct Call: Sendable {
        var expression: SwiftExpression
        var property: String?
    }

    var tokens: [SwiftToken]
    var matching: [Int]
    var types: [TypeDeclaration] = []
    var properties: [Property] = []
    var calls: [Call] = []
    var enumCases: [EnumCase] = []
    var assignments: [Assignment] = []
    var branches: [ConditionalBranch] = []

    /// Whether a release build compiles the token at `index` (every `#if` branch around it is
    /// the one taken).
    func isCompiledInRelease(_ index: Int) -> Bool {
        !branches.contains { $0.body.contains(index) && !$0.isCompiledInRelease }
    }

    /// The branches around the token at `index` that a release build does not compile.
    func branchesLeftOut(around index: Int) -> [ConditionalBranch] {
        branches.filter { $0.body.contains(index) && !$0.isCompiledInRelease }
    }

    /// The innermost type whose body holds the token at `index` (empty at the top level).
    func scope(of index: Int) -> [String] {
        var best: TypeDeclaration?
        for type in types where type.body.contains(index) {
            if best == nil || type.body.lowerBound > best!.body.lowerBound { best = type }
        }
        return best?.path ?? []
    }
}

struct SwiftDeclarationReader {
    private let tokens: [SwiftToken]
    private let matching: [Int]
    private var outline: SwiftOutline
    private var conditions: [Int] = []

    static func read(_ tokens: [SwiftToken]) -> SwiftOutline {
        let matching = swiftBracketMatches(tokens)
        var reader = SwiftDeclarationReader(tokens: tokens, matching: matching,
                                            outline: SwiftOutline(tokens: tokens, matching: matching))
        reader.readScope(path: [], from: 0, to: tokens.count, depth: 0, isEnum: false)
        reader.findCalls()
        reader.findBranches()
        return reader.outline
    }

    private static let typeKeywords: Set<String> = ["struct", "enum", "class", "actor", "extension", "protocol"]
    private static let skippedKeywords: Set<String> = ["func", "init", "subscript", "deinit", "case", "typealias", "import", "associatedtype", "operator", "precedencegroup", "macro"]

    private func closing(_ open: Int, limit: Int) -> Int { min(matching[open], limit) }

    /// Reads the declarations in `tokens[start..<end]`, the body of the type `path`.
    private mutating func readScope(path: [String], from start: Int, to end: Int, depth: Int, isEnum: Bool) {
        var i = start
        var attributes: [String: [SwiftExpression.Argument]] = [:]
        var isStatic = false
        while i < end {
            let token = tokens[i]
            switch token.kind {
            case .poundIdentifier where ["if", "elseif", "else", "endif"].contains(token.text):
                if token.text == "if" { conditions.append(i) }
                if token.text == "endif" { _ = conditions.popLast() }
                if token.text == "else" || token.text == "elseif", !conditions.isEmpty { conditions[conditions.count - 1] = i }
                i += 1
                while i < end, !tokens[i].startsLine { i = skipOne(i, limit: end) }
            case .attribute:
                i += 1
                var arguments: [SwiftExpression.Argument] = []
                if i < end, tokens[i].isPunctuation("("), tokens[i].start == tokens[i - 1].end {
                    let close = closing(i, limit: end)
                    let parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: i, to: close + 1)
                    arguments = parser.list(from: i + 1, to: close)
                    i = close + 1
                }
                attributes[token.text] = arguments
            case .identifier where token.text == "static" || token.text == "class" && i + 1 < end && ["var", "let", "func"].contains(tokens[i + 1].text):
                isStatic = true
                i += 1
            case .identifier where Self.typeKeywords.contains(token.text):
                i = readType(path: path, keyword: token.text, at: i, end: end, depth: depth)
                attributes = [:]
                isStatic = false
            case .identifier where token.text == "var" || token.text == "let":
                i = readProperty(owner: path, at: i, end: end, attributes: attributes, isStatic: isStatic)
                attributes = [:]
                isStatic = false
            case .identifier where token.text == "case" && isEnum:
                i = readCases(owner: path, at: i, end: end)
                attributes = [:]
                isStatic = false
            case .identifier where Self.skippedKeywords.contains(token.text):
                // Up to the body (or the end of the line), then the body whole.
                i += 1
                while i < end, !tokens[i].isPunctuation("{"), !(tokens[i].startsLine && isDeclarationStart(i)) { i = skipOne(i, limit: end) }
                if i < end, tokens[i].isPunctuation("{") {
                    let close = closing(i, limit: end)
                    if token.text == "init", !path.isEmpty { readAssignments(owner: path, from: i + 1, to: close) }
                    i = close + 1
                }
                attributes = [:]
                isStatic = false
            default:
                i = skipOne(i, limit: end)
            }
        }
    }

    private func isDeclarationStart(_ i: Int) -> Bool {
        let token = tokens[i]
        if token.kind == .attribute || token.kind == .poundIdentifier { return true }
        guard token.kind == .identifier else { return token.isPunctuation("}") }
        return Self.typeKeywords.contains(token.text) || Self.skippedKeywords.contains(token.text)
            || ["var", "let", "static", "public", "private", "fileprivate", "internal", "open", "nonisolated", "final", "override", "package", "mutating", "lazy"].contains(token.text)
    }

    private func skipOne(_ i: Int, limit: Int) -> Int {
        let token = tokens[i]
        if token.kind == .punctuation, "({[".contains(token.text) { return closing(i, limit: limit) + 1 }
        return i + 1
    }

    /// `struct Name<…>: A, B where … { body }`; returns the index after the body.
    private mutating func readType(path: [String], keyword: String, at start: Int, end: Int, depth: Int) -> Int {
        var i = start + 1
        var name: [String] = []
        let nameToken = i
        while i < end, tokens[i].kind == .identifier {
            name.append(tokens[i].text)
            i += 1
            guard i + 1 < end, tokens[i].isPunctuation("."), tokens[i + 1].kind == .identifier else { break }
            i += 1
        }
        guard !name.isEmpty else { return i }
        var inherits: [String] = []
        while i < end, !tokens[i].isPunctuation("{") {
            let token = tokens[i]
            if token.isPunctuation("}") || (token.startsLine && i > nameToken + 1 && isDeclarationStart(i)) { return i }
            if token.kind == .identifier, i > 0, tokens[i - 1].isPunctuation(":") || tokens[i - 1].isPunctuation(",") || tokens[i - 1].isOperator("&") {
                // `TipKit.Tip` counts as `Tip`.
                var spelled = token.text
                var k = i
                while k + 2 < end, tokens[k + 1].isPunctuation("."), tokens[k + 2].kind == .identifier {
                    spelled = tokens[k + 2].text
                    k += 2
                }
                inherits.append(spelled)
                i = k + 1
                continue
            }
            if token.isIdentifier("where") {
                while i < end, !tokens[i].isPunctuation("{") { i = skipOne(i, limit: end) }
                break
            }
            i = skipOne(i, limit: end)
        }
        guard i < end else { return i }
        let close = closing(i, limit: end)
        let typePath = keyword == "extension" ? name : path + name
        outline.types.append(SwiftOutline.TypeDeclaration(path: typePath, keyword: keyword, inherits: inherits, nameToken: nameToken,
                                                          body: (i + 1)..<max(i + 1, close)))
        if keyword != "protocol", depth < SwiftLexer.maximumNestingDepth {
            readScope(path: typePath, from: i + 1, to: close, depth: depth + 1, isEnum: keyword == "enum")
        }
        return close + 1
    }

    /// `var name: Type = initializer`, `var name: Type { getter }`; returns the index after it.
    private mutating func readProperty(owner: [String], at start: Int, end: Int,
                                       attributes: [String: [SwiftExpression.Argument]], isStatic: Bool) -> Int {
        var i = start + 1
        guard i < end, tokens[i].kind == .identifier else { return i }
        let nameToken = i
        i += 1
        var typeName: String?
        if i < end, tokens[i].isPunctuation(":") {
            i += 1
            var spelling = ""
            while i < end, !tokens[i].isPunctuation("{"), !tokens[i].isOperator("="), !(tokens[i].startsLine && isDeclarationStart(i)),
                  !tokens[i].isPunctuation("}"), !tokens[i].isPunctuation(";") {
                let next = skipOne(i, limit: end)
                for k in i..<min(next, end) { spelling += tokens[k].text }
                i = next
                if i < end, tokens[i].startsLine { break }
            }
            typeName = spelling
        }
        var property = SwiftOutline.Property(owner: owner, name: tokens[nameToken].text, nameToken: nameToken, isStatic: isStatic,
                                             attributes: attributes, typeName: typeName, conditionToken: conditions.last)
        if i < end, tokens[i].isOperator("=") {
            var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: i + 1, to: end)
            property.initializer = parser.expression()
            i = max(parser.index, i + 1)
        } else if i < end, tokens[i].isPunctuation("{") {
            let close = closing(i, limit: end)
            var bodyStart = i + 1
            var bodyEnd = close
            // `{ get { … } set { … } }`: the getter's body.
            if bodyStart < close, tokens[bodyStart].isIdentifier("get"), bodyStart + 1 < close, tokens[bodyStart + 1].isPunctuation("{") {
                bodyEnd = closing(bodyStart + 1, limit: close)
                bodyStart += 2
            }
            var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: bodyStart, to: bodyEnd)
            property.getter = parser.statements()
            i = close + 1
        }
        outline.properties.append(property)
        return i
    }

    /// `case a, b = "raw", c(Int)`; returns the index after the list.
    private mutating func readCases(owner: [String], at start: Int, end: Int) -> Int {
        var i = start + 1
        while i < end, tokens[i].kind == .identifier {
            var enumCase = SwiftOutline.EnumCase(owner: owner, name: tokens[i].text, rawValue: nil)
            i += 1
            if i < end, tokens[i].isPunctuation("(") { i = closing(i, limit: end) + 1 }
            if i < end, tokens[i].isOperator("=") {
                var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: i + 1, to: end)
                enumCase.rawValue = parser.expression()
                i = max(parser.index, i + 1)
            }
            outline.enumCases.append(enumCase)
            guard i < end, tokens[i].isPunctuation(","), !tokens[i].startsLine else { break }
            i += 1
        }
        return i
    }

    /// `self.name = value` and `name = value` at the start of a line of an initializer's body.
    private mutating func readAssignments(owner: [String], from start: Int, to end: Int) {
        var i = start
        while i < end {
            var k = i
            if tokens[k].isIdentifier("self"), k + 2 < end, tokens[k + 1].isPunctuation(".") { k += 2 }
            if tokens[i].startsLine, tokens[k].kind == .identifier, k + 1 < end, tokens[k + 1].isOperator("=") {
                var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: k + 2, to: end)
                let value = parser.expression()
                outline.assignments.append(SwiftOutline.Assignment(owner: owner, name: tokens[k].text, value: value))
                i = max(parser.index, k + 2)
                continue
            }
            i = skipOne(i, limit: end)
        }
    }

    /// The branches of every `#if` in the file, with whether a release build compiles each.
    private mutating func findBranches() {
        struct Open { var start: Int; var directive: Int; var condition: Bool; var taken: Bool }
        var open: [Open] = []
        func lineEnd(_ i: Int) -> Int {
            var k = i + 1
            while k < tokens.count, !tokens[k].startsLine { k += 1 }
            return k
        }
        func close(_ branch: Open, at end: Int) {
            outline.branches.append(SwiftOutline.ConditionalBranch(directive: branch.directive, body: branch.start..<max(branch.start, end),
                                                                   isCompiledInRelease: branch.condition))
        }
        for (i, token) in tokens.enumerated() where token.kind == .poundIdentifier {
            switch token.text {
            case "if":
                let end = lineEnd(i)
                let condition = evaluate(from: i + 1, to: end)
                open.append(Open(start: end, directive: i, condition: condition, taken: condition))
            case "elseif", "else":
                guard var branch = open.popLast() else { continue }
                close(branch, at: i)
                let end = token.text == "else" ? i + 1 : lineEnd(i)
                let condition = !branch.taken && (token.text == "else" || evaluate(from: i + 1, to: end))
                branch = Open(start: end, directive: i, condition: condition, taken: branch.taken || condition)
                open.append(branch)
            case "endif":
                if let branch = open.popLast() { close(branch, at: i) }
            default:
                break
            }
        }
        while let branch = open.popLast() { close(branch, at: tokens.count) }
    }

    /// A compilation condition as a release build sees it.
    private func evaluate(from start: Int, to end: Int) -> Bool {
        guard start < end else { return false }
        var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: start, to: end)
        return Self.evaluate(parser.expression())
    }

    private static func evaluate(_ condition: SwiftExpression) -> Bool {
        switch condition.kind {
        case .identifier(let name): return name == "true"
        case .prefix("!", let operand): return !evaluate(operand)
        case .parenthesized(let inner): return evaluate(inner)
        case .binary("&&", let left, let right): return evaluate(left) && evaluate(right)
        case .binary("||", let left, let right): return evaluate(left) || evaluate(right)
        case .call(let callee, let arguments, _):
            switch callee.kind {
            case .identifier("targetEnvironment"): return false
            case .identifier("os"):
                if case .identifier(let platform)? = arguments.first?.value.kind { return platform == "iOS" }
                return false
            default: return true
            }
        default: return false
        }
    }

    /// Every `Tips.configure(…)` and `TipGroup(…)` call in the file, with the property it is
    /// assigned to (`var group = TipGroup(…)`, `@State var tips = TipGroup(…)`).
    private mutating func findCalls() {
        var i = 0
        while i < tokens.count {
            let token = tokens[i]
            let isConfigure = token.isIdentifier("Tips") && i + 3 < tokens.count && tokens[i + 1].isPunctuation(".")
                && tokens[i + 2].isIdentifier("configure") && tokens[i + 3].isPunctuation("(")
            // `TipGroup { … }` is a call unless `TipGroup` is a type written before a body
            // (`extension TipGroup {`, `var g: TipGroup {`, `-> TipGroup {`).
            let isTypeBeforeBody = i > 0 && (tokens[i - 1].isIdentifier("extension") || tokens[i - 1].isPunctuation(":")
                || tokens[i - 1].isPunctuation(",") || tokens[i - 1].isOperator("->") || tokens[i - 1].isOperator("&"))
            let isGroup = token.isIdentifier("TipGroup") && i + 1 < tokens.count && !(i > 0 && tokens[i - 1].isPunctuation("."))
                && (tokens[i + 1].isPunctuation("(") || (tokens[i + 1].isPunctuation("{") && !tokens[i + 1].startsLine && !isTypeBeforeBody))
            guard isConfigure || isGroup else { i += 1; continue }
            var parser = SwiftExpressionParser(tokens: tokens, matching: matching, from: i, to: tokens.count)
            let expression = parser.expression()
            var property: String?
            if isGroup, i >= 2, tokens[i - 1].isOperator("=") {
                // `var name = TipGroup(…)` or `var name: TipGroup = TipGroup(…)`.
                var k = i - 2
                while k > 0, !tokens[k].isIdentifier("var"), !tokens[k].isIdentifier("let"), i - k < 6 { k -= 1 }
                if tokens[k].isIdentifier("var") || tokens[k].isIdentifier("let"), k + 1 < i, tokens[k + 1].kind == .identifier {
                    property = tokens[k + 1].text
                }
            }
            outline.calls.append(SwiftOutline.Call(expression: expression, property: property))
            i = max(parser.index, i + 1)
        }
    }
}
