import TipRuntime

/// The pack the service evaluates: verified, with its bytes (what `GET /v1/pack` sends) and
/// their ETag (the SHA-256 of the bytes).
public struct ServicePack: Sendable {
    public let verified: VerifiedRulePack
    /// The pack prepared once for the runtime every request opens.
    package let prepared: PreparedRulePack
    public let bytes: [UInt8]
    public let etag: String

    /// Verifies `bytes` as a rule pack.
    public init(bytes: [UInt8]) throws(RulePackError) {
        verified = try RulePackLoader.decode(bytes)
        prepared = PreparedRulePack(verified)
        self.bytes = bytes
        etag = "\"" + SHA256.hex(bytes) + "\""
    }

    /// A pack compiled in memory (from manifests), encoded for `GET /v1/pack` as `tipc compile`
    /// writes it (without source positions).
    public init(verified: VerifiedRulePack) {
        self.verified = verified
        prepared = PreparedRulePack(verified)
        bytes = RulePackWriter.encode(verified.pack.withoutSourcePositions)
        etag = "\"" + SHA256.hex(bytes) + "\""
    }

    public var pack: RulePack { verified.pack }
}
