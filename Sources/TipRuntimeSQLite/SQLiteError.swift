import CSQLite

/// A failure reported by SQLite, with its result code and message.
package struct SQLiteError: Error, Sendable, Hashable, CustomStringConvertible {
    /// SQLite's (extended) result code.
    package var code: Int32
    /// SQLite's message for the failure (`sqlite3_errmsg`, else the result code's generic text).
    package var message: String
    /// What we were doing (the statement, or "open").
    package var context: String

    /// A failure with result code `code` and message `message`, met while doing `context`.
    package init(code: Int32, message: String, context: String) {
        self.code = code
        self.message = message
        self.context = context
    }

    init(handle: OpaquePointer?, code: Int32, context: String) {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
        self.init(code: code, message: message, context: context)
    }

    /// The primary result code (`SQLITE_BUSY`, `SQLITE_CORRUPT`, …).
    package var primaryCode: Int32 { code & 0xFF }

    /// Whether another connection holds a lock (`SQLITE_BUSY`, `SQLITE_LOCKED`): a later try
    /// may work.
    package var isBusy: Bool { primaryCode == SQLITE_BUSY || primaryCode == SQLITE_LOCKED }
    /// Whether the file is damaged or is not a database (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    package var isCorrupt: Bool { primaryCode == SQLITE_CORRUPT || primaryCode == SQLITE_NOTADB }
    /// Whether the file cannot be opened or written (`SQLITE_READONLY`, `SQLITE_CANTOPEN`,
    /// `SQLITE_PERM`).
    package var isReadOnly: Bool { primaryCode == SQLITE_READONLY || primaryCode == SQLITE_CANTOPEN || primaryCode == SQLITE_PERM }

    package var description: String { "\(message) (SQLite code \(code), \(context))" }
}
