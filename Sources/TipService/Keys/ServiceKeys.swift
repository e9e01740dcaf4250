import TipRuntime

/// The API keys (`--keys FILE`): lines `client|admin SHA256-HEX [name]`, `#` comments and
/// blank lines allowed, ended by LF, CRLF or a lone CR. The file holds the SHA-256 of each
/// token, never the token. No message, at start or to a client, quotes the file: an error
/// names the line by number only, so neither a digest nor a name reaches a log or a client.
public struct ServiceKeys: Sendable {
    public enum Role: String, Sendable { case client, admin }

    public struct Key: Sendable {
        public var role: Role
        public var name: String
    }

    /// By the token's digest (lowercase hex).
    let keys: [String: Key]

    /// Parses a keys file's text; a malformed line is an error giving its number.
    public init(text: String, file: String = "keys") throws(ListenError) {
        var keys: [String: Key] = [:]
        // `isNewline` holds for "\n", a lone "\r" and "\r\n" (one `Character`), so every
        // ending splits the same way.
        for (offset, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            guard let role = Role(rawValue: String(first)) else {
                throw ListenError("\(file):\(offset + 1): a key line starts with 'client' or 'admin'")
            }
            guard fields.count >= 2, fields[1].count == 64, fields[1].allSatisfy({ $0.isHexDigit }) else {
                throw ListenError("\(file):\(offset + 1): expected the SHA-256 of the token as 64 hex digits after '\(role.rawValue)'")
            }
            keys[fields[1].lowercased()] = Key(role: role, name: fields.dropFirst(2).joined(separator: " "))
        }
        guard !keys.isEmpty else { throw ListenError("\(file): no keys (lines 'client|admin SHA256-HEX [name]')") }
        self.keys = keys
    }

    /// The key a request's `Authorization: Bearer TOKEN` header presents, if it is one.
    public func key(authorization: String?) -> Key? {
        guard let authorization, authorization.count > 7, authorization.prefix(7).lowercased() == "bearer " else { return nil }
        let token = authorization.dropFirst(7).drop { $0 == " " }
        return keys[SHA256.hex(Array(token.utf8))]
    }
}
