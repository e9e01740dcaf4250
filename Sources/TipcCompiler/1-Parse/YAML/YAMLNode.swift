/// How a YAML scalar was written. The style decides how its text maps back to the file and,
/// for plain scalars only, whether it may resolve to a bool or a number.
public enum YAMLScalarStyle: String, Sendable, Hashable {
    case plain
    case singleQuoted
    case doubleQuoted
    /// `|` block scalar.
    case literal
    /// `>` block scalar.
    case folded
}

/// A scalar: its decoded value and where its text sits in the file.
public struct YAMLScalar: Sendable, Hashable {
    /// The value as YAML decodes it (quotes, escapes and line folding applied).
    public var value: String
    public var style: YAMLScalarStyle
    /// UTF-8 offset of the scalar's first character (a quote or block indicator included),
    /// after any anchor or tag.
    public var contentStart: Int
    /// UTF-8 offset just after the scalar's text (as libyaml reports it).
    public var contentEnd: Int
    /// The indentation of the enclosing block collection (libyaml's `indent`, -1 at the top),
    /// needed to re-scan a block scalar with an explicit indentation indicator.
    public var parentIndent: Int

    public init(value: String, style: YAMLScalarStyle, contentStart: Int, contentEnd: Int, parentIndent: Int) {
        self.value = value
        self.style = style
        self.contentStart = contentStart
        self.contentEnd = contentEnd
        self.parentIndent = parentIndent
    }

    /// A plain scalar that YAML's core schema reads as null (`~`, `null`, or nothing at all).
    public var isNull: Bool {
        style == .plain && Self.isNullSpelling(value)
    }

    static func isNullSpelling(_ value: String) -> Bool {
        switch value {
        case "", "~", "null", "Null", "NULL": return true
        default: return false
        }
    }
}

/// One key/value pair of a mapping, in file order.
public struct YAMLPair: Sendable {
    public var key: YAMLNode
    public var value: YAMLNode
}

/// A node of a YAML document the reader built from libyaml's events: a handle on the
/// document's flat storage (see `YAMLDocument`), cheap to copy and to pass around. Anchors,
/// tags and aliases are refused by the reader (reported, never expanded); the document keeps
/// enough to go on.
public struct YAMLNode: Sendable {
    public enum Content: Sendable {
        case scalar(YAMLScalar)
        /// Pairs in file order; a repeated key has been reported and left out.
        case mapping(YAMLPairs)
        case sequence(YAMLItems)
        /// `*name`: reported by the reader, never expanded.
        case alias(String)
    }

    /// The document the node belongs to.
    public let document: YAMLDocument
    let index: Int

    init(_ document: YAMLDocument, _ index: Int) {
        self.document = document
        self.index = index
    }

    private var record: YAMLDocument.Record { document.records[index] }

    public var content: Content {
        let record = record
        switch record.kind {
        case .scalar: return .scalar(scalar(of: record))
        case .mapping: return .mapping(YAMLPairs(document: document, start: Int(record.first), count: Int(record.count) / 2))
        case .sequence: return .sequence(YAMLItems(document: document, start: Int(record.first), count: Int(record.count)))
        case .alias: return .alias(document.values[Int(record.first)])
        }
    }

    /// Where the node is written (for a block collection: from its first to its last child).
    public var range: SourceRange {
        let record = record
        return SourceRange(fileNumber: document.pathNumber, start: record.start, end: record.end)
    }

    /// UTF-8 offsets of `range`.
    public var startOffset: Int { Int(record.startOffset) }
    public var endOffset: Int { Int(record.endOffset) }
    /// Written in flow style (`[…]`, `{…}`).
    public var isFlow: Bool { record.isFlow }
    /// Cut short by a YAML error: its contents are incomplete.
    public var isTruncated: Bool { record.isTruncated }
    /// Carries an anchor or a tag (already reported).
    public var hasProperties: Bool { record.hasProperties }

    public var scalar: YAMLScalar? {
        let record = record
        return record.kind == .scalar ? scalar(of: record) : nil
    }

    /// The scalar's value without building the whole `YAMLScalar`; nil for other nodes.
    public var scalarValue: String? {
        let record = record
        return record.kind == .scalar ? document.values[Int(record.first)] : nil
    }

    public var pairs: YAMLPairs? {
        let record = record
        guard record.kind == .mapping else { return nil }
        return YAMLPairs(document: document, start: Int(record.first), count: Int(record.count) / 2)
    }

    public var items: YAMLItems? {
        let record = record
        guard record.kind == .sequence else { return nil }
        return YAMLItems(document: document, start: Int(record.first), count: Int(record.count))
    }

    public var isAlias: Bool { record.kind == .alias }

    var isMapping: Bool { record.kind == .mapping }

    /// How a diagnostic names what was found here: "a mapping", "a list", "'abc'", "nothing".
    public var kindDescription: String {
        switch content {
        case .mapping: return "a mapping"
        case .sequence: return "a list"
        case .alias(let name): return "the alias '*\(name)'"
        case .scalar(let scalar):
            if scalar.isNull { return scalar.value.isEmpty ? "nothing" : "null" }
            return "'\(scalar.value)'"
        }
    }

    private func scalar(of record: YAMLDocument.Record) -> YAMLScalar {
        YAMLScalar(value: document.values[Int(record.first)], style: record.style, contentStart: Int(record.startOffset),
                   contentEnd: Int(record.contentEnd), parentIndent: Int(record.parentIndent))
    }
}

/// The pairs of a mapping node, in file order.
public struct YAMLPairs: RandomAccessCollection, Sendable {
    let document: YAMLDocument
    /// Where the pairs' node indexes start in the document's child list (key, value, key, …).
    let start: Int
    public let count: Int

    /// No pairs (what a null value reads as).
    static let empty = YAMLPairs(document: .empty, start: 0, count: 0)

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> YAMLPair {
        precondition(position >= 0 && position < count, "pair index out of range")
        let base = start + 2 * position
        return YAMLPair(key: YAMLNode(document, Int(document.children[base])),
                        value: YAMLNode(document, Int(document.children[base + 1])))
    }
}

/// The items of a sequence node, in file order.
public struct YAMLItems: RandomAccessCollection, Sendable {
    let document: YAMLDocument
    let start: Int
    public let count: Int

    /// No items (what a null value reads as).
    static let empty = YAMLItems(document: .empty, start: 0, count: 0)

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    public subscript(position: Int) -> YAMLNode {
        precondition(position >= 0 && position < count, "item index out of range")
        return YAMLNode(document, Int(document.children[start + position]))
    }
}
