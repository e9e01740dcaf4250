import TipRuntime

/// Reads typed values out of YAML nodes, reporting a diagnostic for each value of the wrong
/// kind. Every reader returns nil after reporting (or silently for an alias, which the YAML
/// reader has already refused), so decoding goes on and one run reports every problem.
struct ManifestValueReader {
    let file: SourceFile
    var diagnostics: [Diagnostic] = []
    /// Whether tips' rules are parsed here, or handed on as their texts (`TipDecl.unparsedRules`).
    let parsesRules: Bool
    /// The parser of the rules read so far, reused for the next.
    var ruleParser: RuleParser

    init(file: SourceFile, parsingRules: Bool = true) {
        self.file = file
        parsesRules = parsingRules
        ruleParser = RuleParser(reusableFor: file.pathNumber)
    }

    mutating func report(_ code: DiagnosticCode, _ message: String, at range: SourceRange, help: String? = nil,
                         notes: [DiagnosticNote] = []) {
        diagnostics.append(Diagnostic(code, message, at: range, help: help, notes: notes))
    }

    /// The entries of a mapping; each key not in `allowed` is an `unknown-key` error (with a
    /// did-you-mean) and left out. A null value (`key:` with nothing) reads as no entries.
    mutating func entries(of node: YAMLNode, for what: @autoclosure () -> String, allowed: [String]?) -> [(name: String, pair: YAMLPair)] {
        guard let pairs = mapping(node, for: what()) else { return [] }
        var result: [(name: String, pair: YAMLPair)] = []
        result.reserveCapacity(pairs.count)
        for pair in pairs {
            guard let name = keyName(pair.key) else { continue }
            if let allowed, !allowed.contains(name) {
                reportUnknownKey(name, of: pair, allowed: allowed, in: what())
                continue
            }
            result.append((name, pair))
        }
        return result
    }

    /// `entries(of:for:allowed:)` for a mapping whose keys are `Key`s: each entry comes with
    /// its key, so that callers switch over an enumeration rather than compare strings.
    mutating func entries<Key: ManifestKeySet>(of node: YAMLNode, for what: @autoclosure () -> String,
                                               keys: Key.Type) -> [(key: Key, pair: YAMLPair)] {
        guard let pairs = mapping(node, for: what()) else { return [] }
        var result: [(key: Key, pair: YAMLPair)] = []
        result.reserveCapacity(pairs.count)
        for index in pairs.indices {
            let pair = pairs[index]
            if let key = key(of: pair, for: what(), keys: Key.self) { result.append((key, pair)) }
        }
        return result
    }

    /// `entries(of:for:allowed:)` for a mapping whose keys are the rows of `table`: each entry
    /// comes with its row's key and shape (not the whole row, whose schema and printers the
    /// reader does not need), so that callers switch over the shape.
    mutating func entries<Table: DeclarationTable>(of node: YAMLNode, for what: @autoclosure () -> String,
                                                   table: Table.Type) -> [(attribute: (key: String, value: Table.Shape), pair: YAMLPair)] {
        guard let pairs = mapping(node, for: what()) else { return [] }
        var result: [(attribute: (key: String, value: Table.Shape), pair: YAMLPair)] = []
        result.reserveCapacity(pairs.count)
        let lookup = Table.lookup
        for index in pairs.indices {
            let pair = pairs[index]
            guard let name = keyName(pair.key) else { continue }
            guard let shape = lookup.value(named: name) else {
                reportUnknownKey(name, of: pair, allowed: Table.keys, in: what())
                continue
            }
            result.append(((name, shape), pair))
        }
        return result
    }

    /// The `Key` a pair's key names; nil when it is not a scalar or names no `Key` (reported,
    /// in the words of `entries(of:for:allowed:)`). The mappings read most often (a tip's) are
    /// walked pair by pair with it, without building the list of entries.
    mutating func key<Key: ManifestKeySet>(of pair: YAMLPair, for what: @autoclosure () -> String, keys: Key.Type) -> Key? {
        guard let name = keyName(pair.key) else { return nil }
        guard let key = Key(named: name) else {
            reportUnknownKey(name, of: pair, allowed: Key.names, in: what())
            return nil
        }
        return key
    }

