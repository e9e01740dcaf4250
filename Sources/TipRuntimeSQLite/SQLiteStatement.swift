import CSQLite

/// A value bound to, or read from, an SQL statement.
package enum SQLiteValue: Sendable, Hashable {
    case null
    case integer(Int)
    case real(Double)
    case text(String)
    case blob([UInt8])
}

/// A prepared statement. Only used while its connection's lock is held; reset after each use
/// so it can be reused.
final class SQLiteStatement {
    let handle: OpaquePointer
    let sql: String
    private unowned let connection: SQLiteConnection.Handle

    init(connection: SQLiteConnection.Handle, sql: String) throws(SQLiteError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v3(connection.pointer, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard code == SQLITE_OK, let statement else {
            throw SQLiteError(handle: connection.pointer, code: code, context: sql)
        }
        self.handle = statement
        self.sql = sql
        self.connection = connection
    }

    deinit {
        sqlite3_finalize(handle)
    }

    /// Binds `values` to the parameters `?1…?n`.
    func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32
            switch value {
            case .null: code = sqlite3_bind_null(handle, index)
            case .integer(let int): code = sqlite3_bind_int64(handle, index, Int64(int))
            case .real(let double): code = sqlite3_bind_double(handle, index, double)
            case .text(let text):
                // By byte length, so a U+0000 inside the text is kept.
                var text = text
                code = text.withUTF8 { bytes in
                    bytes.withMemoryRebound(to: CChar.self) { chars in
                        guard let start = chars.baseAddress else { return sqlite3_bind_text(handle, index, "", 0, SQLiteStatement.transient) }
                        return sqlite3_bind_text(handle, index, start, Int32(chars.count), SQLiteStatement.transient)
                    }
                }
            case .blob(let bytes):
                code = bytes.withUnsafeBytes { buffer in
                    sqlite3_bind_blob(handle, index, buffer.baseAddress, Int32(buffer.count), SQLiteStatement.transient)
                }
            }
            guard code == SQLITE_OK else { throw SQLiteError(handle: connection.pointer, code: code, context: sql) }
        }
    }

    /// Advances to the next row; false when done.
    func step() throws(SQLiteError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            sqlite3_reset(handle)
            throw SQLiteError(handle: connection.pointer, code: code, context: sql)
        }
    }

    func reset() {
        sqlite3_reset(handle)
    }

    func column(_ index: Int32) -> SQLiteValue {
        switch sqlite3_column_type(handle, index) {
        case SQLITE_INTEGER: return .integer(Int(sqlite3_column_int64(handle, index)))
        case SQLITE_FLOAT: return .real(sqlite3_column_double(handle, index))
        case SQLITE_TEXT: return .text(text(index))
        case SQLITE_BLOB:
            let count = Int(sqlite3_column_bytes(handle, index))
            guard count > 0, let pointer = sqlite3_column_blob(handle, index) else { return .blob([]) }
            return .blob(Array(UnsafeRawBufferPointer(start: pointer, count: count)))
        default: return .null
        }
    }

    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    func text(_ index: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, index) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, index))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    /// SQLITE_TRANSIENT: SQLite copies the bound bytes.
    static let transient = unsafeBitCast(OpaquePointer(bitPattern: -1), to: sqlite3_destructor_type.self)
}
