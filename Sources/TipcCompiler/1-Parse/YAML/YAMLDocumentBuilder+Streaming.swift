import CYAML

/// Streaming: the entries of the top-level sections named in `streamedSections` are handed on
/// as they complete, each built in arrays of its own that become its document, so that the
/// whole tree never lives at once.
extension YAMLDocumentBuilder {
    /// A top-level section whose entries are handed on instead of kept.
    struct StreamedSection {
        var name: String
        /// The range of each scalar key handed on, to report a repeat.
        var keyRanges: [ByteName: SourceRange] = [:]
        /// An entry is being built: the builder's own arrays are the `other…` ones.
        var isBuildingEntry = false
    }

    /// Hands the completed entries of streamed sections to `entry`, oldest first, and forgets them.
    mutating func handOnCompletedEntries(to entry: (String, YAMLNode, YAMLNode) -> Void) {
        guard !completedEntries.isEmpty else { return }
        for completed in completedEntries { entry(completed.section, completed.key, completed.value) }
        var last = completedEntries[completedEntries.count - 1].key.document
        completedEntries.removeAll(keepingCapacity: true)
        recycleStorage(of: &last)
    }

    /// Keeps the arrays of an entry's document that nothing holds any more (the usual case:
    /// the entry was decoded into values of its own) as the `other…` arrays, for the next entry.
    private mutating func recycleStorage(of document: inout YAMLDocument) {
        guard streamed?.isBuildingEntry != true, isKnownUniquelyReferenced(&document) else { return }
        otherRecords = document.records
        otherChildren = document.children
        otherValues = document.values
        // Freeing the document leaves its arrays held only here (emptied by the next entry).
        document = .empty
    }

    /// Exchanges the builder's current arrays with the `other…` ones (moves, no copies).
    private mutating func swapArrays() {
        swap(&records, &otherRecords)
        swap(&children, &otherChildren)
        swap(&values, &otherValues)
    }

    /// The section a mapping opening now streams: the root is a mapping whose pending key is
    /// a streamed section's name, written for the first time.
    mutating func sectionToStream(isMapping: Bool) -> StreamedSection? {
        guard isMapping, !streamedSections.isEmpty, stack.count == 1, stack[0].isMapping,
              let key = stack[0].pendingKey, let name = scalarValue(key), streamedSections.contains(name),
              firstKey(named: name, in: 0) == nil else { return nil }
        return StreamedSection(name: name)
    }

    /// The sizes the builder's arrays had before the (complete) subtree of `node`, the last
    /// one read, was added: each scalar and alias added one value, each collection its children.
    func marks(before node: Int) -> (records: Int, children: Int, values: Int) {
        var childCount = children.count, valueCount = values.count
        for record in records[node...] {
            switch record.kind {
            case .scalar, .alias: valueCount -= 1
            case .mapping, .sequence: childCount -= Int(record.count)
            }
        }
        return (node, childCount, valueCount)
    }

    /// Starts building an entry of the streamed section in arrays of its own (the `other…`
    /// ones, emptied), so that it becomes a document without being copied: the key read (the
    /// last node, with its subtree) moves there, and the builder's arrays are set aside as the
    /// `other…` ones until the entry completes. Arrays change places by swaps, which move them.
    mutating func beginEntry(key: Int, level: Int) {
        var (entryRecords, entryChildren, entryValues) = takeOtherArrays()
        if entryRecords.capacity == 0 {
            // Room for a typical declaration, so that its arrays are not grown node by node.
            entryRecords.reserveCapacity(32)
            entryChildren.reserveCapacity(32)
            entryValues.reserveCapacity(24)
        } else {
            entryRecords.removeAll(keepingCapacity: true)
            entryChildren.removeAll(keepingCapacity: true)
            entryValues.removeAll(keepingCapacity: true)
        }
        if key == records.count - 1, records[key].kind == .scalar, Int(records[key].first) == values.count - 1 {
            // The usual key, a scalar: its record and its text move.
            var record = records.removeLast()
            record.first = 0
            entryRecords.append(record)
            entryValues.append(values.removeLast())
        } else {
            moveSubtree(of: key, to: &entryRecords, &entryChildren, &entryValues)
        }
        swap(&otherRecords, &entryRecords)
        swap(&otherChildren, &entryChildren)
        swap(&otherValues, &entryValues)
        swapArrays()
        streamed?.isBuildingEntry = true
        stack[level].pendingKey = 0
    }

    /// Moves the (complete) subtree of `node`, the last one read, to the end of other arrays,
    /// numbered for them.
    mutating func moveSubtree(of node: Int, to entryRecords: inout [YAMLDocument.Record],
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
    mutating func handOn(key: Int, value: Int, from level: Int) {
        guard let sectionName = streamed?.name else { return }
        let name = scalarValue(key)
        let keyRange = nodeRange(key)
        let valueEnd = (offset: Int(records[value].endOffset), location: records[value].end)
        restoreSetAsideArrays()
        let document = documentOfOtherArrays()
        // A repeated key is reported at its first one's range.
        if let name {
            // One lookup for a new key (nearly all): recorded at once; a repeat puts the first back.
            let key = ByteName(name)
            if let first = streamed?.keyRanges.updateValue(keyRange, forKey: key) {
                streamed?.keyRanges[key] = first
                diagnostics.append(Self.duplicate(name, at: keyRange, first: first))
                return
            }
        }
        stack[level].lastEntryEnd = valueEnd
        completedEntries.append((sectionName, YAMLNode(document, key), YAMLNode(document, value)))
    }

    /// Brings back the builder's arrays set aside by `beginEntry`: the entry's arrays become the
    /// `other…` ones (to become its document, or be dropped after an error).
    mutating func restoreSetAsideArrays() {
        guard streamed?.isBuildingEntry == true else { return }
        streamed?.isBuildingEntry = false
        swapArrays()
    }

    /// A document of the `other…` arrays, moved into it (they are left empty).
    private mutating func documentOfOtherArrays() -> YAMLDocument {
        let (records, children, values) = takeOtherArrays()
        return YAMLDocument(pathNumber: file.pathNumber, records: records, children: children, values: values)
    }

    /// The `other…` arrays, moved out (they are left empty).
    private mutating func takeOtherArrays() -> (records: [YAMLDocument.Record], children: [Int32], values: [String]) {
        var taken: (records: [YAMLDocument.Record], children: [Int32], values: [String]) = ([], [], [])
        swap(&taken.records, &otherRecords)
        swap(&taken.children, &otherChildren)
        swap(&taken.values, &otherValues)
        return taken
    }
}
