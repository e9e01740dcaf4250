import TipRuntime

/// The words that start declarations and tip attributes in `.tips` files.
enum DeclarationKeywords {
    static let topLevel: [String] = FileAttributes.tipsWords
    static let all: Set<String> = Set(topLevel + TipAttributes.tipsWords + ExperimentAttributes.lineWords)
}

/// `.tips` files: one declaration per line (a tip's or a group's braces may span lines),
/// following `Grammar/tips.ebnf`. After an error the parser skips to the next line that
/// starts a declaration (or, inside a tip, to the next line or the closing `}`).
extension RuleParser {
    mutating func parseFile(_ file: SourceFile) -> ManifestFile {
        var manifest = ManifestFile(path: file.path, format: .tips, headRange: Self.firstLineRange(of: file))
        var previousEnd = 0
        var firstVersionRange: SourceRange?
        var firstFrequencyRange: SourceRange?
        var firstLocaleRange: SourceRange?
        while !isAtEnd {
            let start = index
            let keyword = current
            let comments = takeComments(after: previousEnd, before: keyword.start)
            guard keyword.kind == .identifier, DeclarationKeywords.topLevel.contains(text(of: keyword)) else {
                let help = keyword.kind == .identifier
                    ? Suggestions.didYouMean(text(of: keyword), in: DeclarationKeywords.topLevel) : nil
                reportExpected("a declaration (\(Self.list(DeclarationKeywords.topLevel, or: "or")))",
                               help: help ?? "a .tips file is a list of declarations, one per line")
                skipToNextDeclaration()
                previousEnd = token(max(0, index - 1)).end
                continue
            }
            advance()
            var complete = true
            let declaration = FileAttributes.attribute(tipsWord: text(of: keyword))
            switch declaration?.value {
            case .version?:
                if let version = parseInteger(declaration?.expected ?? "") {
                    reportIfRepeated(text(of: keyword), first: &firstVersionRange, at: range(since: start))
                    manifest.version = version
                } else { complete = false }
            case .displayFrequency?:
                if let frequency = parseDisplayFrequency() {
                    reportIfRepeated(text(of: keyword), first: &firstFrequencyRange, at: range(since: start))
                    manifest.displayFrequency = frequency
                } else { complete = false }
            case .defaultLocale?:
                if let locale = parseLocale(declaration?.expected ?? "") {
                    reportIfRepeated(text(of: keyword), first: &firstLocaleRange, at: range(since: start))
                    manifest.defaultLocale = locale
                } else { complete = false }
            case .parameters?:
                if let parameter = parseParameter(start: start, comments: comments) {
                    manifest.parameters.append(parameter)
                } else { complete = false }
            case .events?:
                if let event = parseEvent(start: start, comments: comments) {
                    manifest.events.append(event)
                } else { complete = false }
            case .tips?:
                if let tip = parseTip(start: start, comments: comments) {
                    manifest.tips.append(tip)
                } else { complete = false }
            case .groups?, nil:
                if let group = parseGroup(start: start, comments: comments) {
                    manifest.groups.append(group)
                } else { complete = false }
            case .experiments?:
                if let experiment = parseExperiment(start: start, comments: comments) {
                    manifest.experiments.append(experiment)
                } else { complete = false }
            }
            if complete {
                expectEndOfLine(allowingBrace: false)
            } else {
                skipToNextDeclaration()
            }
            previousEnd = token(max(0, index - 1)).end
        }
        return manifest
    }

    static func firstLineRange(of file: SourceFile) -> SourceRange {
        let start = file.bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        var end = start
        while end < file.bytes.count, file.bytes[end] != 0x0A, file.bytes[end] != 0x0D { end += 1 }
        return file.range(fromUTF8: start, to: end)
    }

