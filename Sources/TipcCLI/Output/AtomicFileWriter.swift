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

    static func write(_ bytes: [UInt8], to path: String) throws(Failure) {
        let folder = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let temporary = folder + ".\(name).\(UUID().uuidString).tmp"
        let manager = FileManager.default
        let permissions = (try? manager.attributesOfItem(atPath: path))?[.posixPermissions]
        guard manager.createFile(atPath: temporary, contents: Data(bytes)) else {
            throw Failure(message: "cannot write '\(temporary)'")
        }
        if let permissions {
            try? manager.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary)
        }
        guard rename(temporary, path) == 0 else {
            try? manager.removeItem(atPath: temporary)
            throw Failure(message: "cannot replace '\(path)'")
        }
    }
}
