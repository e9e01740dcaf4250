/// Tokens lexed on demand, each with the file position of its start and end.
///
/// On demand, so that a parser that gives up on an over-large rule does not lex the rest.
/// Positions are those `RuleText.location(atUTF8Offset:)` gives (see `TokenLocationCursor`).
final class RuleTokenStream {
    // Read for every token the parser looks at. These properties are never passed inout, so
    // no two accesses overlap: the per-access runtime check is skipped.
    @exclusivity(unchecked) private(set) var tokens: [ScannedToken] = []
    /// A copy of the text; reused (and grown when needed) by `reset`.
    @exclusivity(unchecked) private var storage: UnsafeMutableBufferPointer<UInt8>
    /// The length of the text in `storage`.
    @exclusivity(unchecked) private var length: Int
    private let scanner: RuleScanner
    @exclusivity(unchecked) private var finished = false
    /// Kept from text to text: rules repeat their names.
    @exclusivity(unchecked) private var shortTexts = ShortTextCache()

    init<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText) {
        storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 64))
        length = 0
        scanner = RuleScanner(bytes: UnsafeBufferPointer(start: nil, count: 0), source: source)
        // A rule has about one token per three bytes; growing the array token by token would
        // cost several reallocations for every rule.
        tokens.reserveCapacity(min(bytes.count / 3 + 2, 256))
        reset(bytes: bytes, source: source)
    }

    /// Starts over on another text, keeping the memory of this one for it: a front end that
    /// parses thousands of rules lexes them all with one stream.
    func reset<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText) {
        let count = bytes.count
        if count > storage.count {
            storage.deallocate()
            storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 2 * storage.count))
        }
        // One block copy where the bytes are contiguous (a native string's view is): going
        // byte by byte through the view costs several instructions a byte.
        let copied = bytes.withContiguousStorageIfAvailable { contiguous -> Bool in
            if let base = contiguous.baseAddress, let target = storage.baseAddress {
                UnsafeMutableRawPointer(target).copyMemory(from: base, byteCount: count)
            }
            return true
        } ?? false
        if !copied {
            _ = UnsafeMutableBufferPointer(rebasing: storage[..<count]).initialize(from: bytes)
        }
        length = count
        scanner.reset(bytes: self.bytes, source: source)
        if !tokens.isEmpty { tokens.removeAll(keepingCapacity: true) }
        finished = false
    }

    /// The text being lexed.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.baseAddress, count: length) }

    deinit {
        storage.deallocate()
    }

    var comments: [RuleComment] { scanner.comments }
    var diagnostics: [Diagnostic] { scanner.diagnostics }

    /// Token `index`; the end-of-file token for any index past the end.
    ///
    /// Inlined: the parser asks for a token several times per token, nearly always one already
    /// lexed, and reads one or two of its fields.
    @inline(__always)
    func token(_ index: Int) -> ScannedToken {
        if index < tokens.count { return tokens[index] }
        return lexingToken(index)
    }

    /// `token(_:)` for a token not lexed yet.
    @inline(never)
    private func lexingToken(_ index: Int) -> ScannedToken {
        while tokens.count <= index, !finished {
            let token = scanner.next()
            tokens.append(token)
            if token.kind == .endOfFile { finished = true }
        }
        return tokens[min(index, tokens.count - 1)]
    }

    /// The name of an identifier, quoted name or parameter; the contents of a string; "" for
    /// other tokens.
    func text(of token: ScannedToken) -> String {
        switch token.value {
        case .sourceText(let start, let end): return shortTexts.string(bytes, from: start, to: end)
        case .decodedText(let index): return scanner.texts[index]
        default: return ""
        }
    }

    /// `token` in its public, self-contained form.
    func publicToken(_ token: ScannedToken) -> RuleToken {
        let value: RuleToken.Value
        switch token.value {
        case .none: value = .none
        case .sourceText, .decodedText: value = .text(text(of: token))
        case .integer(let integer): value = .integer(integer)
        case .double(let double): value = .double(double)
        case .duration(let seconds): value = .duration(seconds)
        }
        return RuleToken(kind: token.kind, start: token.start, end: token.end, value: value, isAtLineStart: token.isAtLineStart)
    }

    /// Lexes everything that is left.
    func finish() {
        while !finished { lexOne() }
    }

    /// Stops lexing: the next token is the end of the text.
    func abandon() {
        guard !finished else { return }
        append(scanner.endOfText())
    }

    private func lexOne() {
        append(scanner.next())
    }

    private func append(_ token: ScannedToken) {
        tokens.append(token)
        if token.kind == .endOfFile { finished = true }
    }
}