    /// The own-line comments between offsets `after` and `before`.
    private mutating func takeComments(after: Int, before: Int) -> [String] {
        var texts: [String] = []
        let comments = lexer.comments
        while commentCursor < comments.count, comments[commentCursor].start < before {
            let comment = comments[commentCursor]
            if comment.start >= after, comment.isOnOwnLine { texts.append(comment.text) }
            commentCursor += 1
        }
        return texts
    }

    private mutating func reportIfRepeated(_ key: String, first: inout SourceRange?, at range: SourceRange) {
        if let first {
            report(.duplicateKey, "'\(key)' is declared more than once", at: range,
                   notes: [DiagnosticNote("first declared here", at: first)])
        } else {
            first = range
        }
    }

    // MARK: - Recovery

    /// After a declaration: the next token must start a new line (or be the `}` closing a
    /// tip, when `allowingBrace`). Otherwise reports the rest of the line and skips it.
    mutating func expectEndOfLine(allowingBrace: Bool) {
        if isAtEnd || current.isAtLineStart || (allowingBrace && current.kind == .rightBrace) { return }
        reportExpected("end of line")
        skipRestOfLine(stoppingAtBrace: allowingBrace)
    }

    private mutating func skipRestOfLine(stoppingAtBrace: Bool) {
        advance()
        while !isAtEnd, !current.isAtLineStart, !(stoppingAtBrace && current.kind == .rightBrace) { advance() }
    }

    /// Skips to the next line that starts with a top-level keyword, stepping over braces.
    private mutating func skipToNextDeclaration() {
        var braces = 0
        while !isAtEnd {
            if braces <= 0, current.isAtLineStart, current.kind == .identifier, DeclarationKeywords.topLevel.contains(text(of: current)) {
                return
            }
            if current.kind == .leftBrace { braces += 1 }
            if current.kind == .rightBrace { braces -= 1 }
            advance()
        }
    }

    // MARK: - Small pieces

    /// A declared name: an identifier or a backticked name.
    mutating func parseName(_ what: String) -> Identifier? {
        guard current.kind == .identifier || current.kind == .quotedName else {
            reportExpected("\(what) name")
            return nil
        }
        let tokenIndex = index
        return Identifier(text(of: advance()), at: range(ofToken: tokenIndex))
    }

    /// Elements separated by commas, then `closing` (the opening bracket, the token at
    /// `opening`, already consumed). Nil when `element` fails (it reports why) or the list does
    /// not end with `closing` (reported, with a note at the opening).
    mutating func parseCommaSeparated<Element>(until closing: RuleTokenKind, opening: Int,
                                               element: (inout RuleParser) -> Element?) -> [Element]? {
        var elements: [Element] = []
        while current.kind != closing {
            guard let next = element(&self) else { return nil }
            elements.append(next)
            if current.kind == .comma { advance() } else { break }
        }
        guard current.kind == closing else {
            let closingText = closing == .rightBracket ? "']'" : "'}'"
            reportExpected("',' or \(closingText)", notes: [DiagnosticNote("to match this", at: range(ofToken: opening))])
            return nil
        }
        advance()
        return elements
    }

    mutating func expect(_ kind: RuleTokenKind, _ text: String) -> Bool {
        if current.kind == kind {
            advance()
            return true
        }
        reportExpected(text)
        return false
    }

    mutating func parseInteger(_ what: String) -> Located<Int>? {
        guard current.kind == .integer else {
            reportExpected(what)
            return nil
        }
        let tokenIndex = index
        guard case .integer(let value?) = advance().value else { return nil }
        return Located(value, at: range(ofToken: tokenIndex))
    }

    private mutating func parseDuration(_ what: String) -> Located<Int>? {
        guard current.kind == .duration else {
            reportExpected(what, help: "write a duration such as 45s, 30m, 12h, 3d, 2w or 1d12h")
            return nil
        }
        let tokenIndex = index
        guard case .duration(let seconds?) = advance().value else { return nil }
        return Located(seconds, at: range(ofToken: tokenIndex))
    }

