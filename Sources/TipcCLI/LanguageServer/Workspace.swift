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
import TipcCompiler
import TipcDriver

/// A document the editor has open: its text, which wins over the file on disk.
struct OpenDocument {
    var uri: String
    var version: Int?
    var source: SourceFile
    /// Counts every change, so that an analysis knows which text it read.
    var revision: Int
    /// Whether the text is a manifest's (for YAML: it has a top-level `tipkit` key).
    var isManifest: Bool
}

/// The program a file belongs to, as `check` groups files: the manifests and `.tips` files of
/// one folder, or the Swift files of one folder (imported together, apart from the manifests).
struct ProgramKey: Hashable {
    var folder: String
    var isSwift: Bool
}

/// One program read and checked: its files' texts, syntax trees, diagnostics and names.
struct ProgramAnalysis {
    var key: ProgramKey
    var paths: [String]
    var sources: [String: SourceFile]
    var files: [ManifestFile]
    var diagnostics: [Diagnostic]
    var index: NameIndex
    var fingerprint: [String]
}

/// The files the server knows: open documents, files read from disk (kept while unchanged),
/// the `.tipc.yml` that applies to each folder (read again when it changes), and each
/// program's latest analysis (made again when any of its inputs changed).
final class Workspace {
    private(set) var documents: [String: OpenDocument] = [:]
    private var disk: [String: (stamp: FileStamp, source: SourceFile, isManifest: Bool)] = [:]
    private var analyses: [ProgramKey: ProgramAnalysis] = [:]
    private var configurations: [String: (identity: String, configuration: LintConfiguration, diagnostics: [Diagnostic])] = [:]
    private var revisions = 0
    /// Counts the times the editor said a file changed on disk: a file rewritten within the
    /// file system's timestamp granularity, at the same size, is still read again.
    private var diskGenerations: [String: Int] = [:]

    /// A file's identity on disk: when its modification time or size changes, it is read again.
    struct FileStamp: Hashable {
        var seconds: Int
        var nanoseconds: Int
        var size: Int
    }

