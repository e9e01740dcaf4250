#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns the paths given on a command line into the list of source files they mean.
public enum SourceDiscovery {
    /// The extensions of manifest sources.
    public static let sourceExtensions: Set<String> = ["yaml", "yml", "tips"]

    /// Whether `path` names a timeline (`*.timeline.yaml`), which a folder search skips.
    public static func isTimeline(_ path: String) -> Bool {
        path.hasSuffix(".timeline.yaml") || path.hasSuffix(".timeline.yml")
    }

    public struct Failure: Error, Sendable, Hashable {
        public var path: String
        public var message: String
    }

    /// Files named by `paths`: a file is taken as it is; a folder means its `*.yaml`, `*.yml`
    /// and `*.tips` files (recursively, sorted, timelines skipped). A path that does not exist
    /// is a failure.
    public static func files(for paths: [String]) -> (files: [String], failures: [Failure]) {
        var files: [String] = []
        var failures: [Failure] = []
        var seen = Set<String>()
        let manager = FileManager.default
        for path in paths {
            var isDirectory = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                failures.append(Failure(path: path, message: "no such file or directory"))
                continue
            }
            if isDirectory {
                let base = path.hasSuffix("/") ? String(path.dropLast()) : path
                let found = ((try? manager.subpathsOfDirectory(atPath: path)) ?? [])
                    .filter { relative in
                        let ext = relative.split(separator: ".").last.map(String.init) ?? ""
                        return sourceExtensions.contains(ext) && !isTimeline(relative)
                            && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
                    }
                    .sorted()
                for relative in found {
                    let full = base + "/" + relative
                    if seen.insert(full).inserted { files.append(full) }
                }
            } else if seen.insert(path).inserted {
                files.append(path)
            }
        }
        return (files, failures)
    }
}
