import TipRuntime

/// A small pool of connections to one database: a transaction takes an idle connection (or
/// opens one) and gives it back when it ends, so each worker thread works on a connection of
/// its own and idle ones are reused. A connection that failed is closed, never given back.
final class PostgresConnectionPool: Sendable {
    let url: String
    /// Run on every new connection (session settings such as `lock_timeout`).
    let setup: String
    /// Idle connections kept beyond this many are closed (the service's worker threads bound
    /// how many are in use at once).
    let maximumIdle: Int
    private let idle: RuntimeLock<[PostgresConnection]>

    init(url: String, setup: String, maximumIdle: Int = 64) {
        self.url = url
        self.setup = setup
        self.maximumIdle = maximumIdle
        idle = RuntimeLock([])
    }

    /// An idle connection (`reused` true: it may have gone stale while idle, as when the
    /// server restarted) or a new one.
    func take() throws(PostgresError) -> (connection: PostgresConnection, reused: Bool) {
        if let connection = idle.withLock({ $0.popLast() }) { return (connection, true) }
        return (try connect(), false)
    }

    /// A new connection, whatever is idle.
    func connect() throws(PostgresError) -> PostgresConnection {
        let connection = try PostgresConnection(url: url)
        try connection.execute(setup)
        return connection
    }

    /// Gives back a connection after a transaction ended (committed or rolled back); a failed
    /// one is closed.
    func giveBack(_ connection: PostgresConnection) {
        guard connection.isUsable else { return }
        idle.withLock { connections in
            if connections.count < maximumIdle { connections.append(connection) }
        }
    }

    /// Closes every idle connection: after one was found broken, the others (opened to the
    /// same server before it went away) are too.
    func closeIdle() {
        let closed = idle.withLock { connections -> [PostgresConnection] in
            defer { connections.removeAll() }
            return connections
        }
        _ = closed  // released outside the lock
    }
}
