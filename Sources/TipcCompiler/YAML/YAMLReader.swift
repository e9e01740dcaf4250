import CYAML

/// Reads a YAML file into a `YAMLNode` tree by driving libyaml's event parser.
///
/// Refused, each with a `yaml` diagnostic at its exact position: malformed YAML, invalid
/// UTF-8 and characters YAML forbids, tabs used for indentation, anchors, aliases and tags
/// (aliases are never expanded, so alias bombs cost nothing), and a second document. A
/// repeated mapping key is a `duplicate-key` error (YAML parsers accept it silently); collections
/// nested deeper than `maximumDepth` are a `limit` error, and reading stops there.
public enum YAMLReader {
    /// The deepest nesting of mappings and sequences read.
    public static let maximumDepth = 64

    /// The root node of the file's document, or nil when it has none (an empty file, or
    /// an error before the first node).
    public static func read(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> YAMLNode? {
        if let problem = YAMLInputCheck.firstProblem(in: file) {
            diagnostics.append(problem)
            return nil
        }
        guard !file.bytes.isEmpty else { return nil }
        var builder = YAMLTreeBuilder(file: file)
        file.bytes.withUnsafeBufferPointer { buffer in
            var parser = yaml_parser_t()
            guard yaml_parser_initialize(&parser) == 1 else {
                builder.fail(Diagnostic(.limit, "out of memory while reading YAML", at: builder.range(from: 0, to: 0)))
                return
            }
            defer { yaml_parser_delete(&parser) }
            yaml_parser_set_input_string(&parser, buffer.baseAddress, buffer.count)
            var event = yaml_event_t()
            while !builder.isFinished {
                guard yaml_parser_parse(&parser, &event) == 1 else {
                    builder.failWithParserError(parser)
                    break
                }
                builder.handle(event)
                yaml_event_delete(&event)
            }
        }
        builder.finish()
        diagnostics += builder.diagnostics
        return builder.root
    }
}

/// Builds the tree from events, one open collection per nesting level.
struct YAMLTreeBuilder {
    private struct OpenCollection {
        /// The key of an earlier pair named `name`: searched in the pairs while the mapping is
        /// small (most are), looked up in `keyIndexes` once it is large.
        mutating func firstKey(named name: String) -> YAMLNode? {
            if let keyIndexes { return keyIndexes[name].map { pairs[$0].key } }
            if pairs.count < 16 {
                return pairs.first(where: { $0.key.scalar?.value == name })?.key
            }
            var indexes: [String: Int] = [:]
            for (index, pair) in pairs.enumerated() {
                if let key = pair.key.scalar?.value, indexes[key] == nil { indexes[key] = index }
            }
            keyIndexes = indexes
            return indexes[name].map { pairs[$0].key }
        }

        var isMapping: Bool
        var isFlow: Bool
        var startOffset: Int
        /// The position of `startOffset`.
        var start: SourceLocation
        /// libyaml's indentation of a block collection (the column of its first entry).
        var indent: Int
        var hasProperties: Bool
        var items: [YAMLNode] = []
        var pairs: [YAMLPair] = []
        var pendingKey: YAMLNode?
        /// The index in `pairs` of each scalar key, once the mapping is too large to search.
        var keyIndexes: [String: Int]?
    }

    let file: SourceFile
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var root: YAMLNode?
    private(set) var isFinished = false
    private var offsets: YAMLCharacterOffsets
    /// Positions of node offsets, which arrive nearly in order.
    private var positions: SourceLocationCursor
    private var stack: [OpenCollection] = []
    private var documentCount = 0
    private var failed = false
    /// Byte ranges of scalars that span several lines: tabs at a line start inside them are text.
    private var multilineScalars: [Range<Int>] = []

    init(file: SourceFile) {
        self.file = file
        self.offsets = YAMLCharacterOffsets(file: file)
        self.positions = SourceLocationCursor(file: file)
    }

    /// `range(from:to:)` for the nearly ordered offsets of nodes, found from the previous one.
    private mutating func nodeRange(from start: Int, to end: Int) -> SourceRange {
        let startLocation = positions.location(atUTF8Offset: start)
        return SourceRange(file: file.path, start: startLocation, end: positions.location(atUTF8Offset: end))
    }

