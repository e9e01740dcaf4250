/// A failure reported by libpq or by the PostgreSQL server, as a value: the SQLSTATE code
/// (empty when libpq failed before the server answered) and the message.
public struct PostgresError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The five-character SQLSTATE (`23505`, `08006`, …); empty for a client-side failure.
    public var sqlState: String
    public var message: String
    /// True when the connection is gone (refused, broken, or the server shutting down): the
    /// statement's outcome is then unknown and the connection is not to be reused.
    public var connectionLost: Bool

    public init(sqlState: String, message: String, connectionLost: Bool) {
        self.sqlState = sqlState
        self.message = message
        self.connectionLost = connectionLost
    }

    public var description: String {
        sqlState.isEmpty ? message : "\(message) (SQLSTATE \(sqlState))"
    }

    /// SQLSTATE classes and codes that mean the server cannot be used now: connection
    /// exceptions (class 08), shutdown and start-up (57P01–57P03), and too many connections.
    static func meansUnavailable(_ sqlState: String) -> Bool {
        sqlState.hasPrefix("08") || ["57P01", "57P02", "57P03", "53300"].contains(sqlState)
    }
}
