import CLibPQ

/// The rows of one statement, read in binary form; owns the `PGresult` and frees it in
/// `deinit`. Accessors take 0-based row and column numbers in the statement's column order.
public final class PostgresResult {
    private let pointer: OpaquePointer

    init(_ pointer: OpaquePointer) { self.pointer = pointer }

    deinit { PQclear(pointer) }

    public var count: Int { Int(PQntuples(pointer)) }

    /// Rows a command changed (`INSERT`, `UPDATE`, `DELETE`); 0 for others.
    public var affectedRows: Int { Int(String(cString: PQcmdTuples(pointer))) ?? 0 }

    /// The command tag (`COMMIT`, or `ROLLBACK` when a failed transaction was ended by COMMIT).
    public var commandStatus: String { String(cString: PQcmdStatus(pointer)) }

    public func isNull(_ row: Int, _ column: Int) -> Bool {
        PQgetisnull(pointer, Int32(row), Int32(column)) != 0
    }

    /// The raw binary value (a `bytea`'s bytes, a `text`'s UTF-8); empty for NULL.
    public func bytes(_ row: Int, _ column: Int) -> [UInt8] {
        let length = Int(PQgetlength(pointer, Int32(row), Int32(column)))
        guard length > 0, let start = PQgetvalue(pointer, Int32(row), Int32(column)) else { return [] }
        return start.withMemoryRebound(to: UInt8.self, capacity: length) { Array(UnsafeBufferPointer(start: $0, count: length)) }
    }

    /// A string stored as `bytea` of UTF-8 (or as `text`); nil for NULL or bytes that are not
    /// UTF-8.
    public func string(_ row: Int, _ column: Int) -> String? {
        if isNull(row, column) { return nil }
        return String(validating: bytes(row, column), as: UTF8.self)
    }

    /// An integer column (`bigint`, `integer` or `smallint`); nil for NULL.
    public func int64(_ row: Int, _ column: Int) -> Int64? {
        if isNull(row, column) { return nil }
        var value: Int64 = 0
        var width = 0
        for byte in bytes(row, column) {
            value = value << 8 | Int64(byte)
            width += 1
        }
        // Sign-extend the narrower integer types.
        return width >= 8 ? value : (value << (64 - 8 * width)) >> (64 - 8 * width)
    }
}
