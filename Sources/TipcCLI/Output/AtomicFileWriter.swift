#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Replaces a file's contents atomically: the bytes go to a temporary file in the same folder,
/// which then takes the file's place by `rename`, so a reader sees the old or the new file,
/// never half of one. An existing file's permissions are kept.
enum AtomicFileWriter {
    struct Failure: Error, Sendable {
        var message: String
    }

    /// Why a file cannot be created in `folder`.
    static func reason(folder: String) -> String {
        var isDirectory = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory) else { return "no such directory '\(folder)'" }
        guard isDirectory else { return "'\(folder)' is not a directory" }
        return FileManager.default.isWritableFile(atPath: folder) ? "the file could not be created" : "permission denied"
    }

    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + ".\(name).\(UUID().uuidString).tmp"
        let manager = FileManager.default
        var isDirectory = false
        if manager.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory {
            throw Failure(message: "cannot write '\(path)': is a directory")
        }
        let permissions = (try? manager.attributesOfItem(atPath: path))?[.posixPermissions]
        guard manager.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw Failure(message: "cannot write '\(path)': \(reason(folder: folder.isEmpty ? "." : folder))")
        }
        if let permissions {
            try? manager.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary)
        }
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            try? manager.removeItem(atPath: temporary)
            throw Failure(message: "cannot replace '\(path)': \(reason)")
        }
    }
}