    mutating func parseString(_ what: String) -> Located<String>? {
        guard current.kind == .string else {
            reportExpected(what)
            return nil
        }
        let tokenIndex = index
        return Located(text(of: advance()), at: range(ofToken: tokenIndex))
    }

    mutating func parseType() -> Located<ValueType>? {
        guard current.kind == .identifier else {
            reportExpected("a type (Bool, Int, Double, String, Date or Duration)")
            return nil
        }
        let tokenIndex = index
        let text = self.text(of: advance())
        if let type = ValueType.allCases.first(where: { $0.tipsSpelling == text }) {
            return Located(type, at: range(ofToken: tokenIndex))
        }
        if let meant = ValueType(commonName: text) {
            // Reported, then read as the type meant (see the manifest's reading of types).
            report(.invalidValue, "unknown type '\(text)'", at: range(ofToken: tokenIndex), help: "did you mean '\(meant.tipsSpelling)'?")
            return Located(meant, at: range(ofToken: tokenIndex))
        }
        report(.invalidValue, "unknown type '\(text)'", at: range(ofToken: tokenIndex),
               help: Suggestions.didYouMean(text, in: ValueType.allCases.map(\.tipsSpelling))
                   ?? "the types are Bool, Int, Double, String, Date and Duration")
        return nil
    }

    // MARK: - Declarations

    private mutating func parseDisplayFrequency() -> Located<DisplayFrequencySpec>? {
        let tokenIndex = index
        if current.kind == .duration {
            guard let seconds = parseDuration("a display frequency") else { return nil }
            return Located(.custom(seconds: seconds.value), at: seconds.range)
        }
        guard current.kind == .identifier else {
            reportExpected("a display frequency (immediate, hourly, daily, weekly, monthly or a duration)")
            return nil
        }
        let word = text(of: advance())
        guard let frequency = DisplayFrequencySpec.named[word] else {
            let names = DisplayFrequencySpec.names
            report(.invalidValue, "unknown display frequency '\(word)'", at: range(ofToken: tokenIndex),
                   help: Suggestions.didYouMean(word, in: names) ?? "use immediate, hourly, daily, weekly, monthly or a duration (5d)")
            return nil
        }
        return Located(frequency, at: range(ofToken: tokenIndex))
    }

    /// `param NAME: Type = DEFAULT`, then the optional attributes, each introduced by its word,
    /// in the order of `ParameterAttributes`.
    private mutating func parseParameter(start: Int, comments: [String]) -> ParameterDecl? {
        guard let name = parseName("a parameter") else { return nil }
        var parameter = ParameterDecl(name: name, type: nil, defaultValue: nil, comments: comments, range: range(since: start))
        for attribute in ParameterAttributes.all {
            switch attribute.value {
            case .type:
                guard expect(.colon, attribute.expected) else { return nil }
                let typeIndex = index
                parameter.type = parseType()
                parameter.hasUnknownType = parameter.type == nil
                if parameter.type == nil && index == typeIndex { return nil }
            case .defaultValue:
                guard expect(.assign, attribute.expected) else { return nil }
                guard let defaultValue = parseDefaultValue() else { return nil }
                parameter.defaultValue = defaultValue
            case .values:
                guard let word = attribute.tipsWord, isAtAttributeWord(word) else { continue }
                advance()
                let opening = index
                guard expect(.leftBracket, attribute.expected) else { return nil }
                guard let list = parseCommaSeparated(until: .rightBracket, opening: opening, element: { $0.parseString("a string value") })
                else { return nil }
                parameter.values = list
            case .flag(let path):
                guard let word = attribute.tipsWord, isAtAttributeWord(word) else { continue }
                advance()
                parameter[keyPath: path] = true
            }
        }
        parameter.range = range(since: start)
        return parameter
    }

