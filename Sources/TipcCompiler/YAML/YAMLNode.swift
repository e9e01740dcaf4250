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
        style == .plain && ["", "~", "null", "Null", "NULL"].contains(value)
    }
}

/// One key/value pair of a mapping, in file order.
public struct YAMLPair: Sendable, Hashable {
    public var key: YAMLNode
    public var value: YAMLNode

    public init(key: YAMLNode, value: YAMLNode) {
        self.key = key
        self.value = value
    }
}

/// A node of the YAML tree the reader builds from libyaml's events. Anchors, tags and aliases
/// are refused by the reader (reported, never expanded); the tree keeps enough to go on.
public struct YAMLNode: Sendable, Hashable {
    public enum Content: Sendable, Hashable {
        case scalar(YAMLScalar)
        /// Pairs in file order; a repeated key has been reported and left out.
        case mapping([YAMLPair])
        case sequence([YAMLNode])
        /// `*name`: reported by the reader, never expanded.
        case alias(String)
    }

    public var content: Content
    /// Where the node is written (for a block collection: from its first to its last child).
    public var range: SourceRange
    /// UTF-8 offsets of `range`.
    public var startOffset: Int
    public var endOffset: Int
    /// Written in flow style (`[…]`, `{…}`).
    public var isFlow: Bool
    /// Cut short by a YAML error: its contents are incomplete.
    public var isTruncated: Bool
    /// Carries an anchor or a tag (already reported).
    public var hasProperties: Bool

    public init(content: Content, range: SourceRange, startOffset: Int, endOffset: Int,
                isFlow: Bool = false, isTruncated: Bool = false, hasProperties: Bool = false) {
        self.content = content
        self.range = range
        self.startOffset = startOffset
        self.endOffset = endOffset
        self.isFlow = isFlow
        self.isTruncated = isTruncated
        self.hasProperties = hasProperties
    }

    public var scalar: YAMLScalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    public var pairs: [YAMLPair]? {
        if case .mapping(let pairs) = content { return pairs }
        return nil
    }

    public var items: [YAMLNode]? {
        if case .sequence(let items) = content { return items }
        return nil
    }

    public var isAlias: Bool {
        if case .alias = content { return true }
        return false
    }

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
}
