/// The parser's tokens: a copy of the text, lexed on demand by the parser's `RuleLexer`, each
/// token with the file position of its start and end.
///
/// On demand, so that a parser that gives up on an over-large rule does not lex the rest.
/// Positions are those `RuleText.location(atUTF8Offset:)` gives (see `TokenLocationCursor`).
extension RuleParser {
    /// The text being parsed.
    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: storage.bytes.baseAddress, count: length) }

    /// A text copied for the lexer, freed with the last parser that holds it.
    final class TextCopy {
        let bytes: UnsafeMutableBufferPointer<UInt8>

        init(capacity: Int) {
            bytes = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: capacity)
        }

        deinit {
            bytes.deallocate()
        }
    }

    /// Copies `bytes` into `storage`; returns whether they are all ASCII when that was found
    /// while copying (nil when not looked at).
    mutating func copyText<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> Bool? {
        let count = bytes.count
        // A copy of this parser may still read the old text: a new one is written then too.
        if count > storage.bytes.count || !isKnownUniquelyReferenced(&storage) {
            storage = TextCopy(capacity: max(count, 2 * storage.bytes.count))
        }
        let storage = self.storage.bytes
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
    mutating func restartLexing(source: consuming RuleText, isASCII: Bool?) {
        lexer.reset(bytes: bytes, source: source, isASCII: isASCII)
        forgetTokens()
    }

    /// Drops the tokens lexed so far (keeping their memory).
    mutating func forgetTokens() {
        tokens.removeAll(keepingCapacity: true)
        lexedAll = false
        lexedAhead = false
        abandonedAfterLexingAhead = false
    }

    /// Lexes the whole text at once, in one loop, when it is at most `maximumLength` bytes long
    /// and lexes without a diagnostic; otherwise leaves the tokens as they were (lexing on demand).
    ///
    /// A parser then reads exactly the tokens it would have read on demand: lexing does not
    /// depend on the parser, and with no lexer diagnostic the parser's error count is the same
    /// whenever it looks. The one difference is `abandonLexing`, which on demand ends the tokens
    /// where the parser stopped reading; on tokens lexed ahead it only sets
    /// `abandonedAfterLexingAhead`, and the text must be parsed again after `rewind()`.
    /// Returns whether the text was lexed ahead.
    @discardableResult
    mutating func lexAheadIfClean(maximumLength: Int) -> Bool {
        guard tokens.isEmpty, !lexedAll, length <= maximumLength else { return false }
        lexer.lexToEnd(into: &tokens)
        lexedAll = true
        guard lexer.diagnostics.isEmpty else {
            lexer.rewind()
            forgetTokens()
            return false
        }
        lexedAhead = true
        return true
    }

    /// How many tokens have been lexed.
    var lexedCount: Int { tokens.count }

    /// Token `index`; the end-of-file token for any index past the end.
    ///
    /// Inlined: the parser looks at each token several times. Lexing on demand is kept out of
    /// line, so that the usual case, a token already lexed, stays small enough to inline.
    @inline(__always)
    mutating func token(_ index: Int) -> ScannedToken {
        if index < tokens.count { return tokens[index] }
        return lexToken(index)
    }

    /// `token(_:)` for a token not lexed yet.
    @inline(never)
    private mutating func lexToken(_ index: Int) -> ScannedToken {
        while tokens.count <= index, !lexedAll { appendToken(lexer.next()) }
        return tokens[min(index, tokens.count - 1)]
    }

    /// Token `index`, which has been lexed (`0 <= index < lexedCount`).
    @inline(__always)
    mutating func lexedToken(_ index: Int) -> ScannedToken {
        tokens[index]
    }

    /// Lexes everything that is left.
    mutating func lexToEnd() {
        guard !lexedAll else { return }
        lexer.lexToEnd(into: &tokens)
        lexedAll = true
    }

    /// Stops lexing: the next token is the end of the text.
    mutating func abandonLexing() {
        if lexedAhead { abandonedAfterLexingAhead = true }
        guard !lexedAll else { return }
        appendToken(lexer.endOfText())
    }

    private mutating func appendToken(_ token: ScannedToken) {
        tokens.append(token)
        if token.kind == .endOfFile { lexedAll = true }
    }

    // MARK: - Cursor

    // Inlined, like `token(_:)`: the parser looks at the current token everywhere.
    @inline(__always)
    var current: ScannedToken { mutating get { token(index) } }
    /// The kind of the current token.
    @inline(__always)
    var currentKind: RuleTokenKind { mutating get { token(index).kind } }
    /// The keyword the current token spells (see `ScannedToken.keyword`).
    @inline(__always)
    var currentKeyword: RuleKeyword? { mutating get { token(index).keyword } }
    /// Whether a line break precedes the current token.
    @inline(__always)
    var currentIsAtLineStart: Bool { mutating get { token(index).isAtLineStart } }
    @inline(__always)
    var isAtEnd: Bool { mutating get { currentKind == .endOfFile } }

    mutating func token(after offset: Int) -> ScannedToken { token(index + offset) }

    /// Moves past the current token (never past the end) and returns it.
    @discardableResult
    @inline(__always)
    mutating func advance() -> ScannedToken {
        let token = current
        if token.kind != .endOfFile { index += 1 }
        return token
    }

    /// Moves past the current token (never past the end).
    @inline(__always)
    mutating func skipToken() {
        if currentKind != .endOfFile { index += 1 }
    }

    /// `skipToken()` where the current token is known not to be the end of the text (its kind
    /// was just read), without reading it again.
    @inline(__always)
    mutating func stepPastCurrent() {
        index += 1
    }

    /// The name of an identifier, quoted name or parameter; the contents of a string.
    mutating func text(of token: ScannedToken) -> String { lexer.text(of: token.value) }

    /// The text a token's value refers to (see `RuleLexer.text(of:)`).
    @inline(__always)
    mutating func text(of value: ScannedToken.Value) -> String { lexer.text(of: value) }

    /// Whether the current token is the plain identifier `word` (declaration words, which
    /// are not `RuleKeyword`s, included).
    mutating func isAtWord(_ word: StaticString) -> Bool {
        let token = current
        guard token.kind == .identifier, token.end - token.start == word.utf8CodeUnitCount else { return false }
        return word.withUTF8Buffer { $0.elementsEqual(bytes[token.start..<token.end]) }
    }
}
