#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A repository's `.tipc.yml`: which files a folder walk takes (`include` /
/// `exclude` globs, relative to the file's folder), the severity of codes (`codes: { unused:
/// off, always-true: error }`) and `strict`. Read with the manifests' YAML reader, so it has
/// the same refusals (duplicate keys, anchors, tabs) and positions.
public struct LintConfiguration: Sendable {
    /// What a configuration may do to a code.
    public enum CodeSetting: String, Sendable, CaseIterable {
        case off, warning, error
    }

    /// The file's name.
    public static let fileName = ".tipc.yml"

    /// The file read, nil for the default configuration.
    public var path: String?
    /// The absolute folder globs are relative to.
    public var folder: String
    public var include: [String] = []
    public var exclude: [String] = []
    public var codes: [DiagnosticCode: CodeSetting] = [:]
    public var strict: Bool?

    /// No file: every file walked is taken, codes keep their severity.
    public static var none: LintConfiguration { LintConfiguration(path: nil, folder: "/") }

    public init(path: String?, folder: String) {
        self.path = path
        self.folder = folder
    }

    /// The `.tipc.yml` of `directory` or of its nearest parent that has one.
    public static func find(from directory: String) -> String? {
        var folder = URL(fileURLWithPath: SourceDiscovery.absolute(directory))
        while true {
            let candidate = folder.appendingPathComponent(fileName).path
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = folder.deletingLastPathComponent()
            if parent.path == folder.path { return nil }
            folder = parent
        }
    }

    static let keys = ["include", "exclude", "codes", "strict"]

    /// Reads a configuration; its problems (with positions in the file) go to `diagnostics`.
    public static func read(_ source: SourceFile, diagnostics: inout [Diagnostic]) -> LintConfiguration {
        let absolute = SourceDiscovery.absolute(source.path)
        var configuration = LintConfiguration(path: source.path, folder: String(absolute[..<(absolute.lastIndex(of: "/") ?? absolute.startIndex)]))
        if configuration.folder.isEmpty { configuration.folder = "/" }
        var yamlProblems: [Diagnostic] = []
        let root = YAMLReader.read(source, diagnostics: &yamlProblems)
        diagnostics += yamlProblems
        guard let root else { return configuration }
        if case .scalar(let scalar) = root.content, scalar.isNull { return configuration }
        guard let pairs = root.pairs else {
            diagnostics.append(Diagnostic(.invalidValue, "\(fileName) must be a mapping, found \(root.kindDescription)", at: root.range))
            return configuration
        }
        for pair in pairs {
            guard let key = pair.key.scalarValue else {
                diagnostics.append(Diagnostic(.invalidValue, "a key must be a name, found \(pair.key.kindDescription)", at: pair.key.range))
                continue
            }
            switch key {
            case "include": configuration.include = globs(pair.value, key, &diagnostics)
            case "exclude": configuration.exclude = globs(pair.value, key, &diagnostics)
            case "strict":
                switch pair.value.scalar.map({ ($0.value, $0.style) }) {
                case ("true", .plain)?: configuration.strict = true
                case ("false", .plain)?: configuration.strict = false
                default:
                    diagnostics.append(Diagnostic(.invalidValue, "'strict' must be true or false, found \(pair.value.kindDescription)", at: pair.value.range))
                }
            case "codes": configuration.codes = codes(pair.value, &diagnostics)
            default:
                diagnostics.append(Diagnostic(.unknownKey, "unknown key '\(key)' in \(fileName)", at: pair.key.range,
                                              help: Suggestions.didYouMean(key, in: keys) ?? "allowed keys: \(keys.joined(separator: ", "))"))
            }
        }
        return configuration
    }

    private static func globs(_ node: YAMLNode, _ key: String, _ diagnostics: inout [Diagnostic]) -> [String] {
        if let value = node.scalar, !value.isNull { return [value.value] }
        guard let items = node.items else {
            diagnostics.append(Diagnostic(.invalidValue, "'\(key)' must be a list of globs, found \(node.kindDescription)", at: node.range))
            return []
        }
        var globs: [String] = []
        for item in items {
            guard let value = item.scalarValue, !value.isEmpty else {
                diagnostics.append(Diagnostic(.invalidValue, "a glob must be a non-empty text, found \(item.kindDescription)", at: item.range))
                continue
            }
            globs.append(value)
        }
        return globs
    }

