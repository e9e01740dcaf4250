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
        read(file, diagnostics: &diagnostics, streaming: [], entry: { _, _, _ in })
    }

    /// Reads like `read(_:diagnostics:)`, but hands each entry of the top-level sections named
    /// in `streamedSections` to `entry` (section name, key, value) as soon as it is complete,
    /// each in a document of its own, instead of keeping it: only one entry's nodes are alive
    /// at a time.
    ///
    /// A section streams when the root is a mapping, its key is a name in `streamedSections`
    /// written for the first time, and its value is a mapping. The section stays in the tree
    /// as a mapping without pairs (its range unchanged); a repeated key inside it is still
    /// reported and left out. After a YAML error, the entry cut short arrives truncated.
    public static func read(_ file: SourceFile, diagnostics: inout [Diagnostic], streaming streamedSections: Set<String>,
                            entry: (_ section: String, _ key: YAMLNode, _ value: YAMLNode) -> Void) -> YAMLNode? {
        if let problem = YAMLInputCheck.firstProblem(in: file) {
            diagnostics.append(problem)
            return nil
        }
        guard !file.bytes.isEmpty else { return nil }
        var builder = YAMLTreeBuilder(file: file, streamedSections: streamedSections)
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
                builder.handOnCompletedEntries(to: entry)
            }
        }
        builder.finish()
        builder.handOnCompletedEntries(to: entry)
        diagnostics += builder.diagnostics
        return builder.root
    }
}

/// Builds a `YAMLDocument` from events: nodes are appended in document order (a collection's
/// record when it opens, filled in when it closes), and each collection's children move from
/// a stack of pending indexes to the document's child list when it closes.
struct YAMLTreeBuilder {
    private struct OpenCollection {
        /// The collection's own record.
        var record: Int
        var isMapping: Bool
        var isFlow: Bool
        /// libyaml's indentation of a block collection (the column of its first entry).
        var indent: Int
        /// Where the collection's children begin in `pending`.
        var pendingStart: Int
        /// The key read and waiting for its value.
        var pendingKey: Int?
        /// The index (in pairs) of each scalar key, once the mapping is too large to search.
        var keyIndexes: [String: Int]?
        /// The end offset of the last entry kept (a block collection ends there).
        var lastEntryEnd: Int?
        /// Whether this mapping is the streamed top-level section (`streamed`): its entries
        /// are handed on.
        var isStreamed = false
    }

    /// A top-level section whose entries are handed on instead of kept.
    private struct StreamedSection {
        var name: String
        /// The range of each scalar key handed on, to report a repeat.
        var keyRanges: [String: SourceRange] = [:]
        /// The builder's own arrays, set aside while an entry is built in arrays of its own
        /// (nil between entries).
        var setAside: (records: [YAMLDocument.Record], children: [Int32], values: [String])?
    }

    let file: SourceFile
    private(set) var diagnostics: [Diagnostic] = []
    private(set) var isFinished = false
    private var offsets: YAMLCharacterOffsets
    /// Positions of node offsets, which arrive nearly in order.
    private var positions: SourceLocationCursor
    private var records: [YAMLDocument.Record] = []
    private var children: [Int32] = []
    private var values: [String] = []
    /// The children of the open collections, innermost last.
    private var pending: [Int32] = []
    private var stack: [OpenCollection] = []
    private var rootRecord: Int?
    private var documentCount = 0
    private var failed = false
    /// Byte ranges of scalars that span several lines: tabs at a line start inside them are text.
    private var multilineScalars: [Range<Int>] = []
    /// The top-level sections whose entries are handed on as they complete.
    private let streamedSections: Set<String>
    /// The open streamed section (kept apart from the stack, so that updating its key index
    /// never copies it).
    private var streamed: StreamedSection?
    /// Entries of streamed sections completed and not yet handed on.
    private var completedEntries: [(section: String, key: YAMLNode, value: YAMLNode)] = []

    init(file: SourceFile, streamedSections: Set<String> = []) {
        self.file = file
        self.streamedSections = streamedSections
        self.offsets = YAMLCharacterOffsets(file: file)
        self.positions = SourceLocationCursor(file: file)
    }