    /// A literal default: `true`, `false`, a number (optionally negative), a string, a
    /// duration, or `date("…")` (kept as the string, like the YAML form).
    private mutating func parseDefaultValue() -> Located<Literal>? {
        let first = index
        let head = current
        switch head.kind {
        case .identifier where head.keyword == .true || head.keyword == .false:
            advance()
            return Located(.bool(head.keyword == .true), at: range(ofToken: first))
        case .identifier where isAtWord("date") && token(after: 1).kind == .leftParen:
            advance()
            advance()
            guard let text = parseString("a date string such as \"2026-01-01T00:00:00Z\"") else { return nil }
            guard expect(.rightParen, "')'") else { return nil }
            return Located(.string(text.value), at: range(since: first))
        case .string:
            advance()
            return Located(.string(text(of: head)), at: range(ofToken: first))
        case .minus, .integer, .double, .duration:
            let negative = head.kind == .minus
            if negative { advance() }
            let numberIndex = index
            let number = advance()
            switch (number.kind, number.value) {
            case (.integer, .integer(let value?)):
                return Located(.int(negative ? -value : value), at: range(since: first))
            case (.double, .double(let value?)):
                return Located(.double(negative ? -value : value), at: range(since: first))
            case (.duration, .duration(let seconds?)) where !negative:
                return Located(.duration(seconds: seconds), at: range(since: first))
            case (.integer, _), (.double, _), (.duration, _):
                if negative, number.kind == .duration, case .duration(_?) = number.value {
                    report(.invalidDuration, "a duration cannot be negative", at: range(since: first))
                }
                return nil  // otherwise an invalid literal, reported by the lexer
            default:
                index = numberIndex
                reportExpected("a number after '-'")
                return nil
            }
        default:
            reportExpected("a default value (a literal such as false, 0, 1.5, \"text\", 5m or date(\"…\"))")
            return nil
        }
    }

    private mutating func parseEvent(start: Int, comments: [String]) -> EventDecl? {
        guard let name = parseName("an event") else { return nil }
        var fields: [FieldDecl] = []
        if current.kind == .leftBrace {
            let opening = index
            advance()
            let parsed = parseCommaSeparated(until: .rightBrace, opening: opening) { parser -> FieldDecl? in
                guard let fieldName = parser.parseName("a field"), parser.expect(.colon, "':' after the field name") else { return nil }
                let typeIndex = parser.index
                let type = parser.parseType()
                if type == nil && parser.index == typeIndex { return nil }
                var field = FieldDecl(name: fieldName, type: type)
                field.hasUnknownType = type == nil
                return field
            }
            guard let parsed else { return nil }
            fields = parsed
        }
        var limit: DonationLimitDecl?
        var seen: [String: SourceRange] = [:]
        while !current.isAtLineStart, current.kind == .identifier, let attribute = DonationLimitAttributes.attribute(tipsWord: text(of: current)) {
            let clauseIndex = index
            let word = text(of: advance())
            var decl = limit ?? DonationLimitDecl()
            switch attribute.value {
            case .count(let path):
                guard let count = parseInteger(attribute.expected) else { return nil }
                decl[keyPath: path] = count
            case .duration(let path):
                guard let age = parseDuration(attribute.expected) else { return nil }
                decl[keyPath: path] = age
            }
            let clauseRange = range(since: clauseIndex)
            if let first = seen[word] {
                report(.duplicateKey, "'\(word)' is given more than once", at: clauseRange,
                       notes: [DiagnosticNote("first given here", at: first)])
            } else {
                seen[word] = clauseRange
            }
            limit = decl
        }
        return EventDecl(name: name, fields: fields, donationLimit: limit, comments: comments, range: range(since: start))
    }