    /// Codes whose severity a configuration may change: warnings may be turned off or made
    /// errors; an error stays an error (a program with one cannot be compiled).
    private static func codes(_ node: YAMLNode, _ diagnostics: inout [Diagnostic]) -> [DiagnosticCode: CodeSetting] {
        guard let pairs = node.pairs else {
            diagnostics.append(Diagnostic(.invalidValue, "'codes' must be a mapping of code to off, warning or error, found \(node.kindDescription)", at: node.range))
            return [:]
        }
        var settings: [DiagnosticCode: CodeSetting] = [:]
        let settingNames = CodeSetting.allCases.map(\.rawValue)
        for pair in pairs {
            guard let name = pair.key.scalarValue else { continue }
            guard let code = DiagnosticCode(rawValue: name) else {
                diagnostics.append(Diagnostic(.invalidValue, "no diagnostic code named '\(name)'", at: pair.key.range,
                                              help: Suggestions.didYouMean(name, in: DiagnosticCode.allCases.map(\.rawValue)) ?? "'tipc codes' lists them"))
                continue
            }
            // YAML reads a plain `off` as a string here (the reader is YAML 1.2 core, no booleans).
            guard let value = pair.value.scalarValue, let setting = CodeSetting(rawValue: value) else {
                let found = pair.value.scalarValue.map { "'\($0)'" } ?? pair.value.kindDescription
                diagnostics.append(Diagnostic(.invalidValue, "the setting of '\(name)' must be off, warning or error, found \(found)", at: pair.value.range,
                                              help: pair.value.scalarValue.flatMap { Suggestions.didYouMean($0, in: settingNames) }))
                continue
            }
            if code.defaultSeverity == .error, setting != .error {
                diagnostics.append(Diagnostic(.invalidValue, "'\(name)' is an error and stays one; only warnings can be turned off or made errors", at: pair.value.range,
                                              help: "suppress one finding with a comment: tipc-disable-next-line \(name)"))
                continue
            }
            settings[code] = setting
        }
        return settings
    }

    /// The diagnostics with this configuration's severities: `off` codes dropped, others
    /// given their new severity.
    public func applySeverities(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        guard !codes.isEmpty else { return diagnostics }
        return diagnostics.compactMap { diagnostic in
            guard let setting = codes[diagnostic.code] else { return diagnostic }
            var changed = diagnostic
            switch setting {
            case .off: return nil
            case .warning: changed.severity = .warning
            case .error: changed.severity = .error
            }
            return changed
        }
    }

    /// Whether a file met while walking a folder is taken: it matches an `include` glob (when
    /// there are any) and no `exclude` glob, both relative to the configuration's folder. A
    /// glob matches a file or any folder above it; without a `/` it matches at any depth (as
    /// in `.gitignore`); `*` and `?` stay within a name, `**` spans folders.
    public func takes(_ path: String) -> Bool {
        guard !include.isEmpty || !exclude.isEmpty else { return true }
        let absolute = SourceDiscovery.absolute(path)
        let prefix = folder.hasSuffix("/") ? folder : folder + "/"
        guard absolute.hasPrefix(prefix) else { return include.isEmpty }
        let relative = String(absolute.dropFirst(prefix.count))
        if !include.isEmpty, !include.contains(where: { Glob.matches($0, relative) }) { return false }
        return !exclude.contains { Glob.matches($0, relative) }
    }
}

/// `.gitignore`-like globs over `/`-separated relative paths.
enum Glob {
    /// Whether `pattern` matches `path`, or (with `orFolderAbove`) a folder above it.
    static func matches(_ pattern: String, _ path: String, orFolderAbove: Bool = true) -> Bool {
        var pattern = pattern
        while pattern.hasPrefix("./") { pattern.removeFirst(2) }
        if pattern.hasSuffix("/") { pattern.removeLast() }
        let anchored = pattern.hasPrefix("/") || pattern.dropLast().contains("/")
        if pattern.hasPrefix("/") { pattern.removeFirst() }
        var parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if !anchored { parts.insert("**", at: 0) }
        let names = path.split(separator: "/").map(String.init)
        guard !names.isEmpty else { return false }
        // The file itself, or a folder above it.
        if !orFolderAbove { return matchParts(parts[...], names[...]) }
        return (1...names.count).contains { matchParts(parts[...], names[..<$0]) }
    }

    private static func matchParts(_ parts: ArraySlice<String>, _ names: ArraySlice<String>) -> Bool {
        guard let first = parts.first else { return names.isEmpty }
        if first == "**" {
            return (names.startIndex...names.endIndex).contains { matchParts(parts.dropFirst(), names[$0...]) }
        }
        guard let name = names.first, matchName(Array(first)[...], Array(name)[...]) else { return false }
        return matchParts(parts.dropFirst(), names.dropFirst())
    }

    private static func matchName(_ pattern: ArraySlice<Character>, _ name: ArraySlice<Character>) -> Bool {
        guard let first = pattern.first else { return name.isEmpty }
        switch first {
        case "*":
            return (name.startIndex...name.endIndex).contains { matchName(pattern.dropFirst(), name[$0...]) }
        case "?":
            return !name.isEmpty && matchName(pattern.dropFirst(), name.dropFirst())
        default:
            return name.first == first && matchName(pattern.dropFirst(), name.dropFirst())
        }
    }
}
