/// The storage of a YAML document read from libyaml's events: every node a fixed-size record
/// in one array, every collection's children a run of one index array, every scalar's text
/// one string. A tree of tens of thousands of nodes costs three allocations instead of one or
/// more per node, and a `YAMLNode` is only a handle on it. Immutable once built.
public final class YAMLDocument: Sendable {
    enum Kind: UInt8, Sendable {
        case scalar, mapping, sequence, alias
    }

    /// One node. Offsets are UTF-8 offsets in the file (at most 64 MiB, so 32 bits hold them).
    struct Record: Sendable {
        var kind: Kind
        var style: YAMLScalarStyle = .plain
        var isFlow = false
        var isTruncated = false
        var hasProperties = false
        /// A scalar's enclosing block indentation (see `YAMLScalar.parentIndent`).
        var parentIndent: Int32 = -1
        var startOffset: Int32
        var endOffset: Int32
        /// A scalar's end as libyaml reports it (a block scalar's node ends before it).
        var contentEnd: Int32
        var start: SourceLocation
        var end: SourceLocation
        /// A scalar's or alias's index in `values`; a collection's first index in `children`.
        var first: Int32 = 0
        /// A collection's number of entries in `children` (two per mapping pair).
        var count: Int32 = 0
    }

    /// The file the document was read from (the `file` of every node's range), by its number
    /// in `SourcePaths`.
    let pathNumber: UInt32

    /// The file the document was read from.
    public var path: String { SourcePaths.path(pathNumber) }
    let records: [Record]
    /// Node indexes: each collection's items (a mapping's as key, value, key, value, …).
    let children: [Int32]
    /// The decoded text of each scalar, and each alias's name.
    let values: [String]

    /// A document without nodes.
    static let empty = YAMLDocument(pathNumber: SourcePaths.number(of: ""), records: [], children: [], values: [])

    init(pathNumber: UInt32, records: [Record], children: [Int32], values: [String]) {
        self.pathNumber = pathNumber
        self.records = records
        self.children = children
        self.values = values
    }
}
