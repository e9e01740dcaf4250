#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The files under a folder that a folder walk takes: every file, recursively, except hidden
/// ones (a name starting with `.`, and everything in a hidden folder) and those a `.gitignore`
/// ignores. Symbolic links to folders are not followed.
///
/// `.gitignore` files are read in the folder walked, in every folder below it, and in the
/// folders above it up to the repository's root (the nearest folder holding `.git`; none above
/// when there is no repository). Honoured: blank lines and `#` comments, names and globs
/// (`*`, `?`, `**`) that match at any depth, patterns with a `/` anchored to their
/// `.gitignore`'s folder, a trailing `/` for folders only, `!` to take back a file an earlier
/// pattern ignored (not inside an ignored folder, as in git), and a deeper `.gitignore`
/// overriding a shallower one. Not read: `.git/info/exclude` and git's global excludes file.
enum FolderWalk {
    /// One pattern of a `.gitignore`, with the absolute folder its paths are relative to.
    struct IgnoreRule {
        var folder: String
        var pattern: String
        var negated: Bool
        var foldersOnly: Bool

        /// The rules of a `.gitignore`'s text, whose file lies in `folder`.
        static func parse(_ text: String, folder: String) -> [IgnoreRule] {
            text.split(whereSeparator: \.isNewline).compactMap { line in
                var pattern = String(line)
                while pattern.hasSuffix(" "), !pattern.hasSuffix("\\ ") { pattern.removeLast() }
                guard !pattern.isEmpty, !pattern.hasPrefix("#") else { return nil }
                let negated = pattern.hasPrefix("!")
                if negated { pattern.removeFirst() }
                if pattern.hasPrefix("\\") { pattern.removeFirst() }
                let foldersOnly = pattern.hasSuffix("/")
                if foldersOnly { pattern.removeLast() }
                guard !pattern.isEmpty else { return nil }
                return IgnoreRule(folder: folder, pattern: pattern, negated: negated, foldersOnly: foldersOnly)
            }
        }
    }

    /// The paths, relative to `folder` and sorted, of the files a walk of `folder` takes.
    static func files(under folder: String) -> [String] {
        let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        let absoluteBase = SourceDiscovery.absolute(base)
        var found: [String] = []
        walk(absolute: absoluteBase, relative: "", rules: rulesAbove(absoluteBase), into: &found)
        return found.sorted()
    }

    /// The rules of the `.gitignore` files in the folders above `folder`, up to the repository's
    /// root, outermost first; none when no folder above holds `.git`.
    private static func rulesAbove(_ folder: String) -> [IgnoreRule] {
        var folders: [String] = []
        var current = folder
        var inRepository = FileManager.default.fileExists(atPath: folder + "/.git")
        while !inRepository, current != "/", let slash = current.lastIndex(of: "/") {
            current = slash == current.startIndex ? "/" : String(current[..<slash])
            folders.append(current)
            inRepository = FileManager.default.fileExists(atPath: (current == "/" ? "" : current) + "/.git")
        }
        guard inRepository else { return [] }
        return folders.reversed().flatMap { rules(in: $0) }
    }

    private static func rules(in folder: String) -> [IgnoreRule] {
        let path = (folder == "/" ? "" : folder) + "/.gitignore"
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        return IgnoreRule.parse(String(decoding: data, as: UTF8.self), folder: folder)
    }

    /// Whether the last rule that matches `path` (absolute) ignores it.
    static func isIgnored(_ path: String, isFolder: Bool, by rules: [IgnoreRule]) -> Bool {
        var ignored = false
        for rule in rules where !rule.foldersOnly || isFolder {
            let prefix = rule.folder == "/" ? "/" : rule.folder + "/"
            guard path.hasPrefix(prefix) else { continue }
            if Glob.matches(rule.pattern, String(path.dropFirst(prefix.count)), orFolderAbove: false) { ignored = !rule.negated }
        }
        return ignored
    }

    private static func walk(absolute: String, relative: String, rules: [IgnoreRule], into found: inout [String]) {
        let manager = FileManager.default
        let rules = rules + self.rules(in: absolute)
        guard let names = try? manager.contentsOfDirectory(atPath: absolute) else { return }
        for name in names.sorted() where !name.hasPrefix(".") {
            let path = absolute + "/" + name
            let type = (try? manager.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
            let isFolder = type == .typeDirectory
            if isIgnored(path, isFolder: isFolder, by: rules) { continue }
            let relativePath = relative.isEmpty ? name : relative + "/" + name
            if isFolder {
                walk(absolute: path, relative: relativePath, rules: rules, into: &found)
            } else {
                found.append(relativePath)
            }
        }
    }
}
