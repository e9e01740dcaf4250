import CYAML

/// Which part of a file one reading covers: the whole file, or one of the two parts of a large
/// file read at once on two threads, split at a `YAMLSplitPoint`.
enum YAMLReadPart: Sendable, Equatable {
    case whole
    /// From the start of the file to the split point, which this reading confirms.
    case head(YAMLSplitPoint)
    /// The split section's header line, then the file from the split point to its end.
    case tail(YAMLSplitPoint)

    /// The bytes of `file` whose lines this part reads (the tail's header line is the head's).
    func bytesRead(in file: SourceFile) -> Range<Int> {
        switch self {
        case .whole: return 0..<file.bytes.count
        case .head(let split): return 0..<split.offset
        case .tail(let split): return split.offset..<file.bytes.count
        }
    }
}

extension YAMLReader {
    /// What reading one part gave besides the entries it handed on.
    struct PartOutcome: Sendable {
        /// The part's root: a mapping holding its part of the top-level pairs.
        var root: YAMLNode?
        var diagnostics: [Diagnostic]
        /// Whether the part reads as the file read whole would: a head must have ended at the
        /// split point, confirmed there.
        var isComplete: Bool
        /// The keys of the split section's entries handed on by this part.
        var splitSectionKeys: NameTable<SourceRange>
    }

    /// Reads one part of `file` (see `YAMLReadPart`), handing on the entries of
    /// `streamedSections` as `read(_:diagnostics:streaming:entry:)` does.
    static func readPart(_ part: YAMLReadPart, of file: SourceFile, streaming streamedSections: Set<String>,
                         entry: (_ section: String, _ key: YAMLNode, _ value: YAMLNode) -> Void) -> PartOutcome {
        var bytes = (file.hasByteOrderMark ? 3 : 0)..<file.bytes.count
        var split: YAMLSplitPoint?
        switch part {
        case .whole: break
        case .head(let point): split = point; bytes = bytes.lowerBound..<point.offset
        case .tail(let point): split = point; bytes = point.offset..<bytes.upperBound
        }
        if let problem = YAMLInputCheck.firstProblem(in: file, bytes: bytes) {
            return PartOutcome(root: nil, diagnostics: [problem], isComplete: false, splitSectionKeys: NameTable())
        }
        var builder = YAMLDocumentBuilder(file: file, streamedSections: streamedSections, part: part)
        if !file.bytes.isEmpty { run(&builder, entry: entry) }
        let isComplete: Bool
        if case .head = part { isComplete = builder.reachedSplit } else { isComplete = true }
        return PartOutcome(root: builder.root, diagnostics: builder.diagnostics, isComplete: isComplete,
                           splitSectionKeys: split.map { builder.handedOnKeys(of: $0.section) } ?? NameTable())
    }

    /// The root of the whole file from the roots of its two parts, or nil when the parts do not
    /// read as the whole file would: a problem in either, a head that did not end at the split
    /// point, a top-level key or an entry of the split section written in both (reading the
    /// file whole reports the repeat).
    static func join(head: PartOutcome, tail: PartOutcome, at split: YAMLSplitPoint) -> YAMLNode? {
        guard head.isComplete, tail.isComplete, head.diagnostics.isEmpty, tail.diagnostics.isEmpty,
              let headRoot = head.root, let tailRoot = tail.root,
              case .mapping(let headPairs) = headRoot.content, case .mapping(let tailPairs) = tailRoot.content,
              let section = headPairs.last, let continued = tailPairs.first,
              section.key.scalarValue == split.section, continued.key.scalarValue == split.section,
              section.value.isMapping, continued.value.isMapping else { return nil }
        let headKeys = Set(headPairs.compactMap(\.key.scalarValue))
        guard !tailPairs.dropFirst().contains(where: { $0.key.scalarValue.map(headKeys.contains) ?? false }),
              !tail.splitSectionKeys.names.contains(where: head.splitSectionKeys.contains) else { return nil }
        return YAMLDocument.joining(headRoot, tailRoot)
    }
}

extension YAMLDocument {
    /// One document holding both parts' nodes, and a root holding the head's pairs then the
    /// tail's after its first (the split section again, whose entries were handed on): the
    /// root of the file read whole. The split section and the root end where the tail's do.
    static func joining(_ head: YAMLNode, _ tail: YAMLNode) -> YAMLNode {
        let headDocument = head.document, tailDocument = tail.document
        var records = headDocument.records
        var children = headDocument.children
        var values = headDocument.values
        let recordBase = Int32(records.count), childBase = Int32(children.count), valueBase = Int32(values.count)
        records.reserveCapacity(records.count + tailDocument.records.count + 1)
        for var record in tailDocument.records {
            switch record.kind {
            case .scalar, .alias: record.first += valueBase
            case .mapping, .sequence: record.first += childBase
            }
            records.append(record)
        }
        children += tailDocument.children.map { $0 + recordBase }
        values += tailDocument.values

        let headRoot = records[head.index], tailRoot = records[Int(recordBase) + tail.index]
        var pairs = Array(children[Int(headRoot.first)..<Int(headRoot.first + headRoot.count)])
        pairs += children[Int(tailRoot.first + 2)..<Int(tailRoot.first + tailRoot.count)]
        let section = Int(children[Int(headRoot.first + headRoot.count) - 1])
        let continued = records[Int(children[Int(tailRoot.first) + 1])]
        records[section].endOffset = continued.endOffset
        records[section].contentEnd = continued.contentEnd
        records[section].end = continued.end

        var root = headRoot
        root.first = Int32(children.count)
        root.count = Int32(pairs.count)
        root.endOffset = tailRoot.endOffset
        root.contentEnd = tailRoot.contentEnd
        root.end = tailRoot.end
        children += pairs
        records.append(root)
        let document = YAMLDocument(pathNumber: headDocument.pathNumber, records: records, children: children, values: values)
        return YAMLNode(document, records.count - 1)
    }
}

/// libyaml's input for a tail: runs of a file's bytes one after the other, copied to libyaml's
/// buffer as it asks (the file itself is never copied whole).
struct PiecewiseInput {
    let bytes: UnsafeBufferPointer<UInt8>
    var pieces: [Range<Int>]

    /// libyaml's read handler; `data` points at a `PiecewiseInput`.
    static let read: @convention(c) (UnsafeMutableRawPointer?, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int>?) -> Int32 = {
        data, buffer, size, sizeRead in
        guard let data, let buffer, let sizeRead else { return 0 }
        let input = data.assumingMemoryBound(to: PiecewiseInput.self)
        sizeRead.pointee = input.pointee.copy(into: buffer, size: size)
        return 1
    }

    /// Copies up to `size` bytes of the next piece to `buffer`; 0 at the end.
    private mutating func copy(into buffer: UnsafeMutablePointer<UInt8>, size: Int) -> Int {
        while let piece = pieces.first, piece.isEmpty { pieces.removeFirst() }
        guard let piece = pieces.first, let base = bytes.baseAddress else { return 0 }
        let count = min(size, piece.count)
        buffer.update(from: base + piece.lowerBound, count: count)
        pieces[0] = piece.lowerBound + count..<piece.upperBound
        return count
    }
}