    /// Whether the offsets `start` and `end` lie on different lines.
    private mutating func spansLines(from start: Int, to end: Int) -> Bool {
        positions.location(atUTF8Offset: start).line != positions.location(atUTF8Offset: end).line
    }

    func range(from start: Int, to end: Int) -> SourceRange {
        file.range(fromUTF8: start, to: end)
    }

    private mutating func offset(_ mark: yaml_mark_t) -> Int {
        offsets.byteOffset(ofCharacter: Int(mark.index))
    }

    // MARK: - Events

    mutating func handle(_ event: yaml_event_t) {
        let start = offset(event.start_mark)
        let end = offset(event.end_mark)
        switch event.type {
        case YAML_DOCUMENT_START_EVENT:
            documentCount += 1
            if documentCount > 1 {
                diagnostics.append(Diagnostic(.yaml, "a manifest must be a single YAML document", at: range(from: start, to: end),
                                              help: "split the documents into separate files"))
                isFinished = true
            }
        case YAML_STREAM_END_EVENT:
            isFinished = true
        case YAML_ALIAS_EVENT:
            let name = Self.string(event.data.alias.anchor) ?? ""
            diagnostics.append(Diagnostic(.yaml, "YAML aliases are not allowed: '*\(name)'", at: range(from: start, to: end),
                                          help: "write the value out in full; if this is a rule starting with '*', quote it"))
            attach(YAMLNode(content: .alias(name), range: range(from: start, to: end), startOffset: start, endOffset: end))
        case YAML_SCALAR_EVENT:
            let scalarData = event.data.scalar
            let contentStart = reportProperties(from: start, anchor: scalarData.anchor, tag: scalarData.tag)
            let hasProperties = scalarData.anchor != nil || scalarData.tag != nil
            let value = scalarData.value.map { pointer in
                String(decoding: UnsafeBufferPointer(start: pointer, count: scalarData.length), as: UTF8.self)
            } ?? ""
            let style = Self.style(scalarData.style)
            let contentEnd = max(end, contentStart)
            if style == .literal || style == .folded {
                // libyaml ends a block scalar at the next line that is not part of it; the
                // node's range ends with its last character.
                var trimmed = contentEnd
                while trimmed > contentStart, [0x20, 0x09, 0x0A, 0x0D].contains(file.bytes[trimmed - 1]) { trimmed -= 1 }
                if spansLines(from: contentStart, to: contentEnd) {
                    multilineScalars.append(contentStart..<contentEnd)
                }
                let scalar = YAMLScalar(value: value, style: style, contentStart: contentStart, contentEnd: contentEnd,
                                        parentIndent: blockIndent)
                attach(YAMLNode(content: .scalar(scalar), range: nodeRange(from: contentStart, to: trimmed),
                                startOffset: contentStart, endOffset: trimmed, hasProperties: hasProperties))
                return
            }
            if spansLines(from: contentStart, to: contentEnd) {
                multilineScalars.append(contentStart..<contentEnd)
            }
            let scalar = YAMLScalar(value: value, style: style, contentStart: contentStart, contentEnd: contentEnd,
                                    parentIndent: blockIndent)
            attach(YAMLNode(content: .scalar(scalar), range: nodeRange(from: contentStart, to: contentEnd),
                            startOffset: contentStart, endOffset: contentEnd, hasProperties: hasProperties))
        case YAML_SEQUENCE_START_EVENT, YAML_MAPPING_START_EVENT:
            let isMapping = event.type == YAML_MAPPING_START_EVENT
            let anchor = isMapping ? event.data.mapping_start.anchor : event.data.sequence_start.anchor
            let tag = isMapping ? event.data.mapping_start.tag : event.data.sequence_start.tag
            let isFlow = isMapping ? event.data.mapping_start.style == YAML_FLOW_MAPPING_STYLE
                : event.data.sequence_start.style == YAML_FLOW_SEQUENCE_STYLE
            let contentStart = reportProperties(from: start, anchor: anchor, tag: tag)
            if stack.count >= YAMLReader.maximumDepth {
                fail(Diagnostic(.limit, "YAML collections are nested more than \(YAMLReader.maximumDepth) levels deep",
                                at: range(from: contentStart, to: contentStart + 1),
                                help: "a manifest needs only a few levels; flatten the structure"))
                return
            }
            stack.append(OpenCollection(isMapping: isMapping, isFlow: isFlow, startOffset: contentStart,
                                        start: positions.location(atUTF8Offset: contentStart),
                                        indent: isFlow ? -1 : blockIndent(startingAt: event.end_mark, isMapping: isMapping),
                                        hasProperties: anchor != nil || tag != nil))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let collection = stack.popLast() else { return }
            attach(close(collection, endOffset: end, truncated: false))
        default:
            break
        }
    }

