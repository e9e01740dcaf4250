/// The API keys (`--keys FILE`): lines `client|admin SHA256-HEX [name]`, `#` comments and
/// blank lines allowed. The file holds the SHA-256 of each token, never the token.
public struct ServiceKeys: Sendable {
    public enum Role: String, Sendable { case client, admin }

    public struct Key: Sendable {
        public var role: Role
        public var name: String
    }

    /// By the token's digest (lowercase hex).
    let keys: [String: Key]

    /// Parses a keys file's text; a malformed line is an error naming it.
    public init(text: String, file: String = "keys") throws(ListenError) {
        var keys: [String: Key] = [:]
        for (offset, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" })
            guard let first = fields.first, !first.hasPrefix("#") else { continue }
            guard let role = Role(rawValue: String(first)) else {
                throw ListenError("\(file):\(offset + 1): a key line starts with 'client' or 'admin', not '\(first)'")
            }
            guard fields.count >= 2, fields[1].count == 64, fields[1].allSatisfy({ $0.isHexDigit }) else {
                throw ListenError("\(file):\(offset + 1): expected the SHA-256 of the token as 64 hex digits after '\(first)'")
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
