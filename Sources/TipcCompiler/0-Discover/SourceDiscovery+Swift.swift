#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Swift sources: the `*.swift` files under one folder given as a path, recursively,
/// form one module and one program of their own, apart from the manifests beside them; Swift
/// files named explicitly form one program together.
extension SourceDiscovery {
    /// The program of the Swift files `found` (relative to `base`, sorted) by a folder walk.
    static func swiftProgram(base: String, files found: [String], seen: inout Set<String>) -> [[String]] {
        var files: [String] = []
        for relative in found {
            let full = base + "/" + relative
            if seen.insert(full).inserted { files.append(full) }
        }
        return files.isEmpty ? [] : [files]
    }
}
