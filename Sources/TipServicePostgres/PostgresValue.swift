/// A statement parameter, sent to the server in binary form so that it arrives exactly as
/// given: strings the runtime stores go as `bytea` of their UTF-8 (a PostgreSQL `text` cannot
/// hold U+0000), integers as `bigint`.
public enum PostgresValue: Sendable, Hashable {
    case null
    case bigint(Int64)
    case bytea([UInt8])
    /// Text for the server's own identifiers and keywords (ASCII); user data goes as `utf8`.
    case text(String)

    /// A string as `bytea` of its UTF-8: every string round-trips, U+0000 included.
    public static func utf8(_ string: String) -> PostgresValue { .bytea(Array(string.utf8)) }

    /// The type's OID (`pg_type`), so the server need not guess it; 0 lets it infer one (null).
    var typeOID: UInt32 {
        switch self {
        case .null: return 0
        case .bigint: return 20
        case .bytea: return 17
        case .text: return 25
        }
    }

    /// The binary wire form; nil for SQL NULL.
    var wireBytes: [UInt8]? {
        switch self {
        case .null: return nil
        case .bigint(let value): return withUnsafeBytes(of: value.bigEndian) { Array($0) }
        case .bytea(let bytes): return bytes
        case .text(let text): return Array(text.utf8)
        }
    }
}
