import CYAML

/// Builds a `YAMLDocument` from events: nodes are appended in document order (a collection's
/// record when it opens, filled in when it closes), and each collection's children move from
/// a stack of pending indexes to the document's child list when it closes.
struct YAMLDocumentBuilder {
    struct OpenCollection {
        /// The collection's own record.
        var record: Int
        var isMapping: Bool
        var isFlow: Bool
        /// libyaml's indentation of a block collection (the column of its first entry).
        var indent: Int
        /// The indentation of the innermost block collection open with this one: its own, or
        /// (for a flow collection) that of the block collection around it; -1 at the top.
        var innermostBlockIndent: Int
        /// Where the collection's children begin in `pending`.
        var pendingStart: Int
        /// The key read and waiting for its value.
        var pendingKey: Int?
        /// The index (in pairs) of each scalar key, once the mapping is too large to search.
        var keyIndexes: [String: Int]?
        /// Where the last entry kept ends, offset and position (a block collection ends there).
        var lastEntryEnd: (offset: Int, location: SourceLocation)?
        /// Whether this mapping is the streamed top-level section (`streamed`): its entries
        /// are handed on.
        var isStreamed = false
    }

    let file: SourceFile
    /// The file's size when it is ASCII, 0 otherwise: offsets below it take libyaml's own
    /// positions (`location(of:atOffset:)`).
    let asciiPositionsEnd: Int
    var diagnostics: [Diagnostic] = []
    var isFinished = false
    var offsets: YAMLCharacterOffsets
    /// Positions of node offsets, which arrive nearly in order.
    var positions: SourceLocationCursor
    var records: [YAMLDocument.Record] = []
    var children: [Int32] = []
    var values: [String] = []
    /// The children of the open collections, innermost last.
    var pending: [Int32] = []
    var stack: [OpenCollection] = []
    var rootRecord: Int?
    var documentCount = 0
    var failed = false
    /// Byte ranges of scalars that span several lines: tabs at a line start inside them are text.
    var multilineScalars: [Range<Int>] = []
    /// The top-level sections whose entries are handed on as they complete.
    let streamedSections: Set<String>
    /// The open streamed section (kept apart from the stack, so that updating its key index
    /// never copies it).
    var streamed: StreamedSection?
    /// Entries of streamed sections completed and not yet handed on.
    var completedEntries: [(section: String, key: YAMLNode, value: YAMLNode)] = []
    /// The other set of node arrays (see `YAMLDocumentBuilder+Streaming`): while an entry of a
    /// streamed section is built in `records`, `children` and `values`, the builder's own arrays
    /// set aside; between entries, the last entry's arrays once nothing else holds them, for
    /// the next entry to be built in instead of new ones.
    var otherRecords: [YAMLDocument.Record] = []
    var otherChildren: [Int32] = []
    var otherValues: [String] = []

    init(file: SourceFile, streamedSections: Set<String> = []) {
        self.file = file
        self.streamedSections = streamedSections
        self.asciiPositionsEnd = file.isASCII ? file.bytes.count : 0
        self.offsets = YAMLCharacterOffsets(file: file)
        self.positions = SourceLocationCursor(file: file)
    }

    /// The document's root, once reading is finished.
    var root: YAMLNode? {
        rootRecord.map { YAMLNode(YAMLDocument(pathNumber: file.pathNumber, records: records, children: children, values: values), $0) }
    }

    func range(from start: Int, to end: Int) -> SourceRange {
        file.range(fromUTF8: start, to: end)
    }

    mutating func offset(_ mark: yaml_mark_t) -> Int {
        offsets.byteOffset(ofCharacter: Int(mark.index))
    }