    /// Reports a key not in `allowed`, except a merge key (`<<`) whose alias is reported.
    mutating func reportUnknownKey(_ name: String, of pair: YAMLPair, allowed: [String], in what: String) {
        if name == "<<", pair.value.isAlias { return }
        report(.unknownKey, "unknown key '\(name)' in \(what)", at: pair.key.range,
               help: Suggestions.didYouMean(name, in: allowed) ?? "allowed keys: \(allowed.joined(separator: ", "))")
    }

    /// The text of a key, which must be a scalar.
    mutating func keyName(_ key: YAMLNode) -> String? {
        // Nearly every key is a scalar: its value is read without building the whole scalar.
        if let value = key.scalarValue { return value }
        if !key.isAlias {
            report(.invalidValue, "a key must be a name, found \(key.kindDescription)", at: key.range)
        }
        return nil
    }

    /// The pairs of a mapping; nil (reported) for anything else but null, which is empty.
    mutating func mapping(_ node: YAMLNode, for what: @autoclosure () -> String) -> YAMLPairs? {
        // The node's kind is looked at first, without building its content: nearly every
        // value read is of the kind expected.
        if let pairs = node.pairs { return pairs }
        if node.isAlias { return nil }
        if let scalar = node.scalar, scalar.isNull, !node.hasProperties { return YAMLPairs.empty }
        report(.invalidValue, "expected a mapping for \(what()), found \(node.kindDescription)", at: node.range)
        return nil
    }

    /// The items of a sequence; nil (reported) for anything else but null, which is empty.
    mutating func sequence(_ node: YAMLNode, for what: @autoclosure () -> String, help: String? = nil) -> YAMLItems? {
        if let items = node.items { return items }
        if node.isAlias { return nil }
        if let scalar = node.scalar, scalar.isNull, !node.hasProperties { return YAMLItems.empty }
        report(.invalidValue, "expected a list for \(what()), found \(node.kindDescription)", at: node.range, help: help)
        return nil
    }

    /// A scalar's node and value; nil (reported) for a collection or null. Declarations keep
    /// values and outlive the YAML document: a value is its own string, which keeps nothing
    /// else of the document alive (and was allocated by the thread decoding it, which read it).
    mutating func scalar(_ node: YAMLNode, expected: String, for what: @autoclosure () -> String) -> YAMLScalar? {
        if let scalar = node.scalar {
            if !Self.isNull(scalar) { return scalar }
            if node.hasProperties { return nil }  // `!tag` with no value: the tag is reported
        } else if node.isAlias {
            return nil
        }
        report(.invalidValue, "expected \(expected) for \(what()), found \(node.kindDescription)", at: node.range)
        return nil
    }

    /// `scalar.isNull`, answered without comparing the value with each null spelling when it
    /// cannot be one: every null spelling is empty or starts with `~`, `n` or `N`, and has at
    /// most four bytes.
    private static func isNull(_ scalar: YAMLScalar) -> Bool {
        let utf8 = scalar.value.utf8
        guard let first = utf8.first else { return scalar.isNull }
        return utf8.count <= 4 && (first == 0x7E || first == 0x6E || first == 0x4E) && scalar.isNull
    }

