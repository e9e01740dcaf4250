/// Why a rule pack was refused: a kind, a message saying what is wrong, and the byte offset in
/// the pack where it was found.
public struct RulePackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the pack; the raw value is the name shown in the error's description.
    public enum Kind: String, Sendable, Hashable {
        /// Not a rule pack, or damaged by a text-mode transfer (line endings, high bit).
        case badMagic = "bad-magic"
        /// Written for a format version this runtime does not read, or with unknown flags.
        case unsupportedVersion = "unsupported-version"
        /// The test integer or test double does not read back: byte-order or float-format mismatch.
        case incompatibleEncoding = "incompatible-encoding"
        /// The pack ends before its data does.
        case truncated
        /// The body does not match its checksum.
        case checksumMismatch = "checksum-mismatch"
        /// A table or value is malformed (bad length, bad UTF-8, unknown type code, trailing bytes).
        case malformed
        /// An index refers to nothing (string, parameter, event, field, tip).
        case indexOutOfBounds = "index-out-of-bounds"
        /// The bytecode of a rule is not well formed or not well typed.
        case invalidBytecode = "invalid-bytecode"
        /// A documented size limit is exceeded.
        case limitExceeded = "limit-exceeded"
        /// Two parameters, events, tips or groups share a name, two fields of one event, or two
        /// actions of one tip (the runtime finds each by its name).
        case duplicateName = "duplicate-name"
    }

    /// What is wrong with the pack.
    public var kind: Kind
    /// What is wrong, for a person to read.
    public var message: String
    /// Byte offset of the problem.
    public var offset: Int

    package init(_ kind: Kind, _ message: String, offset: Int) {
        self.kind = kind
        self.message = message
        self.offset = offset
    }

    public var description: String { "invalid rule pack at byte \(offset): \(message) [\(kind.rawValue)]" }
}
