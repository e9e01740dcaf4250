/// Tokens lexed on demand, with the file position of each token's start and end.
///
/// On demand, so that a parser that gives up on an over-large rule does not lex the rest.
/// Positions are those `RuleText.location(atUTF8Offset:)` gives: the first token of a line
/// asks the `RuleText`, later ones count scalars on from the previous token, which keeps a
/// very long line linear instead of quadratic.
final class RuleTokenStream {
    // Read for every token the parser looks at. These properties are never passed inout, so
    // no two accesses overlap: the per-access runtime check is skipped.
    @exclusivity(unchecked) private(set) var tokens: [RuleToken] = []
    @exclusivity(unchecked) private(set) var starts: [SourceLocation] = []
    @exclusivity(unchecked) private(set) var ends: [SourceLocation] = []
    /// A copy of the text; reused (and grown when needed) by `reset`.
    private var storage: UnsafeMutableBufferPointer<UInt8>
    /// The length of the text in `storage`.
    private var length: Int
    private let scanner: RuleScanner
    @exclusivity(unchecked) private var cursor: TokenLocationCursor
    @exclusivity(unchecked) private var finished = false

    init<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText) {
        storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 64))
        _ = storage.initialize(from: bytes)
        length = bytes.count
        let text = UnsafeBufferPointer(start: storage.baseAddress, count: length)
        scanner = RuleScanner(bytes: text, source: source)
        cursor = TokenLocationCursor(bytes: text, source: source)
        // A rule has about one token per three bytes; growing three arrays token by token
        // would cost several reallocations for every rule.
        let expected = min(bytes.count / 3 + 2, 256)
        tokens.reserveCapacity(expected)
        starts.reserveCapacity(expected)
        ends.reserveCapacity(expected)
    }

    /// Starts over on another text, keeping the memory of this one for it: a front end that
    /// parses thousands of rules lexes them all with one stream.
    func reset<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText) {
        if bytes.count > storage.count {
            storage.deallocate()
            storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 2 * storage.count))
        }
        _ = UnsafeMutableBufferPointer(rebasing: storage[..<bytes.count]).initialize(from: bytes)
        length = bytes.count
        let text = self.bytes
        scanner.reset(bytes: text, source: source)
        cursor = TokenLocationCursor(bytes: text, source: source)
        tokens.removeAll(keepingCapacity: true)
        starts.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        finished = false
    }

    /// The text being lexed.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.baseAddress, count: length) }

    deinit {
        storage.deallocate()
    }

    var comments: [RuleComment] { scanner.comments }
    var diagnostics: [Diagnostic] { scanner.diagnostics }

    /// RuleToken `index`; the end-of-file token for any index past the end.
    func token(_ index: Int) -> RuleToken {
        while tokens.count <= index, !finished { lexOne() }
        return tokens[min(index, tokens.count - 1)]
    }

    /// Lexes everything that is left.
    func finish() {
        while !finished { lexOne() }
    }

    /// Stops lexing: the next token is the end of the text.
    func abandon() {
        guard !finished else { return }
        append(RuleToken(kind: .endOfFile, start: length, end: length, isAtLineStart: true))
    }

    private func lexOne() {
        append(scanner.next())
    }

    private func append(_ token: RuleToken) {
        tokens.append(token)
        starts.append(cursor.location(at: token.start))
        ends.append(cursor.location(at: token.end))
        if token.kind == .endOfFile { finished = true }
    }
}

/// Computes positions of increasing offsets, counting from the previous one where exact.
struct TokenLocationCursor {
    private let bytes: UnsafeBufferPointer<UInt8>
    private let source: RuleText
    /// Whether line breaks in the bytes are line breaks of the positions.
    private let isFile: Bool
    private let isTable: Bool
    private var offset = -1
    private var location = SourceLocation(line: 1, column: 1)

    init(bytes: UnsafeBufferPointer<UInt8>, source: RuleText) {
        self.bytes = bytes
        self.source = source
        switch source.mapping {
        case .file: (isFile, isTable) = (true, false)
        case .singleLine: (isFile, isTable) = (false, false)
        case .table: (isFile, isTable) = (false, true)
        }
    }

    mutating func location(at target: Int) -> SourceLocation {
        defer { offset = target }
        // Counting needs a table-free mapping, a start at a scalar boundary and a target after it.
        guard !isTable, offset >= 0, target >= offset, target <= bytes.count,
              offset == bytes.count || bytes[offset] & 0xC0 != 0x80,
              target == bytes.count || bytes[target] & 0xC0 != 0x80 else {
            location = source.location(atUTF8Offset: target)
            return location
        }
        var column = location.column
        var index = offset
        while index < target {
            let byte = bytes[index]
            if isFile, byte == 0x0A || byte == 0x0D {
                location = source.location(atUTF8Offset: target)
                return location
            }
            if byte & 0xC0 != 0x80 { column += 1 }
            index += 1
        }
        location = SourceLocation(line: location.line, column: column)
        return location
    }
}