    /// libyaml's indentation for a block collection: the column of its first key or `-`.
    /// A block mapping's start event ends at its first key; a block sequence's at its first
    /// `-`, or just after it for a sequence not indented under its key.
    private mutating func blockIndent(startingAt mark: yaml_mark_t, isMapping: Bool) -> Int {
        let column = Int(mark.column)
        let end = offset(mark)
        if !isMapping, column > 0, end > 0, file.bytes[end - 1] == 0x2D { return column - 1 }
        return column
    }

    /// The indentation of the innermost block collection, as libyaml's scanner tracks it.
    private var blockIndent: Int {
        stack.last(where: { !$0.isFlow })?.indent ?? -1
    }

    private mutating func close(_ collection: OpenCollection, endOffset: Int, truncated: Bool) -> YAMLNode {
        var end = endOffset
        if !collection.isFlow || truncated {
            // A block collection ends with its last entry, not at the next token.
            let lastEnd = collection.isMapping ? collection.pairs.last?.value.endOffset : collection.items.last?.endOffset
            end = lastEnd ?? collection.startOffset
            if truncated { end = max(end, endOffset) }
        }
        let content: YAMLNode.Content = collection.isMapping ? .mapping(collection.pairs) : .sequence(collection.items)
        let range = SourceRange(file: file.path, start: collection.start, end: positions.location(atUTF8Offset: end))
        return YAMLNode(content: content, range: range,
                        startOffset: collection.startOffset, endOffset: end, isFlow: collection.isFlow,
                        isTruncated: truncated, hasProperties: collection.hasProperties)
    }

    private mutating func attach(_ node: YAMLNode) {
        guard !stack.isEmpty else {
            if root == nil { root = node }
            return
        }
        if !stack[stack.count - 1].isMapping {
            stack[stack.count - 1].items.append(node)
            return
        }
        guard let key = stack[stack.count - 1].pendingKey else {
            stack[stack.count - 1].pendingKey = node
            return
        }
        stack[stack.count - 1].pendingKey = nil
        if let name = key.scalar?.value {
            if let first = stack[stack.count - 1].firstKey(named: name) {
                diagnostics.append(Diagnostic(.duplicateKey, "duplicate key '\(name)'", at: key.range,
                                              help: "remove one of them; YAML keeps only one value per key",
                                              notes: [DiagnosticNote("'\(name)' is first defined here", at: first.range)]))
                return
            }
            let index = stack[stack.count - 1].pairs.count
            stack[stack.count - 1].keyIndexes?[name] = index
        }
        stack[stack.count - 1].pairs.append(YAMLPair(key: key, value: node))
    }

