#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns the paths given on a command line into the programs they mean.
///
/// Files named explicitly form one program together. A folder is searched recursively for
/// `*.yaml`, `*.yml` and `*.tips` files (timelines, `*.timeline.yaml`, and hidden entries
/// skipped), and the files of each folder form a program of their own, so that one
/// repository can hold several apps' manifests side by side.
public enum SourceDiscovery {
    /// The extensions of manifest sources.
    public static let sourceExtensions: Set<String> = ["yaml", "yml", "tips"]

    /// Whether `path` names a timeline (`*.timeline.yaml`), which a folder search skips.
    public static func isTimeline(_ path: String) -> Bool {
        path.hasSuffix(".timeline.yaml") || path.hasSuffix(".timeline.yml")
    }

    /// Whether `path` has a source extension.
    public static func isSource(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return sourceExtensions.contains(String(path[path.index(after: dot)...]))
    }

    public struct Failure: Error, Sendable, Hashable {
        public var path: String
        public var message: String
    }

    /// The programs named by `paths`, each a list of files in a stable order; a path that does
    /// not exist is a failure.
    public static func programs(for paths: [String]) -> (programs: [[String]], failures: [Failure]) {
        var explicitFiles: [String] = []
        var byFolder: [String: [String]] = [:]
        var failures: [Failure] = []
        var seen = Set<String>()
        var explicitSwift: [String] = []
        var swiftPrograms: [[String]] = []
        let manager = FileManager.default
        for path in paths {
            var isDirectory = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                failures.append(Failure(path: path, message: "no such file or directory"))
                continue
            }
            guard isDirectory else {
                if seen.insert(path).inserted {
                    if TipKitImporter.isSwift(path) { explicitSwift.append(path) } else { explicitFiles.append(path) }
                }
                continue
            }
            swiftPrograms += swiftProgram(under: path, manager, seen: &seen)
            let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            let found = ((try? manager.subpathsOfDirectory(atPath: path)) ?? []).filter { relative in
                isSource(relative) && !isTimeline(relative) && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
            }
            for relative in found {
                let full = base + "/" + relative
                guard seen.insert(full).inserted else { continue }
                let folder = full.lastIndex(of: "/").map { String(full[..<$0]) } ?? "."
                byFolder[folder, default: []].append(full)
            }
        }
        var programs: [[String]] = explicitFiles.isEmpty ? [] : [explicitFiles]
        for folder in byFolder.keys.sorted() {
            programs.append(byFolder[folder]!.sorted())
        }
        if !explicitSwift.isEmpty { programs.append(explicitSwift) }
        return (programs + swiftPrograms, failures)
    }
}