    /// The document's root, once reading is finished.
    var root: YAMLNode? {
        rootRecord.map { YAMLNode(YAMLDocument(pathNumber: file.pathNumber, records: records, children: children, values: values), $0) }
    }

    /// Hands the completed entries of streamed sections to `entry`, oldest first, and forgets them.
    mutating func handOnCompletedEntries(to entry: (String, YAMLNode, YAMLNode) -> Void) {
        guard !completedEntries.isEmpty else { return }
        for completed in completedEntries { entry(completed.section, completed.key, completed.value) }
        completedEntries.removeAll(keepingCapacity: true)
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
            values.append(name)
            appendLeaf(YAMLDocument.Record(kind: .alias, startOffset: Int32(start), endOffset: Int32(end), contentEnd: Int32(end),
                                           start: positions.location(atUTF8Offset: start),
                                           end: positions.location(atUTF8Offset: end), first: Int32(values.count - 1)))
        case YAML_SCALAR_EVENT:
            let scalarData = event.data.scalar
            let contentStart = reportProperties(from: start, anchor: scalarData.anchor, tag: scalarData.tag)
            let value = scalarData.value.map { pointer in
                String(decoding: UnsafeBufferPointer(start: pointer, count: scalarData.length), as: UTF8.self)
            } ?? ""
            let style = Self.style(scalarData.style)
            let contentEnd = max(end, contentStart)
            var nodeEnd = contentEnd
            if style == .literal || style == .folded {
                // libyaml ends a block scalar at the next line that is not part of it; the
                // node's range ends with its last character.
                while nodeEnd > contentStart, [0x20, 0x09, 0x0A, 0x0D].contains(file.bytes[nodeEnd - 1]) { nodeEnd -= 1 }
            }
            let startLocation = positions.location(atUTF8Offset: contentStart)
            let endLocation = positions.location(atUTF8Offset: nodeEnd)
            let spansLines = startLocation.line != endLocation.line
                || (nodeEnd != contentEnd && positions.location(atUTF8Offset: contentEnd).line != startLocation.line)
            if spansLines { multilineScalars.append(contentStart..<contentEnd) }
            values.append(value)
            appendLeaf(YAMLDocument.Record(kind: .scalar, style: style, hasProperties: scalarData.anchor != nil || scalarData.tag != nil,
                                           parentIndent: Int32(clamping: blockIndent), startOffset: Int32(contentStart),
                                           endOffset: Int32(nodeEnd), contentEnd: Int32(contentEnd),
                                           start: startLocation, end: endLocation, first: Int32(values.count - 1)))
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
            let section = sectionToStream(isMapping: isMapping)
            if let section { streamed = section }
            let location = positions.location(atUTF8Offset: contentStart)
            records.append(YAMLDocument.Record(kind: isMapping ? .mapping : .sequence, isFlow: isFlow,
                                               hasProperties: anchor != nil || tag != nil,
                                               startOffset: Int32(contentStart), endOffset: Int32(contentStart),
                                               contentEnd: Int32(contentStart), start: location, end: location))
            stack.append(OpenCollection(record: records.count - 1, isMapping: isMapping, isFlow: isFlow,
                                        indent: isFlow ? -1 : blockIndent(startingAt: event.end_mark, isMapping: isMapping),
                                        pendingStart: pending.count, isStreamed: section != nil))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let collection = stack.popLast() else { return }
            close(collection, endOffset: end, truncated: false)
        default:
            break
        }
    }

    /// The section a mapping opening now streams: the root is a mapping whose pending key is
    /// a streamed section's name, written for the first time.
    private mutating func sectionToStream(isMapping: Bool) -> StreamedSection? {
        guard isMapping, !streamedSections.isEmpty, stack.count == 1, stack[0].isMapping,
              let key = stack[0].pendingKey, let name = scalarValue(key), streamedSections.contains(name),
              firstKey(named: name, in: 0) == nil else { return nil }
        return StreamedSection(name: name)
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

    private func scalarValue(_ record: Int) -> String? {
        records[record].kind == .scalar ? values[Int(records[record].first)] : nil
    }

    private func nodeRange(_ record: Int) -> SourceRange {
        SourceRange(fileNumber: file.pathNumber, start: records[record].start, end: records[record].end)
    }

    // MARK: - Building

    private mutating func appendLeaf(_ record: YAMLDocument.Record) {
        records.append(record)
        attach(records.count - 1)
    }

    /// Fills in a collection's record as it closes and moves its children to the child list.
    private mutating func close(_ collection: OpenCollection, endOffset: Int, truncated: Bool) {
        // The streamed section closing with a key but no value (after an error): that entry's
        // arrays are dropped, and the section's record is in the builder's own arrays.
        if collection.isStreamed { restoreSetAsideArrays() }
        var end = endOffset
        if !collection.isFlow || truncated {
            // A block collection ends with its last entry, not at the next token.
            let startOffset = Int(records[collection.record].startOffset)
            end = collection.lastEntryEnd ?? startOffset
            if truncated { end = max(end, endOffset) }
        }
        let first = children.count
        children.append(contentsOf: pending[collection.pendingStart...])
        pending.removeSubrange(collection.pendingStart...)
        records[collection.record].first = Int32(first)
        records[collection.record].count = Int32(children.count - first)
        records[collection.record].endOffset = Int32(end)
        records[collection.record].contentEnd = Int32(end)
        records[collection.record].end = positions.location(atUTF8Offset: end)
        records[collection.record].isTruncated = truncated
        attach(collection.record)
    }

    private mutating func attach(_ node: Int) {
        guard !stack.isEmpty else {
            if rootRecord == nil { rootRecord = node }
            return
        }
        let top = stack.count - 1
        if !stack[top].isMapping {
            pending.append(Int32(node))
            stack[top].lastEntryEnd = Int(records[node].endOffset)
            return
        }
        guard let key = stack[top].pendingKey else {
            stack[top].pendingKey = node
            if stack[top].isStreamed { beginEntry(key: node, level: top) }
            return
        }
        stack[top].pendingKey = nil
        if stack[top].isStreamed {
            handOn(key: key, value: node, from: top)
            return
        }
        if let name = scalarValue(key) {
            if let first = firstKey(named: name, in: top) {
                reportDuplicate(name, key: key, first: nodeRange(first))
                return
            }
            let pairIndex = (pending.count - stack[top].pendingStart) / 2
            stack[top].keyIndexes?[name] = pairIndex
        }
        pending.append(Int32(key))
        pending.append(Int32(node))
        stack[top].lastEntryEnd = Int(records[node].endOffset)
    }

    /// The sizes the builder's arrays had before the (complete) subtree of `node`, the last
    /// one read, was added: each scalar and alias added one value, each collection its children.
    private func marks(before node: Int) -> (records: Int, children: Int, values: Int) {
        var childCount = children.count, valueCount = values.count
        for record in records[node...] {
            switch record.kind {
            case .scalar, .alias: valueCount -= 1
            case .mapping, .sequence: childCount -= Int(record.count)
            }
        }
        return (node, childCount, valueCount)
    }

    /// The key of an earlier pair named `name` in open mapping `level`: searched while the
    /// mapping is small (most are), looked up in an index once it is large.
    private mutating func firstKey(named name: String, in level: Int) -> Int? {
        let start = stack[level].pendingStart
        if let indexes = stack[level].keyIndexes {
            return indexes[name].map { Int(pending[start + 2 * $0]) }
        }
        let pairCount = (pending.count - start) / 2
        if pairCount < 16 {
            var index = start
            while index + 1 < pending.count {
                let key = Int(pending[index])
                if scalarValue(key) == name { return key }
                index += 2
            }
            return nil
        }
        var indexes: [String: Int] = [:]
        for pair in 0..<pairCount {
            if let key = scalarValue(Int(pending[start + 2 * pair])), indexes[key] == nil { indexes[key] = pair }
        }
        stack[level].keyIndexes = indexes
        return indexes[name].map { Int(pending[start + 2 * $0]) }
    }

    private mutating func reportDuplicate(_ name: String, key: Int, first: SourceRange) {
        diagnostics.append(Self.duplicate(name, at: nodeRange(key), first: first))
    }

    private static func duplicate(_ name: String, at range: SourceRange, first: SourceRange) -> Diagnostic {
        Diagnostic(.duplicateKey, "duplicate key '\(name)'", at: range,
                   help: "remove one of them; YAML keeps only one value per key",
                   notes: [DiagnosticNote("'\(name)' is first defined here", at: first)])
    }

    /// Starts building an entry of the streamed section in arrays of its own, so that it
    /// becomes a document without being copied: the key read (the last node, with its
    /// subtree) moves there, and the builder's arrays are set aside until the entry completes.
    private mutating func beginEntry(key: Int, level: Int) {
        var entryRecords: [YAMLDocument.Record] = []
        var entryChildren: [Int32] = []
        var entryValues: [String] = []
        // Room for a typical declaration, so that its arrays are not grown node by node.
        entryRecords.reserveCapacity(32)
        entryChildren.reserveCapacity(32)
        entryValues.reserveCapacity(24)
        if key == records.count - 1, records[key].kind == .scalar, Int(records[key].first) == values.count - 1 {
            // The usual key, a scalar: its record and its text move.
            var record = records.removeLast()
            record.first = 0
            entryRecords.append(record)
            entryValues.append(values.removeLast())
        } else {
            moveSubtree(of: key, to: &entryRecords, &entryChildren, &entryValues)
        }
        swap(&records, &entryRecords)
        swap(&children, &entryChildren)
        swap(&values, &entryValues)
        streamed?.setAside = (entryRecords, entryChildren, entryValues)
        stack[level].pendingKey = 0
    }

    /// Moves the (complete) subtree of `node`, the last one read, to the end of other arrays,
    /// numbered for them.
    private mutating func moveSubtree(of node: Int, to entryRecords: inout [YAMLDocument.Record],
                                      _ entryChildren: inout [Int32], _ entryValues: inout [String]) {
        let mark = marks(before: node)
        let recordBase = Int32(mark.records - entryRecords.count)
        let childBase = Int32(mark.children - entryChildren.count)
        let valueBase = Int32(mark.values - entryValues.count)
        for var record in records[mark.records...] {
            switch record.kind {
            case .scalar, .alias: record.first -= valueBase
            case .mapping, .sequence: record.first -= childBase
            }
            entryRecords.append(record)
        }
        entryChildren += children[mark.children...].map { $0 - recordBase }
        entryValues += values[mark.values...]
        records.removeSubrange(mark.records...)
        children.removeSubrange(mark.children...)
        values.removeSubrange(mark.values...)
    }

    /// Ends the entry being built: its arrays become a document, queued to be handed on (or
    /// dropped, if its key repeats an earlier one), and the builder's arrays come back.
    private mutating func handOn(key: Int, value: Int, from level: Int) {
        guard let sectionName = streamed?.name else { return }
        let name = scalarValue(key)
        let keyRange = nodeRange(key)
        let valueEnd = Int(records[value].endOffset)
        let document = YAMLDocument(pathNumber: file.pathNumber, records: records, children: children, values: values)
        restoreSetAsideArrays()
        if let name {
            if let first = streamed?.keyRanges[name] {
                diagnostics.append(Self.duplicate(name, at: keyRange, first: first))
                return
            }
            streamed?.keyRanges[name] = keyRange
        }
        stack[level].lastEntryEnd = valueEnd
        completedEntries.append((sectionName, YAMLNode(document, key), YAMLNode(document, value)))
    }

    /// Brings back the builder's arrays set aside by `beginEntry` (dropping an entry cut short).
    private mutating func restoreSetAsideArrays() {
        guard let setAside = streamed?.setAside else { return }
        streamed?.setAside = nil
        records = setAside.records
        children = setAside.children
        values = setAside.values
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
            // Cut short between a key of the streamed section and its value: drop that entry.
            if stack.last?.isStreamed == true { restoreSetAsideArrays() }
            let end = stack.last.map { collection in
                max(Int(records[collection.record].startOffset), collection.lastEntryEnd ?? 0)
            } ?? 0
            while let collection = stack.popLast() {
                close(collection, endOffset: end, truncated: true)
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
