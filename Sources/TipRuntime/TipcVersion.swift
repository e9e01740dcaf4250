/// The version of tipc, in one place: `tipc --version` prints it, every pack `tipc compile`
/// writes names it as its producer, and the tip service's `/healthz` reports it. Semantic
/// Versioning; CHANGELOG.md says what each version holds.
public enum TipcVersion {
    /// This build's version, `MAJOR.MINOR.PATCH`.
    public static let current = "0.1.0"
    /// The producer string written into packs: `tipc VERSION`.
    package static var producer: String { "tipc \(current)" }
}