    /// Reports an anchor and a tag written before a node; returns the offset after them.
    private mutating func reportProperties(from start: Int, anchor: UnsafeMutablePointer<yaml_char_t>?,
                                           tag: UnsafeMutablePointer<yaml_char_t>?) -> Int {
        guard anchor != nil || tag != nil else { return start }
        var index = start
        let bytes = file.bytes
        while index < bytes.count, bytes[index] == 0x21 || bytes[index] == 0x26 {
            let tokenStart = index
            while index < bytes.count, ![0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            let text = String(decoding: bytes[tokenStart..<index], as: UTF8.self)
            let at = range(from: tokenStart, to: index)
            if bytes[tokenStart] == 0x26 {
                diagnostics.append(Diagnostic(.yaml, "YAML anchors are not allowed: '\(text)'", at: at,
                                              help: "anchors and aliases are refused; write each value out in full"))
            } else {
                diagnostics.append(Diagnostic(.yaml, "YAML read '\(text)' as a tag, and tags are not allowed", at: at,
                                              help: "quote the value; in a rule, write `not` instead of `!`"))
            }
            index = skipSpaceAndComments(from: index)
        }
        return index
    }

    /// The first offset from `index` on that is not white space, a line break or a comment.
    private func skipSpaceAndComments(from index: Int) -> Int {
        let bytes = file.bytes
        var index = index
        while index < bytes.count {
            if [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) {
                index += 1
            } else if bytes[index] == 0x23 {
                while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D { index += 1 }
            } else {
                break
            }
        }
        return index
    }

    // MARK: - Errors and the end

    mutating func failWithParserError(_ parser: yaml_parser_t) {
        let problem = parser.problem.map { String(cString: $0) } ?? "malformed YAML"
        let offset: Int
        if parser.error == YAML_READER_ERROR {
            offset = min(parser.problem_offset, file.bytes.count)
        } else {
            offset = self.offset(parser.problem_mark)
        }
        if let tab = tabIndentation(onLineOf: offset) {
            fail(tab)
            return
        }
        var notes: [DiagnosticNote] = []
        if let context = parser.context.map({ String(cString: $0) }) {
            let contextOffset = self.offset(parser.context_mark)
            notes.append(DiagnosticNote(context, at: range(from: contextOffset, to: contextOffset)))
        }
        var help: String?
        if problem.contains("cannot start any token"), offset < file.bytes.count,
           case let character = Unicode.Scalar(file.bytes[offset]), "@`%".unicodeScalars.contains(character) {
            help = "a value cannot start with '\(character)' in YAML; quote it"
        } else if problem.contains("mapping values are not allowed") {
            help = "quote the value if it contains ': '"
        }
        let end = min(offset + YAMLCharacterOffsets.sequenceLength(lead: offset < file.bytes.count ? file.bytes[offset] : 0), file.bytes.count)
        fail(Diagnostic(.yaml, problem, at: range(from: offset, to: max(offset, end)), help: help, notes: notes))
    }

    mutating func fail(_ diagnostic: Diagnostic) {
        diagnostics.append(diagnostic)
        failed = true
        isFinished = true
    }

    /// Closes what is still open (after an error) and checks indentation for tabs.
    mutating func finish() {
        if failed {
            let end = stack.last.map { collection in
                max(collection.startOffset, collection.pairs.last?.value.endOffset ?? collection.items.last?.endOffset ?? 0)
            } ?? 0
            while let collection = stack.popLast() {
                attach(close(collection, endOffset: end, truncated: true))
            }
            return
        }
        reportTabIndentation()
    }

    /// A tab in the leading white space of a line with content, outside multi-line scalars.
    private mutating func reportTabIndentation() {
        var scalarIndex = 0
        for (index, lineStart) in file.lineStarts.enumerated() {
            while scalarIndex < multilineScalars.count, multilineScalars[scalarIndex].upperBound <= lineStart { scalarIndex += 1 }
            if scalarIndex < multilineScalars.count, multilineScalars[scalarIndex].lowerBound < lineStart { continue }
            if let diagnostic = tabIndentation(line: index + 1) { diagnostics.append(diagnostic) }
        }
    }

    /// After a libyaml error: a tab in the leading white space of the error's line explains
    /// it (libyaml refuses even a tab before a comment there).
    private func tabIndentation(onLineOf offset: Int) -> Diagnostic? {
        tabIndentation(line: file.line(containing: offset), evenBeforeComment: true)
    }

    private func tabIndentation(line: Int, evenBeforeComment: Bool = false) -> Diagnostic? {
        let bytes = file.bytes
        var index = file.lineStarts[line - 1]
        var firstTab: Int?
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 {
            if bytes[index] == 0x09, firstTab == nil { firstTab = index }
            index += 1
        }
        guard let tab = firstTab, index < bytes.count, ![0x0A, 0x0D].contains(bytes[index]),
              evenBeforeComment || bytes[index] != 0x23 else { return nil }
        return Diagnostic(.yaml, "tab character used for indentation", at: range(from: tab, to: tab + 1),
                          help: "YAML does not allow tabs for indentation; indent with spaces")
    }

    // MARK: - Conversions

    private static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    private static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}
