import CYAML

/// Reading one part of a file read in two parts at once (see `YAMLReadPart`): where the head
/// ends, and which lines and keys belong to the part.
extension YAMLDocumentBuilder {
    static func isNode(_ event: yaml_event_t) -> Bool {
        switch event.type {
        case YAML_SCALAR_EVENT, YAML_ALIAS_EVENT, YAML_MAPPING_START_EVENT, YAML_SEQUENCE_START_EVENT: return true
        default: return false
        }
    }

    /// The head's first node at or after the split point: the head ends before it when libyaml
    /// is exactly where the tail's reading starts (a plain key of an entry of the split section,
    /// which is a block mapping of the top-level block mapping, nothing else open, no pending
    /// key, no problem so far). Anything else leaves `reachedSplit` false: the file is then
    /// read whole instead.
    mutating func endHead(at split: YAMLSplitPoint, with event: yaml_event_t, start: Int) {
        isFinished = true
        guard diagnostics.isEmpty, event.type == YAML_SCALAR_EVENT, event.data.scalar.anchor == nil, event.data.scalar.tag == nil,
              start == split.keyOffset, stack.count == 2,
              stack[0].isMapping, !stack[0].isFlow, stack[0].indent == 0, let sectionKey = stack[0].pendingKey,
              Int(records[sectionKey].startOffset) == split.header.lowerBound,
              stack[1].isStreamed, !stack[1].isFlow, stack[1].indent == split.indent, stack[1].pendingKey == nil,
              streamed?.name == split.section, streamed?.setAside == nil else { return }
        while let collection = stack.popLast() {
            close(collection, endOffset: start, truncated: false)
        }
        reachedSplit = true
    }

    /// The keys handed on from the streamed section `name` so far.
    func handedOnKeys(of name: String) -> NameTable<SourceRange> {
        if let streamed, streamed.name == name { return streamed.keyRanges }
        return closedSections.first { $0.name == name }?.keyRanges ?? NameTable()
    }

    /// Whether the line starting at `lineStart` is read by this part (the tail's lines are the
    /// split point's and after; the header line it reads first belongs to the head).
    func readsLine(startingAt lineStart: Int) -> Bool {
        switch part {
        case .whole: return true
        case .head(let split): return lineStart < split.offset
        case .tail(let split): return lineStart >= split.offset
        }
    }
}
