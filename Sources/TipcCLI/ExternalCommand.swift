#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A subcommand that is an executable of its own, installed beside `tipc`: `tipc serve …`
/// runs `tipc-serve …` in its place, as git runs its subcommands. The tip service links
/// libmicrohttpd and libpq; keeping it out of `tipc` means checking and compiling need neither.
public struct ExternalCommand: Sendable, Hashable {
    /// The subcommand's name (`serve`).
    public var name: String
    /// One line for the root help's subcommand list.
    public var abstract: String
    /// The executable's file name, looked for in the folder of the running `tipc`.
    public var executable: String

    public init(name: String, abstract: String, executable: String) {
        self.name = name
        self.abstract = abstract
        self.executable = executable
    }

    /// Replaces this process with the executable, given `arguments`; returns only when it
    /// cannot: then it has printed why, and the status says so.
    func launch(_ arguments: [String], programName: String, context: CommandContext) -> ExitCode {
        guard let folder = context.executableFolder else {
            context.standardError.write("error: '\(programName) \(name)' runs '\(executable)', which is not installed beside \(programName)\n")
            return .usageOrIOError
        }
        let path = folder + "/" + executable
        guard access(path, X_OK) == 0 else {
            context.standardError.write("""
                error: '\(programName) \(name)' runs '\(executable)', which is not installed beside \(programName) (no '\(path)')
                help: install '\(executable)' in the same folder as '\(programName)' (the release archive holds both), or build it: swift build --product \(executable)

                """)
            return .usageOrIOError
        }
        var argv: [UnsafeMutablePointer<CChar>?] = ([path] + arguments).map { strdup($0) } + [nil]
        execv(path, &argv)
        let reason = String(cString: strerror(errno))
        for pointer in argv { free(pointer) }
        context.standardError.write("error: cannot run '\(path)': \(reason)\n")
        return .usageOrIOError
    }

    /// The folder of the running executable (the target of `/proc/self/exe` on Linux), or nil
    /// when it cannot be told.
    public static func runningExecutableFolder() -> String? {
        #if os(Linux)
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let length = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard length > 0 else { return nil }
        let path = String(decoding: buffer[..<length].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        #elseif canImport(Darwin)
        var size = UInt32(0)
        _NSGetExecutablePath(nil, &size)
        var buffer = [CChar](repeating: 0, count: Int(size) + 1)
        guard _NSGetExecutablePath(&buffer, &size) == 0, let resolved = realpath(buffer, nil) else { return nil }
        let path = String(cString: resolved)
        free(resolved)
        #else
        return nil
        #endif
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