    /// The position of `mark`, which is at UTF-8 offset `offset`. In an ASCII file libyaml's
    /// own line and column count exactly what a `SourceLocation` counts (bytes since the last
    /// line break, CR LF and a lone CR each one break): they are taken as they are, except at
    /// the end of the file, where libyaml moves its mark to a new line that a file without a
    /// final line break does not have. Elsewhere (a BOM, other characters, NEL and the Unicode
    /// line separators libyaml also breaks lines at) the cursor finds the position.
    @inline(__always)
    mutating func location(of mark: yaml_mark_t, atOffset offset: Int) -> SourceLocation {
        guard offset < asciiPositionsEnd else { return positions.location(atUTF8Offset: offset) }
        return SourceLocation(line: Int(mark.line) + 1, column: Int(mark.column) + 1)
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
            // Through the initializer that makes a short ASCII string (most keys and values)
            // without validating it first, as `String(decoding:as:)` does; other text is
            // validated (and repaired) the same way.
            let value = scalarData.value.map { pointer in
                String(unsafeUninitializedCapacity: scalarData.length) {
                    $0.initialize(fromContentsOf: UnsafeBufferPointer(start: pointer, count: scalarData.length))
                }
            } ?? ""
            let style = Self.style(scalarData.style)
            let contentEnd = max(end, contentStart)
            var nodeEnd = contentEnd
            if style == .literal || style == .folded {
                // libyaml ends a block scalar at the next line that is not part of it; the
                // node's range ends with its last character.
                while nodeEnd > contentStart, [0x20, 0x09, 0x0A, 0x0D].contains(file.bytes[nodeEnd - 1]) { nodeEnd -= 1 }
            }
            let startLocation = contentStart == start ? location(of: event.start_mark, atOffset: start)
                : positions.location(atUTF8Offset: contentStart)
            let endLocation = nodeEnd == end ? location(of: event.end_mark, atOffset: end) : positions.location(atUTF8Offset: nodeEnd)
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
            let location = contentStart == start ? location(of: event.start_mark, atOffset: start)
                : positions.location(atUTF8Offset: contentStart)
            records.append(YAMLDocument.Record(kind: isMapping ? .mapping : .sequence, isFlow: isFlow,
                                               hasProperties: anchor != nil || tag != nil,
                                               startOffset: Int32(contentStart), endOffset: Int32(contentStart),
                                               contentEnd: Int32(contentStart), start: location, end: location))
            let indent = isFlow ? -1 : blockIndent(startingAt: event.end_mark, isMapping: isMapping)
            stack.append(OpenCollection(record: records.count - 1, isMapping: isMapping, isFlow: isFlow, indent: indent,
                                        innermostBlockIndent: isFlow ? blockIndent : indent,
                                        pendingStart: pending.count, isStreamed: section != nil))
        case YAML_SEQUENCE_END_EVENT, YAML_MAPPING_END_EVENT:
            guard let collection = stack.popLast() else { return }
            close(collection, endOffset: end, truncated: false)
        default:
            break
        }
    }

    /// libyaml's indentation for a block collection: the column of its first key or `-`.
    /// A block mapping's start event ends at its first key; a block sequence's at its first
    /// `-`, or just after it for a sequence not indented under its key.
    mutating func blockIndent(startingAt mark: yaml_mark_t, isMapping: Bool) -> Int {
        let column = Int(mark.column)
        let end = offset(mark)
        if !isMapping, column > 0, end > 0, file.bytes[end - 1] == 0x2D { return column - 1 }
        return column
    }

    /// The indentation of the innermost block collection, as libyaml's scanner tracks it.
    var blockIndent: Int {
        stack.isEmpty ? -1 : stack[stack.count - 1].innermostBlockIndent
    }

    func scalarValue(_ record: Int) -> String? {
        records[record].kind == .scalar ? values[Int(records[record].first)] : nil
    }

    func nodeRange(_ record: Int) -> SourceRange {
        SourceRange(fileNumber: file.pathNumber, start: records[record].start, end: records[record].end)
    }

    // MARK: - Building

    mutating func appendLeaf(_ record: YAMLDocument.Record) {
        records.append(record)
        attach(records.count - 1)
    }

    /// Fills in a collection's record as it closes and moves its children to the child list.
    mutating func close(_ collection: OpenCollection, endOffset: Int, truncated: Bool) {
        // The streamed section closing with a key but no value (after an error): that entry's
        // arrays are dropped, and the section's record is in the builder's own arrays.
        if collection.isStreamed { restoreSetAsideArrays() }
        var end = endOffset
        // The position of `end` when a node already has it.
        var endLocation: SourceLocation?
        if !collection.isFlow || truncated {
            // A block collection ends with its last entry, not at the next token.
            if let lastEntryEnd = collection.lastEntryEnd {
                (end, endLocation) = lastEntryEnd
            } else {
                (end, endLocation) = (Int(records[collection.record].startOffset), records[collection.record].start)
            }
            if truncated, endOffset > end { (end, endLocation) = (endOffset, nil) }
        }
        var record = records[collection.record]
        record.first = Int32(children.count)
        pending.withUnsafeBufferPointer { children.append(contentsOf: UnsafeBufferPointer(rebasing: $0[collection.pendingStart...])) }
        pending.removeLast(pending.count - collection.pendingStart)
        record.count = Int32(children.count) - record.first
        record.endOffset = Int32(end)
        record.contentEnd = Int32(end)
        record.end = endLocation ?? positions.location(atUTF8Offset: end)
        record.isTruncated = truncated
        records[collection.record] = record
        attach(collection.record)
    }

    mutating func attach(_ node: Int) {
        guard !stack.isEmpty else {
            if rootRecord == nil { rootRecord = node }
            return
        }
        let top = stack.count - 1
        if !stack[top].isMapping {
            pending.append(Int32(node))
            stack[top].lastEntryEnd = (Int(records[node].endOffset), records[node].end)
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
            if stack[top].keyIndexes != nil {
                let pairIndex = (pending.count - stack[top].pendingStart) / 2
                stack[top].keyIndexes?[name] = pairIndex
            }
        }
        pending.append(Int32(key))
        pending.append(Int32(node))
        stack[top].lastEntryEnd = (Int(records[node].endOffset), records[node].end)
    }

    /// The key of an earlier pair named `name` in open mapping `level`: searched while the
    /// mapping is small (most are), looked up in an index once it is large.
    mutating func firstKey(named name: String, in level: Int) -> Int? {
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

    mutating func reportDuplicate(_ name: String, key: Int, first: SourceRange) {
        diagnostics.append(Self.duplicate(name, at: nodeRange(key), first: first))
    }

    static func duplicate(_ name: String, at range: SourceRange, first: SourceRange) -> Diagnostic {
        Diagnostic(.duplicateKey, "duplicate key '\(name)'", at: range,
                   help: "remove one of them; YAML keeps only one value per key",
                   notes: [DiagnosticNote("'\(name)' is first defined here", at: first)])
    }

    /// Reports an anchor and a tag written before a node; returns the offset after them.
    mutating func reportProperties(from start: Int, anchor: UnsafeMutablePointer<yaml_char_t>?,
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
    func skipSpaceAndComments(from index: Int) -> Int {
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

    // MARK: - Conversions

    static func string(_ pointer: UnsafeMutablePointer<yaml_char_t>?) -> String? {
        pointer.map { String(cString: $0) }
    }

    static func style(_ style: yaml_scalar_style_t) -> YAMLScalarStyle {
        switch style {
        case YAML_SINGLE_QUOTED_SCALAR_STYLE: return .singleQuoted
        case YAML_DOUBLE_QUOTED_SCALAR_STYLE: return .doubleQuoted
        case YAML_LITERAL_SCALAR_STYLE: return .literal
        case YAML_FOLDED_SCALAR_STYLE: return .folded
        default: return .plain
        }
    }
}