    /// Any non-null scalar, as text (titles, messages, symbol names).
    mutating func text(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<String>? {
        guard let scalar = scalar(node, expected: "a text", for: what()) else { return nil }
        return Located(scalar.value, at: node.range)
    }

    mutating func integer(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<Int>? {
        guard let scalar = scalar(node, expected: "an integer", for: what()) else { return nil }
        guard scalar.style == .plain, let resolved = ManifestScalars.integer(scalar.value) else {
            report(.invalidValue, "expected an integer for \(what()), found '\(scalar.value)'", at: node.range,
                   help: ManifestScalars.integer(scalar.value) != nil ? Self.unquoteHelp(scalar.value) : nil)
            return nil
        }
        guard let value = resolved else {
            report(.invalidValue, "the integer '\(scalar.value)' for \(what()) is too large", at: node.range)
            return nil
        }
        return Located(value, at: node.range)
    }

    /// The help for a number or Bool written in quotes, which YAML reads as a string.
    static func unquoteHelp(_ text: String) -> String {
        "write \(text) without quotes: in quotes it is a string"
    }

    /// A non-negative integer.
    mutating func count(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<Int>? {
        guard let value = integer(node, for: what()) else { return nil }
        guard value.value >= 0 else {
            report(.invalidValue, "\(what()) must not be negative, found \(value.value)", at: node.range)
            return nil
        }
        return value
    }

    mutating func bool(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<Bool>? {
        guard let scalar = scalar(node, expected: "true or false", for: what()) else { return nil }
        guard scalar.style == .plain, let value = ManifestScalars.bool(scalar.value) else {
            report(.invalidValue, "expected true or false for \(what()), found '\(scalar.value)'", at: node.range,
                   help: ManifestScalars.bool(scalar.value) != nil ? Self.unquoteHelp(scalar.value) : nil)
            return nil
        }
        return Located(value, at: node.range)
    }

    /// A duration literal (`90d`, `1d12h`) in whole seconds; it must be positive.
    mutating func duration(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<Int>? {
        guard let scalar = scalar(node, expected: "a duration", for: what()) else { return nil }
        switch DurationText.seconds(of: scalar.value) {
        case .success(let seconds):
            guard seconds > 0 else {
                report(.invalidDuration, "\(what()) must be a positive duration, found '\(scalar.value)'", at: node.range)
                return nil
            }
            return Located(seconds, at: node.range)
        case .failure(let failure):
            reportDurationFailure(failure, text: scalar.value, for: what(), at: node.range)
            return nil
        }
    }

    mutating func reportDurationFailure(_ failure: DurationText.Failure, text: String, for what: String, at range: SourceRange) {
        switch failure {
        case .malformed:
            report(.invalidValue, "expected a duration for \(what), found '\(text)'", at: range, help: failure.help)
        case .unknownUnit, .negative, .fractionalSeconds, .overflow:
            report(.invalidDuration, "\(failure.message) in '\(text)'", at: range, help: failure.help)
        }
    }

    /// A declared value type (`bool`, `int`, …), with a did-you-mean for a misspelling.
    mutating func typeName(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<ValueType>? {
        guard let scalar = scalar(node, expected: "a type", for: what()) else { return nil }
        guard let type = ValueType(manifestSpelling: scalar.value) else {
            let names = ValueType.allCases.map(\.manifestSpelling)
            if let meant = ValueType(commonName: scalar.value) {
                // Reported, then read as the type meant, so that rules reading the declaration
                // are checked against it instead of failing on a stand-in type.
                report(.invalidValue, "unknown type '\(scalar.value)'", at: node.range, help: "did you mean '\(meant.manifestSpelling)'?")
                return Located(meant, at: node.range)
            }
            report(.invalidValue, "unknown type '\(scalar.value)'", at: node.range,
                   help: Suggestions.didYouMean(scalar.value, in: names) ?? "types are \(names.joined(separator: ", "))")
            return nil
        }
        return Located(type, at: node.range)
    }

    /// A name written as a key or a list item; an ill-formed name is reported but kept, so that
    /// references to it do not cascade.
    mutating func identifier(_ node: YAMLNode, for what: @autoclosure () -> String) -> Identifier? {
        guard let scalar = scalar(node, expected: "a name", for: what()) else { return nil }
        if !ManifestScalars.isValidName(scalar.value) {
            report(.invalidValue, "'\(scalar.value)' is not a valid name for \(what())", at: node.range,
                   help: "a name starts with a letter or '_' and has only letters, digits, '_', '.' and '-'")
        }
        return Identifier(scalar.value, at: node.range)
    }

    /// The comment lines written directly above `line` (without `#` and one space).
    func comments(above line: Int) -> [String] {
        var result: [String] = []
        var number = line - 1
        while number >= 1, startsWithComment(line: number) {
            let text = file.lineText(number).drop(while: { $0 == " " || $0 == "\t" })
            guard text.hasPrefix("#") else { break }
            var comment = text.dropFirst()
            if comment.hasPrefix(" ") { comment = comment.dropFirst() }
            result.append(String(comment))
            number -= 1
        }
        return result.reversed()
    }

    /// Whether line `number` is a comment line (`#` after blanks), checked on the bytes: most
    /// declarations have no comment above them, and this spares building the line's text.
    private func startsWithComment(line number: Int) -> Bool {
        let bytes = file.bytes
        var index = file.lineStarts[number - 1]
        if number == 1, bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
        return index < bytes.count && bytes[index] == 0x23
    }
}
