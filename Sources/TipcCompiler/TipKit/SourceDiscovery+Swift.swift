#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Swift sources (SPEC §8): the `*.swift` files under one folder given as a path, recursively,
/// form one module and one program of their own, apart from the manifests beside them; Swift
/// files named explicitly form one program together.
extension SourceDiscovery {
    static func swiftProgram(under folder: String, _ manager: FileManager, seen: inout Set<String>) -> [[String]] {
        let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        let found = ((try? manager.subpathsOfDirectory(atPath: folder)) ?? []).filter { relative in
            TipKitImporter.isSwift(relative) && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
        }
        var files: [String] = []
        for relative in found.sorted() {
            let full = base + "/" + relative
            if seen.insert(full).inserted { files.append(full) }
        }
        return files.isEmpty ? [] : [files]
    }
}
