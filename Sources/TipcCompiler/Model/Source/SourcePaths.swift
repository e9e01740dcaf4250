import TipRuntime

/// The paths of the files source ranges point into, each stored once and named by a number.
///
/// A `SourceRange` is copied into every syntax-tree node, checked expression and YAML node; a
/// 32-bit number instead of the path keeps it at 20 bytes and free of reference counting (a
/// path longer than 15 bytes is a heap string, retained and released with every copy). The
/// table only grows: a process checks a bounded set of files. Locked with the runtime's
/// `RuntimeLock`, not `Synchronization.Mutex`: the compiler runs on the build machine from the
/// package's oldest declared macOS on (the build plugin), older than `Mutex`.
enum SourcePaths {
    private struct Table {
        var numbers: [String: UInt32] = [:]
        var paths: [String] = []
    }

    private static let table = RuntimeLock(Table())

    /// The number of `path`, registering it the first time.
    static func number(of path: String) -> UInt32 {
        table.withLock { table in
            if let number = table.numbers[path] { return number }
            let number = UInt32(table.paths.count)
            table.paths.append(path)
            table.numbers[path] = number
            return number
        }
    }

    /// The path registered as `number`.
    static func path(_ number: UInt32) -> String {
        table.withLock { table in table.paths[Int(number)] }
    }
}
