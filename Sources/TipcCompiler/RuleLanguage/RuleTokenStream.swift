/// Tokens lexed on demand, each with the file position of its start and end.
///
/// On demand, so that a parser that gives up on an over-large rule does not lex the rest.
/// Positions are those `RuleText.location(atUTF8Offset:)` gives (see `TokenLocationCursor`).
final class RuleTokenStream {
    /// The tokens lexed so far; their memory is kept from text to text.
    private(set) var tokens: [ScannedToken] = []
    /// A copy of the text; reused (and grown when needed) by `reset`.
    private var storage: UnsafeMutableBufferPointer<UInt8>
    /// The length of the text in `storage`.
    private var length: Int
    private var scanner: RuleScanner
    private var finished = false
    /// Set by `lexAheadIfClean`: every token was lexed before the parser asked for one.
    private var lexedAhead = false
    /// Set when `abandon` was called on tokens lexed ahead, where it cannot do what it does on
    /// tokens lexed on demand (see `lexAheadIfClean`).
    private(set) var abandonedAfterLexingAhead = false

    init<Bytes: Collection<UInt8>>(bytes: Bytes, source: RuleText) {
        storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(bytes.count, 64))
        length = 0
        scanner = RuleScanner(bytes: UnsafeBufferPointer(start: nil, count: 0), source: source)
        reset(bytes: bytes, source: source)
    }

    /// Starts over on another text, keeping the memory of this one for it: a front end that
    /// parses thousands of rules lexes them all with one stream.
    func reset<Bytes: Collection<UInt8>>(bytes: Bytes, source: consuming RuleText) {
        let isASCII = copyText(bytes)
        restart(source: source, isASCII: isASCII)
    }

    /// `reset(bytes:source:)` for the text of `source` itself.
    func reset(source: consuming RuleText) {
        let isASCII = copyText(source.text.utf8)
        restart(source: source, isASCII: isASCII)
    }

    /// Copies `bytes` into `storage`; returns whether they are all ASCII when that was found
    /// while copying (nil when not looked at).
    private func copyText<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool? {
        let count = bytes.count
        if count > storage.count {
            storage.deallocate()
            storage = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(count, 2 * storage.count))
        }
        // Eight bytes at a time where the bytes are contiguous (a native string's view is),
        // noting their high bits on the way: going byte by byte through the view costs several
        // instructions a byte, and the positions of a rule's tokens depend on whether it is ASCII.
        let isASCII = bytes.withContiguousStorageIfAvailable { contiguous -> Bool in
            guard let base = contiguous.baseAddress, let target = storage.baseAddress else { return true }
            let from = UnsafeRawPointer(base), to = UnsafeMutableRawPointer(target)
            var highBits: UInt64 = 0
            var offset = 0
            while offset + 8 <= count {
                let word = from.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
                to.storeBytes(of: word, toByteOffset: offset, as: UInt64.self)
                highBits |= word
                offset += 8
            }
            if offset < count, count >= 8 {
                // The last eight bytes, overlapping some already copied.
                let word = from.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
                to.storeBytes(of: word, toByteOffset: count - 8, as: UInt64.self)
                highBits |= word
                offset = count
            }
            while offset < count {
                let byte = from.load(fromByteOffset: offset, as: UInt8.self)
                to.storeBytes(of: byte, toByteOffset: offset, as: UInt8.self)
                highBits |= UInt64(byte)
                offset += 1
            }
            return highBits & 0x8080_8080_8080_8080 == 0
        }
        if isASCII == nil {
            _ = UnsafeMutableBufferPointer(rebasing: storage[..<count]).initialize(from: bytes)
        }
        length = count
        return isASCII
    }

    /// Lexes the text in `storage` from its start, placing it through `source`.
    private func restart(source: consuming RuleText, isASCII: Bool?) {
        scanner.reset(bytes: bytes, source: source, isASCII: isASCII)
        tokens.removeAll(keepingCapacity: true)
        finished = false
        lexedAhead = false
        abandonedAfterLexingAhead = false
    }

    /// Starts over on the same text, lexing on demand.
    func rewind() {
        scanner.rewind()
        tokens.removeAll(keepingCapacity: true)
        finished = false
        lexedAhead = false
        abandonedAfterLexingAhead = false
    }

    /// Lexes the whole text at once, in one loop, when it is at most `maximumLength` bytes long
    /// and lexes without a diagnostic; otherwise leaves the stream as it was (lexing on demand).
    ///
    /// A parser then reads exactly the tokens it would have read on demand: lexing does not
    /// depend on the parser, and with no lexer diagnostic the parser's error count is the same
    /// whenever it looks. The one difference is `abandon`, which on demand ends the tokens where
    /// the parser stopped reading; on tokens lexed ahead it only sets
    /// `abandonedAfterLexingAhead`, and the text must be parsed again after `rewind()`.
    /// Returns whether the text was lexed ahead.
    @discardableResult
    func lexAheadIfClean(maximumLength: Int) -> Bool {
        guard tokens.isEmpty, !finished, length <= maximumLength else { return false }
        scanner.lexToEnd(into: &tokens)
        finished = true
        guard scanner.diagnostics.isEmpty else {
            rewind()
            return false
        }
        lexedAhead = true
        return true
    }

    /// The text being lexed.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.baseAddress, count: length) }

    deinit {
        storage.deallocate()
    }

    /// How many tokens have been lexed.
    var lexedCount: Int { tokens.count }

    var comments: [RuleComment] { scanner.comments }
    var diagnostics: [Diagnostic] { scanner.diagnostics }
    /// Whether the lexer reported anything.
    var hasDiagnostics: Bool { !scanner.diagnostics.isEmpty }

    /// Token `index`; the end-of-file token for any index past the end.
    func token(_ index: Int) -> ScannedToken {
        if index < tokens.count { return tokens[index] }
        while tokens.count <= index, !finished { lexOne() }
        return tokens[min(index, tokens.count - 1)]
    }

    /// Token `index`, which has been lexed (`0 <= index < lexedCount`).
    func lexedToken(_ index: Int) -> ScannedToken {
        tokens[index]
    }

    /// The name of an identifier, quoted name or parameter; the contents of a string; "" for
    /// other tokens.
    func text(of token: ScannedToken) -> String { text(of: token.value) }

    /// The text a token's value refers to; "" for values of other kinds.
    ///
    /// Inlined: the parser asks for the text of nearly every name and string.
    @inline(__always)
    func text(of value: ScannedToken.Value) -> String {
        switch value {
        case .sourceText(let start, let end): return String(decoding: bytes[Int(start)..<Int(end)], as: UTF8.self)
        case .decodedText(let index): return scanner.texts[Int(index)]
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
        guard !finished else { return }
        scanner.lexToEnd(into: &tokens)
        finished = true
    }

    /// Stops lexing: the next token is the end of the text.
    func abandon() {
        if lexedAhead { abandonedAfterLexingAhead = true }
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