    static func stamp(_ path: String) -> FileStamp? {
        var status = stat()
        guard stat(path, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        #if canImport(Darwin)
        return FileStamp(seconds: Int(status.st_mtimespec.tv_sec), nanoseconds: Int(status.st_mtimespec.tv_nsec), size: Int(status.st_size))
        #else
        return FileStamp(seconds: Int(status.st_mtim.tv_sec), nanoseconds: Int(status.st_mtim.tv_nsec), size: Int(status.st_size))
        #endif
    }

    // MARK: - Documents

    func open(uri: String, path: String, version: Int?, text: String) {
        revisions += 1
        let source = SourceFile(path: path, text: text)
        documents[path] = OpenDocument(uri: uri, version: version, source: source, revision: revisions, isManifest: Self.isManifest(source))
    }

    func replace(path: String, version: Int?, source: SourceFile) {
        guard var document = documents[path] else { return }
        revisions += 1
        document.source = source
        document.isManifest = Self.isManifest(source)
        document.version = version
        document.revision = revisions
        documents[path] = document
    }

    func close(path: String) {
        documents[path] = nil
    }

    /// Forgets what was read of `path` from disk (the editor says it changed there).
    func forgetDiskText(_ path: String) {
        disk[path] = nil
        diskGenerations[path, default: 0] += 1
    }

    /// The text of `path`: the open document's, else the file's on disk.
    func source(_ path: String) -> SourceFile? {
        text(path)?.source
    }

    /// The text of `path` and whether it is a manifest's.
    private func text(_ path: String) -> (source: SourceFile, isManifest: Bool)? {
        if let document = documents[path] { return (document.source, document.isManifest) }
        guard let stamp = Self.stamp(path) else {
            disk[path] = nil
            return nil
        }
        if let cached = disk[path], cached.stamp == stamp { return (cached.source, cached.isManifest) }
        guard case .success(let source) = Frontend.read(path: path) else { return nil }
        let isManifest = Self.isManifest(source)
        disk[path] = (stamp, source, isManifest)
        return (source, isManifest)
    }

    /// Whether a source is a manifest: a `.tips` file is; a YAML file is when it has a
    /// top-level `tipkit` key (as a folder walk decides).
    private static func isManifest(_ source: SourceFile) -> Bool {
        guard SourceDiscovery.isYAML(source.path) else { return true }
        // Only lines that start with `tipkit`, a quote or `{` can hold the key: those are
        // handed to the folder walk's test, instead of the whole text on every keystroke.
        var candidates: [UInt8] = []
        let bytes = source.bytes
        for start in source.lineStarts where start < bytes.count {
            let first = bytes[start]
            guard first == UInt8(ascii: "t") || first == UInt8(ascii: "\"") || first == UInt8(ascii: "'") || first == UInt8(ascii: "{") else { continue }
            var end = start
            while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
            candidates += bytes[start..<end]
            candidates.append(0x0A)
        }
        return SourceDiscovery.hasTopLevelTipkitKey(candidates)
    }

    /// What a file's text is now: an open document's revision, or the file's stamp.
    private func identity(_ path: String) -> String {
        if let document = documents[path] { return "open \(document.revision)" }
        guard let stamp = Self.stamp(path) else { return "absent" }
        return "disk \(stamp.seconds).\(stamp.nanoseconds) \(stamp.size) \(diskGenerations[path] ?? 0)"
    }

    // MARK: - Programs

    static func isConfiguration(_ path: String) -> Bool {
        path.hasSuffix("/" + LintConfiguration.fileName)
    }

    /// The program `path` belongs to; nil for a file that is no source (a timeline, a
    /// configuration, a YAML file without a top-level `tipkit` key).
    func programKey(for path: String) -> ProgramKey? {
        let folder = Self.folder(of: path)
        if SourceDiscovery.isSwift(path) { return ProgramKey(folder: folder, isSwift: true) }
        guard SourceDiscovery.isSource(path), !SourceDiscovery.isTimeline(path) else { return nil }
        if let text = text(path), !text.isManifest { return nil }
        return ProgramKey(folder: folder, isSwift: false)
    }

    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The files of a program: those in its folder (not below it) that a folder walk takes,
    /// and its open documents, which count even where the configuration leaves them out.
    func paths(of key: ProgramKey, configuration: LintConfiguration) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: key.folder)) ?? []
        var paths = Set<String>()
        for entry in entries where !entry.hasPrefix(".") {
            let path = (key.folder == "/" ? "" : key.folder) + "/" + entry
            if key.isSwift {
                if SourceDiscovery.isSwift(path), Self.stamp(path) != nil { paths.insert(path) }
            } else if configuration.takes(path), programKey(for: path) == key, Self.stamp(path) != nil {
                paths.insert(path)
            }
        }
        for path in documents.keys where programKey(for: path) == key { paths.insert(path) }
        return paths.sorted()
    }

    /// The configuration that applies to files in `folder`, with its own problems (reported on
    /// the configuration file); read again whenever its text changes.
    func configuration(forFolder folder: String) -> (configuration: LintConfiguration, path: String?, diagnostics: [Diagnostic]) {
        guard let path = configurationPath(from: folder) else { return (.none, nil, []) }
        let identity = identity(path)
        if let cached = configurations[path], cached.identity == identity { return (cached.configuration, path, cached.diagnostics) }
        guard let source = source(path) else { return (.none, path, []) }
        var diagnostics: [Diagnostic] = []
        let configuration = LintConfiguration.read(source, diagnostics: &diagnostics)
        configurations[path] = (identity, configuration, diagnostics)
        return (configuration, path, diagnostics)
    }

    /// The `.tipc.yml` of `folder` or of its nearest parent that has one, open in the editor
    /// (not saved yet) or on disk.
    private func configurationPath(from folder: String) -> String? {
        var folder = folder
        while true {
            let candidate = (folder == "/" ? "" : folder) + "/" + LintConfiguration.fileName
            if documents[candidate] != nil || Self.stamp(candidate) != nil { return candidate }
            if folder == "/" || folder == "." { return nil }
            folder = Self.folder(of: folder)
        }
    }

    /// The program's analysis, made again only when a file of it, the set of its files or its
    /// configuration changed.
    func analysis(of key: ProgramKey) -> ProgramAnalysis {
        let (configuration, configurationPath, _) = self.configuration(forFolder: key.folder)
        let paths = paths(of: key, configuration: configuration)
        var fingerprint = paths.map { $0 + " " + identity($0) }
        if let configurationPath { fingerprint.append(configurationPath + " " + identity(configurationPath)) }
        if let cached = analyses[key], cached.fingerprint == fingerprint { return cached }
        let sources = paths.compactMap { source($0) }
        let result = Frontend.check(sources: sources, keepingParsedFiles: true, keepingProgram: false, configuration: configuration)
        let sourceMap = Dictionary(sources.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        let analysis = ProgramAnalysis(key: key, paths: paths, sources: sourceMap, files: result.files, diagnostics: result.diagnostics,
                                       index: NameIndex(files: result.files, sources: sourceMap), fingerprint: fingerprint)
        analyses[key] = analysis
        return analysis
    }

    /// The programs with an open document, and those already analysed.
    var knownPrograms: Set<ProgramKey> {
        Set(analyses.keys).union(documents.keys.compactMap { programKey(for: $0) })
    }
}

/// `file://` URIs and paths.
enum DocumentURI {
    static func path(_ uri: String) -> String? {
        guard uri.hasPrefix("file://"), let url = URL(string: uri), url.isFileURL else { return nil }
        let path = url.path
        return path.isEmpty ? nil : SourceDiscovery.absolute(path)
    }

    static func uri(_ path: String) -> String {
        URL(fileURLWithPath: path).absoluteString
    }
}
