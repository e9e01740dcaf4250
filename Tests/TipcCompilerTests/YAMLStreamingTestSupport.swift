import Testing
@testable import TipcCompiler

/// One entry a streaming read handed on.
struct StreamedEntry {
    var section: String
    var key: YAMLNode
    var value: YAMLNode

    /// The entry as `renderYAML` draws it, to compare with the same entry of an unstreamed tree.
    var rendering: String {
        "\(section) entry\n" + renderYAML(key, indent: 1) + renderYAML(value, indent: 1)
    }
}

/// A file read twice: with `streaming` sections handed on, and whole.
struct StreamingComparison {
    var streamedRoot: YAMLNode?
    var streamedDiagnostics: [Diagnostic]
    var entries: [StreamedEntry]
    var wholeRoot: YAMLNode?
    var wholeDiagnostics: [Diagnostic]
    var sections: Set<String>

    init(_ text: String, streaming sections: Set<String> = ["parameters", "events", "tips", "groups"]) {
        self.init(bytes: Array(text.utf8), streaming: sections)
    }

    init(bytes: [UInt8], streaming sections: Set<String>) {
        let file = SourceFile(path: "test.yaml", bytes: bytes)
        var streamedDiagnostics: [Diagnostic] = []
        var entries: [StreamedEntry] = []
        streamedRoot = YAMLReader.read(file, diagnostics: &streamedDiagnostics, streaming: sections) { section, key, value in
            entries.append(StreamedEntry(section: section, key: key, value: value))
        }
        self.streamedDiagnostics = streamedDiagnostics
        self.entries = entries
        var wholeDiagnostics: [Diagnostic] = []
        wholeRoot = YAMLReader.read(file, diagnostics: &wholeDiagnostics)
        self.wholeDiagnostics = wholeDiagnostics
        self.sections = sections
    }

    /// The sections of the whole tree that stream: first-written root keys named in
    /// `sections` whose value is a mapping (a repeated root key is already left out of it).
    var wholeStreamedSections: [(name: String, value: YAMLNode)] {
        guard let pairs = wholeRoot?.pairs else { return [] }
        return pairs.compactMap { pair in
            guard let name = pair.key.scalarValue, sections.contains(name), pair.value.pairs != nil else { return nil }
            return (name, pair.value)
        }
    }

    /// The entries the streaming read should hand on, drawn from the whole tree.
    var expectedEntryRenderings: [String] {
        wholeStreamedSections.flatMap { section in
            section.value.pairs!.map { StreamedEntry(section: section.name, key: $0.key, value: $0.value).rendering }
        }
    }

    /// The whole tree drawn with each streamed section as a mapping without pairs.
    var expectedRootRendering: String {
        wholeRoot.map { renderYAML($0, emptying: sections) } ?? "no root"
    }

    var streamedRootRendering: String {
        streamedRoot.map { renderYAML($0) } ?? "no root"
    }
}

/// Expects the streaming read of `comparison` to agree with the whole read: the same
/// diagnostics, the entries of the streamed sections in file order and intact, the root
/// with those sections left empty, and each entry alone in its own document.
func expectStreamingMatchesWholeRead(_ comparison: StreamingComparison, _ comment: Comment? = nil,
                                     sourceLocation: Testing.SourceLocation = #_sourceLocation) {
    #expect(comparison.streamedDiagnostics == comparison.wholeDiagnostics, comment, sourceLocation: sourceLocation)
    #expect(comparison.entries.map(\.rendering) == comparison.expectedEntryRenderings, comment, sourceLocation: sourceLocation)
    #expect(comparison.streamedRootRendering == comparison.expectedRootRendering, comment, sourceLocation: sourceLocation)
    for entry in comparison.entries {
        #expect(entry.key.document === entry.value.document, comment, sourceLocation: sourceLocation)
        #expect(entry.key.document.path == "test.yaml" && entry.value.range.file == "test.yaml", comment, sourceLocation: sourceLocation)
        // Only the entry's nodes, and those of repeated keys left out of it, are in its document.
        let entryNodes = yamlNodeCount(entry.key) + yamlNodeCount(entry.value)
        if comparison.wholeDiagnostics.isEmpty {
            #expect(entry.key.document.records.count == entryNodes, comment, sourceLocation: sourceLocation)
        } else {
            #expect(entry.key.document.records.count >= entryNodes, comment, sourceLocation: sourceLocation)
        }
    }
    if comparison.wholeDiagnostics.isEmpty, let root = comparison.streamedRoot {
        // The streamed entries' nodes are gone from the root's document.
        #expect(root.document.records.count == yamlNodeCount(root), comment, sourceLocation: sourceLocation)
    }
}

/// Draws a node tree, one node a line, with everything a node tells: kind, value, style,
/// range, offsets, flow, truncation, properties. Two trees are the same when their drawings are.
/// With `emptying`, the root mapping's mapping values under those keys are drawn without
/// their pairs (as a streaming read leaves them).
func renderYAML(_ node: YAMLNode, indent: Int = 0, emptying: Set<String> = []) -> String {
    let pad = String(repeating: "  ", count: indent)
    let traits = yamlTraits(node)
    switch node.content {
    case .scalar(let scalar):
        return "\(pad)scalar \(scalar.style) \(String(reflecting: scalar.value)) \(traits)"
            + " content \(scalar.contentStart)..<\(scalar.contentEnd) indent \(scalar.parentIndent)\n"
    case .alias(let name):
        return "\(pad)alias \(name) \(traits)\n"
    case .sequence(let items):
        return "\(pad)sequence \(items.count) \(traits)\n" + items.map { renderYAML($0, indent: indent + 1) }.joined()
    case .mapping(let pairs):
        return "\(pad)mapping \(pairs.count) \(traits)\n" + pairs.map { pair in
            let key = renderYAML(pair.key, indent: indent + 1)
            if let name = pair.key.scalarValue, emptying.contains(name), pair.value.pairs != nil {
                return key + "\(pad)    mapping 0 \(yamlTraits(pair.value))\n"
            }
            return key + renderYAML(pair.value, indent: indent + 2)
        }.joined()
    }
}

/// Where a node is and how it is written.
private func yamlTraits(_ node: YAMLNode) -> String {
    var traits = "\(node.range.start)-\(node.range.end) @\(node.startOffset)..<\(node.endOffset)"
    if node.isFlow { traits += " flow" }
    if node.isTruncated { traits += " truncated" }
    if node.hasProperties { traits += " properties" }
    return traits
}

/// How many nodes the tree under `node` holds, `node` included.
func yamlNodeCount(_ node: YAMLNode) -> Int {
    yamlNodes(under: node).count
}
