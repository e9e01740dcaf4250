import TipcCompiler

/// What may stand at a cursor, read from the text before it (so that a file that does not
/// parse still gets completion): a manifest key, a value of a known kind, or a part of a rule.
struct CompletionContext: Equatable {
    enum Kind: Equatable {
        /// A key of a manifest mapping.
        case key(EditorVocabulary.MappingKind)
        /// A locale key of a localized text.
        case locale
        /// A value type (`int`, `string`, …) in a manifest, or after `:` in a `.tips` file.
        case type
        case priority
        case displayFrequency
        /// A tip's name (a group's list, `tip(…)`).
        case tip
        /// After `$`: a parameter.
        case parameter
        /// After `{` in a text: a placeholder or `$parameter`.
        case placeholder(tip: String?)
        /// After `.`: an event collection's members, or another tip's (`tip(X).`).
        case member(ofTip: Bool)
        /// Inside `e.where(…)`, `e.distinct(…)`, …: `e`'s payload fields.
        case field(event: String, tip: String?)
        /// Anywhere else in a rule: events, functions, keywords, `$parameters`.
        case expression
    }

    var kind: Kind
    /// Where the word being typed starts (a UTF-8 offset): completions replace it.
    var wordStart: Int

    static func isNameByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39) || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A)
    }

    /// The context at UTF-8 offset `offset` of `source`.
    static func at(_ offset: Int, in source: SourceFile) -> CompletionContext? {
        let line = source.line(containing: offset) - 1
        let lineStart = source.lineStarts[line]
        let before = Array(source.bytes[lineStart..<offset])
        var wordStart = before.count
        while wordStart > 0, isNameByte(before[wordStart - 1]), before[wordStart - 1] != UInt8(ascii: "-") || wordStart > 1 && isNameByte(before[wordStart - 2]) {
            wordStart -= 1
        }
        let word = lineStart + wordStart
        if SourceDiscovery.isSwift(source.path) {
            // Swift is not the rule language: only a TipKit parameter's projection (`$name`,
            // `Self.$name` in a `#Rule`) is the server's to complete; the rest is Swift's.
            guard wordStart > 0, before[wordStart - 1] == UInt8(ascii: "$"),
                  wordStart == before.count || !(before[wordStart] >= 0x30 && before[wordStart] <= 0x39) else { return nil }
            return CompletionContext(kind: .parameter, wordStart: word - 1)
        }
        if SourceDiscovery.isYAML(source.path) {
            return yaml(before: before, wordStart: wordStart, lineStart: lineStart, line: line, source: source).map { CompletionContext(kind: $0.kind, wordStart: $0.start ?? word) }
        }
        return rule(before[..<wordStart], wordStart: word, tip: nil)
    }

    // MARK: - Rules

    /// The context in a rule whose text before the word is `text`.
    static func rule(_ text: ArraySlice<UInt8>, wordStart: Int, tip: String?) -> CompletionContext {
        guard let last = text.last else { return CompletionContext(kind: .expression, wordStart: wordStart) }
        if last == UInt8(ascii: "$") {
            return CompletionContext(kind: .parameter, wordStart: wordStart - 1)
        }
        if last == UInt8(ascii: ".") {
            let base = text.dropLast()
            if base.last == UInt8(ascii: ")"), let open = matchingOpen(base, close: base.endIndex - 1),
               identifier(before: open, in: base) == "tip" {
                return CompletionContext(kind: .member(ofTip: true), wordStart: wordStart)
            }
            return CompletionContext(kind: .member(ofTip: false), wordStart: wordStart)
        }
        // The innermost parenthesis still open.
        var depth = 0
        var index = text.endIndex - 1
        while index >= text.startIndex {
            let byte = text[index]
            if byte == UInt8(ascii: ")") { depth += 1 }
            if byte == UInt8(ascii: "(") {
                if depth == 0 {
                    let function = identifier(before: index, in: text)
                    if function == "tip", index - 3 - 1 < text.startIndex || text[index - 4] != UInt8(ascii: ".") {
                        return CompletionContext(kind: .tip, wordStart: wordStart)
                    }
                    if ["where", "distinct", "largestSubset", "smallestSubset"].contains(function),
                       let dot = Optional(index - function.utf8.count - 1), dot >= text.startIndex, text[dot] == UInt8(ascii: "."),
                       let event = chainHead(endingAt: dot, in: text) {
                        return CompletionContext(kind: .field(event: event, tip: tip), wordStart: wordStart)
                    }
                    break
                }
                depth -= 1
            }
            index -= 1
        }
        return CompletionContext(kind: .expression, wordStart: wordStart)
    }

    private static func matchingOpen(_ text: ArraySlice<UInt8>, close: Int) -> Int? {
        var depth = 0
        var index = close
        while index >= text.startIndex {
            if text[index] == UInt8(ascii: ")") { depth += 1 }
            if text[index] == UInt8(ascii: "(") {
                depth -= 1
                if depth == 0 { return index }
            }
            index -= 1
        }
        return nil
    }

    /// The name that ends just before `index`.
    private static func identifier(before index: Int, in text: ArraySlice<UInt8>) -> String {
        var start = index
        while start > text.startIndex, isNameByte(text[start - 1]) { start -= 1 }
        return String(decoding: text[start..<index], as: UTF8.self)
    }

    /// The event a chain ending at `dot` starts with (`e.within(3d)` before `.where(`).
    private static func chainHead(endingAt dot: Int, in text: ArraySlice<UInt8>) -> String? {
        var end = dot
        while true {
            if end > text.startIndex, text[end - 1] == UInt8(ascii: ")") {
                guard let open = matchingOpen(text, close: end - 1) else { return nil }
                end = open
            }
            var start = end
            while start > text.startIndex, isNameByte(text[start - 1]) { start -= 1 }
            guard start < end else { return nil }
            if start > text.startIndex, text[start - 1] == UInt8(ascii: ".") {
                end = start - 1
                continue
            }
            return String(decoding: text[start..<end], as: UTF8.self)
        }
    }

    // MARK: - YAML

    private static func indentation(_ line: [UInt8]) -> Int {
        line.prefix { $0 == UInt8(ascii: " ") }.count
    }

    /// The key a line holds (`  key:`, `  - key:`, `"key":`), if any.
    private static func key(of line: [UInt8]) -> String? {
        var rest = line.drop { $0 == UInt8(ascii: " ") }
        if rest.first == UInt8(ascii: "-") { rest = rest.dropFirst().drop { $0 == UInt8(ascii: " ") } }
        if rest.first == UInt8(ascii: "\"") || rest.first == UInt8(ascii: "'") { rest = rest.dropFirst() }
        let name = rest.prefix { isNameByte($0) || $0 == UInt8(ascii: ".") }
        var after = rest.dropFirst(name.count)
        if after.first == UInt8(ascii: "\"") || after.first == UInt8(ascii: "'") { after = after.dropFirst() }
        guard !name.isEmpty, after.first == UInt8(ascii: ":"), after.count == 1 || after.dropFirst().first == UInt8(ascii: " ") else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// The keys of the mappings enclosing a line of `indent` columns, outermost first.
    private static func enclosingKeys(above line: Int, indent: Int, in source: SourceFile) -> [String] {
        var keys: [String] = []
        var limit = indent
        var index = line - 1
        while index >= 0, limit > 0 {
            let text = Array(source.lineText(index + 1).utf8)
            index -= 1
            let content = text.drop { $0 == UInt8(ascii: " ") }
            if content.isEmpty || content.first == UInt8(ascii: "#") { continue }
            let lineIndent = indentation(text)
            if content.first == UInt8(ascii: "-"), content.dropFirst().first == UInt8(ascii: " ") {
                // A list item: the cursor is inside its mapping when deeper than its content.
                let contentIndent = lineIndent + 1 + content.dropFirst().prefix { $0 == UInt8(ascii: " ") }.count
                if limit >= contentIndent || lineIndent < limit {
                    keys.append("-")
                    limit = lineIndent
                }
            } else if lineIndent < limit {
                if let key = key(of: text) { keys.append(key) }
                limit = lineIndent
            }
        }
        return keys.reversed()
    }

    private static func mappingKind(_ path: [String]) -> EditorVocabulary.MappingKind? {
        let path = path.filter { $0 != "-" }
        switch (path.count, path.first) {
        case (0, _): return .file
        case (2, "parameters"?): return .parameter
        case (2, "events"?): return .event
        case (3, "events"?) where path[2] == "donationLimit": return .donationLimit
        case (2, "tips"?): return .tip
        case (3, "tips"?) where path[2] == "key": return .tipKey
        case (3, "tips"?) where path[2] == "image": return .image
        case (3, "tips"?) where path[2] == "actions": return .action
        case (2, "groups"?): return .group
        case (2, "experiments"?): return .experiment
        case (4, "experiments"?) where path[2] == "arms": return .arm
        default: return nil
        }
    }

    private static func yaml(before: [UInt8], wordStart: Int, lineStart: Int, line: Int, source: SourceFile) -> (kind: Kind, start: Int?)? {
        let indent = indentation(before)
        var path = enclosingKeys(above: line, indent: indent, in: source)
        var content = before[indent...]
        var isItem = false
        if content.first == UInt8(ascii: "-"), content.dropFirst().first == UInt8(ascii: " ") {
            isItem = true
            content = content.dropFirst().drop { $0 == UInt8(ascii: " ") }
        }
        let contentStart = content.startIndex
        // `key: value` on this line: the value's context (a flow mapping after it is entered).
        var valueStart: Int?
        if let key = key(of: Array(before)), let colon = before[contentStart...].firstIndex(of: UInt8(ascii: ":")) {
            path.append(key)
            valueStart = colon + 1
        }
        let tipName = path.count >= 2 && path[0] == "tips" ? path[1] : nil
        if let valueStart {
            var value = before[valueStart...].drop { $0 == UInt8(ascii: " ") }
            // Inside a flow mapping (`{ type: int, default: 0 }`, `{ en: "…", de: "…" }`).
            if value.first == UInt8(ascii: "{"), !value.contains(UInt8(ascii: "}")) || isText(path) {
                if isText(path) {
                    // In a localized text: a `{` inside the text, or a locale key.
                    if let context = textContext(value.dropFirst(), wordStart: wordStart, lineStart: lineStart, tip: tipName) { return context }
                    let last = value.lastIndex { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ":") || $0 == UInt8(ascii: "{") }
                    return last.map { value[$0] } == UInt8(ascii: ":") ? nil : (.locale, nil)
                }
                let inner = value.dropFirst()
                if let separator = inner.lastIndex(where: { $0 == UInt8(ascii: ",") || $0 == UInt8(ascii: ":") }), inner[separator] == UInt8(ascii: ":") {
                    // A value inside the flow mapping.
                    let innerKey = String(decoding: inner[..<separator].reversed().drop { $0 == UInt8(ascii: " ") }
                        .prefix { isNameByte($0) }.reversed(), as: UTF8.self)
                    return valueContext(key: innerKey, path: path + [innerKey], value: inner[(separator + 1)...], wordStart: wordStart, lineStart: lineStart, tip: tipName)
                }
                if path.last == "value", path.first == "events" { return nil }
                return mappingKind(path).map { (.key($0), nil) }
            }
            value = value.drop { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
            return valueContext(key: path.last ?? "", path: path, value: value, wordStart: wordStart, lineStart: lineStart, tip: tipName)
        }
        if isItem {
            let value = content.drop { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "'") }
            switch (path.first, path.last) {
            case ("tips"?, "rules"?): return ruleContext(value, wordStart: wordStart, lineStart: lineStart, tip: tipName)
            case ("groups"?, "tips"?): return (.tip, nil)
            default: return nil
            }
        }
        // A key being typed.
        guard content.startIndex == wordStart else { return nil }
        if path.count == 3, path[0] == "tips", ["title", "message"].contains(path[2]) { return (.locale, nil) }
        if path.count == 3, path[0] == "events", path[2] == "value" { return nil }
        return mappingKind(path).map { (.key($0), nil) }
    }

    /// Whether the value at `path` is a tip's or an action's text.
    private static func isText(_ path: [String]) -> Bool {
        let path = path.filter { $0 != "-" }
        return path.count >= 3 && path[0] == "tips" && (["title", "message"].contains(path[2]) || path.last == "title")
    }

    private static func valueContext(key: String, path: [String], value: ArraySlice<UInt8>, wordStart: Int, lineStart: Int,
                                     tip: String?) -> (kind: Kind, start: Int?)? {
        let path = path.filter { $0 != "-" }
        switch key {
        case "type": return (.type, nil)
        case "priority": return (.priority, nil)
        case "displayFrequency" where path.count == 1: return (.displayFrequency, nil)
        case "defaultLocale" where path.count == 1: return (.locale, nil)
        default: break
        }
        if path.count == 3, path[0] == "events", path[2] == "value" { return (.type, nil) }
        if path.count == 4, path[0] == "events", path[2] == "value" { return (.type, nil) }
        if path.count >= 3, path[0] == "tips", path[2] == "placeholders" { return (.type, nil) }
        if path.count >= 3, path[0] == "tips", path[2] == "rules" { return ruleContext(value, wordStart: wordStart, lineStart: lineStart, tip: tip) }
        if path.count >= 3, path[0] == "tips", ["title", "message"].contains(path[2]) || path.last == "title" {
            return textContext(value, wordStart: wordStart, lineStart: lineStart, tip: tip)
        }
        if path.count >= 3, path[0] == "groups", path[2] == "tips" { return (.tip, nil) }
        return nil
    }

    private static func ruleContext(_ value: ArraySlice<UInt8>, wordStart: Int, lineStart: Int, tip: String?) -> (kind: Kind, start: Int?) {
        let context = rule(value[..<min(wordStart, value.endIndex)], wordStart: lineStart + wordStart, tip: tip)
        return (context.kind, context.wordStart)
    }

    /// In a text: after an unclosed `{`, a placeholder or `$parameter`.
    private static func textContext(_ value: ArraySlice<UInt8>, wordStart: Int, lineStart: Int, tip: String?) -> (kind: Kind, start: Int?)? {
        let typed = value[..<min(wordStart, value.endIndex)]
        guard let open = typed.lastIndex(of: UInt8(ascii: "{")), !typed[open...].contains(UInt8(ascii: "}")),
              open + 1 == wordStart || (open + 2 == wordStart && typed.last == UInt8(ascii: "$")) else { return nil }
        return (.placeholder(tip: tip), lineStart + open + 1)
    }
}