    private mutating func parseGroup(start: Int, comments: [String]) -> GroupDecl? {
        guard let name = parseName("a group") else { return nil }
        var priority: Located<PackGroupPriority>?
        let priorityIndex = index
        if current.kind == .identifier {
            let word = text(of: advance())
            if let value = PackGroupPriority(spelling: word) {
                priority = Located(value, at: range(ofToken: priorityIndex))
            } else {
                report(.invalidValue, "unknown group priority '\(word)'", at: range(ofToken: priorityIndex),
                       help: Suggestions.didYouMean(word, in: PackGroupPriority.allCases.map(\.spelling))
                           ?? "use ordered or firstAvailable")
            }
        } else {
            reportExpected("a group priority (ordered or firstAvailable)")
            if current.kind != .leftBrace { return nil }
        }
        let opening = index
        guard expect(.leftBrace, "'{' and the group's tips"),
              let tips = parseCommaSeparated(until: .rightBrace, opening: opening, element: { $0.parseName("a tip") }) else { return nil }
        return GroupDecl(name: name, priority: priority, tips: tips, comments: comments, range: range(since: start))
    }

    // MARK: - Tips

    private mutating func parseTip(start: Int, comments: [String]) -> TipDecl? {
        guard let name = parseName("a tip") else { return nil }
        // Format 2: `tip newTrail[trailID: Int] { … }`.
        var key: TipKeyDecl?
        if current.kind == .leftBracket {
            let keyStart = index
            advance()
            guard let keyName = parseName("a key") else { return nil }
            guard expect(.colon, "':' after the key's name") else { return nil }
            let typeIndex = index
            let type = parseType()
            if type == nil && index == typeIndex { return nil }
            guard expect(.rightBracket, "']' to close the key") else { return nil }
            key = TipKeyDecl(name: keyName, type: type, range: range(since: keyStart))
        }
        let opening = index
        guard expect(.leftBrace, "'{' to start the tip") else { return nil }
        var tip = TipDecl(name: name, comments: comments, range: range(since: start))
        tip.key = key
        var seen: [String: SourceRange] = [:]
        while current.kind != .rightBrace {
            if isAtEnd || (current.isAtLineStart && current.kind == .identifier && DeclarationKeywords.topLevel.contains(text(of: current))) {
                reportExpected("'}' to close tip '\(name.name)'", notes: [DiagnosticNote("the tip starts here", at: range(ofToken: opening))])
                tip.range = range(since: start)
                return tip
            }
            let itemStart = index
            if parseTipAttribute(into: &tip, seen: &seen) {
                expectEndOfLine(allowingBrace: true)
            } else {
                // Skip the rest of the attribute's line (a rule may span lines in brackets).
                if index == itemStart { advance() }
                while !isAtEnd, !current.isAtLineStart, current.kind != .rightBrace { advance() }
            }
        }
        advance()
        tip.range = range(since: start)
        return tip
    }

    /// Parses one attribute line into `tip`; false when it did not parse (reported).
    private mutating func parseTipAttribute(into tip: inout TipDecl, seen: inout [String: SourceRange]) -> Bool {
        let start = index
        let words = TipAttributes.tipsWords
        guard let (attribute, word) = attributeWord(expected: "a tip attribute (\(Self.list(words, or: "or")))", of: "tip", words: words,
                                                   otherwise: "the attributes are \(Self.list(words, or: "and"))",
                                                   find: TipAttributes.attribute(tipsWord:)) else {
            return false
        }
        switch attribute.value {
        case .text(let path):
            guard let text = parseText(attribute.expected) else { return false }
            tip[keyPath: path] = text
        case .count(let path):
            guard let count = parseInteger(attribute.expected) else { return false }
            tip[keyPath: path] = count
        case .duration(let path):
            guard let seconds = parseDuration(attribute.expected) else { return false }
            tip[keyPath: path] = seconds
        case .flag(let path):
            guard isAtWord("true") || isAtWord("false") else {
                reportExpected(attribute.expected)
                return false
            }
            let valueIndex = index
            tip[keyPath: path] = Located(advance().keyword == .true, at: range(ofToken: valueIndex))
        case .eventWindow(let path):
            guard let window = parseEventWindow(attribute.key) else { return false }
            tip[keyPath: path] = window
        case .placeholders:
            guard let placeholders = parsePlaceholders() else { return false }
            tip.placeholders = placeholders
        case .image:
            guard let image = parseImage(attribute.expected) else { return false }
            tip.image = image
        case .actions:
            guard let action = parseAction(attribute.expected) else { return false }
            tip.actions.append(action)
            return true  // one line per action
        case .rules:
            tip.rules.append(parseRuleExpression())
            return true  // one line per rule
        case .key:
            return false  // written in the `tip NAME[KEY: Type]` line, so it has no word
        }
        noteAttributeLine(word, from: start, seen: &seen)
        return true
    }

