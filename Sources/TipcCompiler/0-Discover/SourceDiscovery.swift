#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns the paths given on a command line into the programs they mean. Every command groups
/// files this way.
///
/// The files of one folder form one program, whether the folder is given (it is searched
/// recursively, each of its folders a program of its own) or its files one by one: so
/// `tipc check Examples/*/*.yaml` and `tipc check Examples` agree. Timelines
/// (`*.timeline.yaml`) are never manifests, named or found. A YAML file found while walking a
/// folder whose text has no top-level `tipkit` key (a `docker-compose.yml`) is skipped; named
/// explicitly, it is checked (and its missing `tipkit` is an error). Hidden entries are not
/// walked into. `-` stands for standard input and is left to the caller.
public enum SourceDiscovery {
    /// The extensions of manifest sources.
    public static let sourceExtensions: Set<String> = ["yaml", "yml", "tips"]

    /// The path that means standard input.
    public static let standardInputPath = "-"

    /// Whether `path` names a timeline (`*.timeline.yaml`), which is never a manifest.
    public static func isTimeline(_ path: String) -> Bool {
        path.hasSuffix(".timeline.yaml") || path.hasSuffix(".timeline.yml")
    }

    /// Whether `path` has a source extension.
    public static func isSource(_ path: String) -> Bool {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return false }
        return sourceExtensions.contains(String(path[path.index(after: dot)...]))
    }

    /// Whether `path` is a Swift source (read by the TipKit bridge).
    public static func isSwift(_ path: String) -> Bool { path.hasSuffix(".swift") }

    /// Whether `path` is a YAML file (as opposed to a `.tips` file).
    public static func isYAML(_ path: String) -> Bool {
        path.hasSuffix(".yaml") || path.hasSuffix(".yml")
    }

    public struct Failure: Error, Sendable, Hashable {
        public var path: String
        public var message: String
    }

    /// What `discover` found.
    public struct Discovery: Sendable {
        /// Each program's files, in a stable order (by folder, then by path).
        public var programs: [[String]]
        /// Paths that do not exist.
        public var failures: [Failure]
        /// YAML files met while walking a folder that are not manifests (no top-level `tipkit`).
        public var skipped: [String]
        /// Whether `-` (standard input) was among the paths.
        public var readsStandardInput: Bool
    }

    /// The programs named by `paths`; `includeFound` decides, for each file met while walking
    /// a folder, whether it is kept (a configuration's `include`/`exclude`); files named
    /// explicitly are always kept.
    public static func discover(_ paths: [String], includeFound: (String) -> Bool = { _ in true }) -> Discovery {
        var byFolder: [String: [(key: String, path: String)]] = [:]
        var failures: [Failure] = []
        var skipped: [String] = []
        var readsStandardInput = false
        var seen = Set<String>()
        // Swift (TipKit) files: those named together form one program, and those under one
        // folder given form one program of their own, apart from the manifests beside them.
        var explicitSwift: [String] = []
        var swiftPrograms: [[String]] = []
        let manager = FileManager.default

        func add(_ path: String) {
            let key = absolute(path)
            guard seen.insert(key).inserted else { return }
            let folder = key.lastIndex(of: "/").map { String(key[..<$0]) } ?? "."
            byFolder[folder, default: []].append((key, path))
        }

        for path in paths {
            if path == standardInputPath {
                readsStandardInput = true
                continue
            }
            var isDirectory = false
            guard manager.fileExists(atPath: path, isDirectory: &isDirectory) else {
                failures.append(Failure(path: path, message: "no such file or directory"))
                continue
            }
            guard isDirectory else {
                if isSwift(path) {
                    if seen.insert(absolute(path)).inserted { explicitSwift.append(path) }
                } else if !isTimeline(path) {
                    add(path)
                }
                continue
            }
            let base = path.hasSuffix("/") && path.count > 1 ? String(path.dropLast()) : path
            let walked = FolderWalk.files(under: path)
            swiftPrograms += swiftProgram(base: base, files: walked.filter(isSwift), seen: &seen)
            for relative in walked where isSource(relative) && !isTimeline(relative) {
                let full = base + "/" + relative
                guard includeFound(full) else { continue }
                if isYAML(full), !hasTopLevelTipkitKey(atPath: full) {
                    skipped.append(full)
                    continue
                }
                add(full)
            }
        }
        var programs = byFolder.keys.sorted().map { folder in
            byFolder[folder]!.sorted { $0.key < $1.key }.map(\.path)
        }
        if !explicitSwift.isEmpty { programs.append(explicitSwift) }
        programs += swiftPrograms
        return Discovery(programs: programs, failures: failures, skipped: skipped, readsStandardInput: readsStandardInput)
    }

    /// The programs named by `paths`, each a list of files in a stable order; a path that does
    /// not exist is a failure. (`discover` says more.)
    public static func programs(for paths: [String]) -> (programs: [[String]], failures: [Failure]) {
        let discovery = discover(paths)
        return (discovery.programs, discovery.failures)
    }

    /// The absolute, standardised form of `path` (`./a/../b.yaml` → `/cwd/b.yaml`), so that a
    /// file reached two ways counts once and lands in the same folder.
    public static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path).standardizedFileURL.path
    }

    /// Whether the YAML file at `path` has a top-level `tipkit` key: a line that starts, in the
    /// first column, with `tipkit`, optionally quoted, then `:` (or a flow mapping at the root
    /// that holds `tipkit:`). An unreadable file counts as a manifest, so that reading it
    /// reports the problem.
    public static func hasTopLevelTipkitKey(atPath path: String) -> Bool {
        guard let data = FileManager.default.contents(atPath: path) else { return true }
        return hasTopLevelTipkitKey([UInt8](data))
    }

    /// See `hasTopLevelTipkitKey(atPath:)`.
    public static func hasTopLevelTipkitKey(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            var rest = Substring(line)
            if rest.hasPrefix("{") {
                if rest.contains("tipkit:") || rest.contains("\"tipkit\":") || rest.contains("'tipkit':") { return true }
                continue
            }
            for quote in ["\"", "'"] where rest.hasPrefix(quote + "tipkit" + quote) {
                rest = rest.dropFirst(8)
            }
            if rest.hasPrefix("tipkit") { rest = rest.dropFirst(6) } else if rest.count == line.count { continue }
            if rest.drop(while: { $0 == " " }).hasPrefix(":") { return true }
        }
        return false
    }
}
