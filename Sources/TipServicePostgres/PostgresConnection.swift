import CLibPQ
import TipRuntime

/// One connection to a PostgreSQL server through libpq. Statements with parameters are
/// prepared once per connection (cached by their SQL and parameter types) and run with binary
/// parameters and binary results, so values round-trip exactly. Failures are `PostgresError`
/// values carrying the server's SQLSTATE and message.
///
/// The C handle is only touched with its lock held, which is what makes the connection
/// `Sendable`; one connection still runs one statement at a time, so the store gives each
/// transaction a connection of its own (`PostgresConnectionPool`).
public final class PostgresConnection: Sendable {
    /// The open `PGconn`, owned by the connection and closed in its `deinit`.
    final class Handle {
        let pointer: OpaquePointer
        /// Prepared statement names by SQL and parameter types.
        var statements: [String: String] = [:]

        init(pointer: OpaquePointer) { self.pointer = pointer }

        deinit { PQfinish(pointer) }
    }

    private let handle: RuntimeLock<Handle>

    /// Connects to `url` (a `postgres://…` URL or a libpq `key=value` string).
    public init(url: String) throws(PostgresError) {
        guard let pointer = PQconnectdb(url) else {
            throw PostgresError(sqlState: "", message: "libpq could not allocate a connection", connectionLost: true)
        }
        let handle = Handle(pointer: pointer)
        guard PQstatus(pointer) == CONNECTION_OK else {
            throw PostgresError(sqlState: "", message: "cannot connect to PostgreSQL: \(Self.message(pointer))", connectionLost: true)
        }
        // Notices ("relation already exists, skipping") are not errors; keep them off stderr.
        PQsetNoticeProcessor(pointer, { _, _ in }, nil)
        self.handle = RuntimeLock(handle)
    }

    /// Whether the connection may be reused: it has not failed (the server went away) and no
    /// transaction is open or failed on it (a reader in autocommit must not land in one).
    public var isUsable: Bool {
        handle.withLock { PQstatus($0.pointer) == CONNECTION_OK && PQtransactionStatus($0.pointer) == PQTRANS_IDLE }
    }

    /// Runs `sql`, one or more statements without parameters (the simple query protocol).
    @discardableResult
    public func execute(_ sql: String) throws(PostgresError) -> PostgresResult {
        try handle.withLock { (handle: inout Handle) throws(PostgresError) -> PostgresResult in
            try Self.check(PQexec(handle.pointer, sql), on: handle.pointer)
        }
    }

    /// Runs one statement with `parameters` (`$1`, `$2`, …), preparing it the first time this
    /// connection sees it; returns its rows.
    @discardableResult
    public func query(_ sql: String, _ parameters: [PostgresValue] = []) throws(PostgresError) -> PostgresResult {
        try handle.withLock { (handle: inout Handle) throws(PostgresError) -> PostgresResult in
            let types = parameters.map(\.typeOID)
            let key = types.map { String($0) }.joined(separator: ",") + "|" + sql
            let name: String
            if let prepared = handle.statements[key] {
                name = prepared
            } else {
                name = "tipc_\(handle.statements.count + 1)"
                let result = types.withUnsafeBufferPointer { oids in
                    PQprepare(handle.pointer, name, sql, Int32(parameters.count), oids.baseAddress)
                }
                _ = try Self.check(result, on: handle.pointer)
                handle.statements[key] = name
            }
            return try Self.check(Self.executePrepared(handle.pointer, name, parameters), on: handle.pointer)
        }
    }

    /// Calls `PQexecPrepared` with every parameter in binary form, asking for binary results.
    private static func executePrepared(_ connection: OpaquePointer, _ name: String, _ parameters: [PostgresValue]) -> OpaquePointer? {
        // All parameters' bytes in one buffer; each parameter points into it (nil for NULL).
        let wire = parameters.map(\.wireBytes)
        var buffer: [CChar] = []
        var offsets: [Int] = []
        for bytes in wire {
            offsets.append(buffer.count)
            for byte in bytes ?? [] { buffer.append(CChar(bitPattern: byte)) }
        }
        buffer.append(0)  // never empty, so the base address exists
        let lengths = wire.map { Int32($0?.count ?? 0) }
        let formats = [Int32](repeating: 1, count: parameters.count)
        return buffer.withUnsafeBufferPointer { base -> OpaquePointer? in
            let values: [UnsafePointer<CChar>?] = wire.indices.map { index in
                wire[index] == nil ? nil : base.baseAddress! + offsets[index]
            }
            return PQexecPrepared(connection, name, Int32(parameters.count), values, lengths, formats, 1)
        }
    }

    /// The result when the statement succeeded; otherwise the server's (or libpq's) error.
    private static func check(_ result: OpaquePointer?, on connection: OpaquePointer) throws(PostgresError) -> PostgresResult {
        guard let result else {
            throw PostgresError(sqlState: "", message: message(connection), connectionLost: PQstatus(connection) != CONNECTION_OK)
        }
        let owned = PostgresResult(result)
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY:
            return owned
        default:
            let sqlState = PQresultErrorField(result, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            var text = String(cString: PQresultErrorMessage(result))
            if text.isEmpty { text = message(connection) }
            let lost = PQstatus(connection) != CONNECTION_OK || PostgresError.meansUnavailable(sqlState)
            throw PostgresError(sqlState: sqlState, message: trimmed(text), connectionLost: lost)
        }
    }

    private static func message(_ connection: OpaquePointer) -> String {
        trimmed(String(cString: PQerrorMessage(connection)))
    }

    /// libpq's messages end in a newline (and may carry a second, detail line).
    private static func trimmed(_ text: String) -> String {
        var text = text
        while let last = text.last, last.isWhitespace { text.removeLast() }
        if text.hasPrefix("ERROR:  ") { text.removeFirst("ERROR:  ".count) }
        return text.split(separator: "\n").map { $0.drop(while: \.isWhitespace) }.joined(separator: "; ")
    }
}