    /// The row an attribute line starts with, found by its word (`find`), the word consumed;
    /// nil, reported, when the line does not start with a word (`expected` says what may) or
    /// its word names no row ("unknown `kind` attribute", with a did-you-mean among `words`,
    /// else `otherwise`).
    mutating func attributeWord<Row>(expected: String, of kind: String, words: [String], otherwise help: String,
                                     find: (String) -> Row?) -> (row: Row, word: String)? {
        guard current.kind == .identifier else {
            reportExpected(expected)
            return nil
        }
        let word = text(of: current)
        guard let row = find(word) else {
            report(.unknownKey, "unknown \(kind) attribute '\(word)'", at: range(ofToken: index),
                   help: Suggestions.didYouMean(word, in: words) ?? help)
            return nil
        }
        advance()
        return (row, word)
    }

    /// Remembers that the attribute `word` was given from token `start` to here; an attribute
    /// given before is reported (`duplicate-key`, pointing at the first).
    mutating func noteAttributeLine(_ word: String, from start: Int, seen: inout [String: SourceRange]) {
        let itemRange = range(since: start)
        if let first = seen[word] {
            report(.duplicateKey, "'\(word)' is given more than once", at: itemRange,
                   notes: [DiagnosticNote("first given here", at: first)])
        } else {
            seen[word] = itemRange
        }
    }

    /// `EVENT within DURATION`, after the word `key` (a tip's or an experiment's `goal`).
    mutating func parseEventWindow(_ key: String) -> EventWindowDecl? {
        let valueStart = index
        guard let event = parseName("an event") else { return nil }
        guard isAtWord("within"), !current.isAtLineStart else {
            reportExpected("'within' and a duration", help: "write \(key) EVENT within DURATION, e.g. favorited within 7d")
            return nil
        }
        advance()
        guard let window = parseDuration("the window (a duration)") else { return nil }
        return EventWindowDecl(event: event, windowSeconds: window, range: range(since: valueStart))
    }

    /// `"symbol"` or `asset "name"`, after the word `image`.
    mutating func parseImage(_ expected: String) -> Located<PackImage>? {
        let start = index
        let isAsset = isAtWord("asset") && token(after: 1).kind == .string
        if isAsset { advance() }
        guard let text = parseString(expected) else { return nil }
        return Located(isAsset ? .asset(text.value) : .symbol(text.value), at: range(since: start))
    }

    /// `"id" TEXT`, after the word `action`.
    mutating func parseAction(_ expected: String) -> ActionDecl? {
        let idIndex = index
        guard current.kind == .string || current.kind == .identifier || current.kind == .quotedName else {
            reportExpected(expected)
            return nil
        }
        let id = Identifier(text(of: advance()), at: range(ofToken: idIndex))
        guard let title = parseText("the action's title") else { return nil }
        return ActionDecl(id: id, title: title)
    }

    /// Whether the next token is `word` on the line read (a word that introduces an attribute).
    mutating func isAtAttributeWord(_ word: String) -> Bool {
        !current.isAtLineStart && current.kind == .identifier && text(of: current) == word
    }

    /// `a, b or c`.
    static func list(_ words: [String], or conjunction: String) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " \(conjunction) " + words[words.count - 1]
    }
}
