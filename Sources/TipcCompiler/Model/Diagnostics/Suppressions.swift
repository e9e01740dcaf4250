#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Suppression comments: `tipc-disable-next-line CODE[, CODE]`,
/// `tipc-disable-line CODE` (at the end of the line it is about) and `tipc-disable-file CODE`,
/// in YAML `#` comments and `.tips` `//` comments. Text after ` -- ` is a reason and ignored.
///
/// Only real comments count: a `#` or `//` inside a quoted string (or any YAML scalar) is
/// text. Errors that stop a file from being read (`syntax`, `yaml`, `limit`, `io`) cannot be
/// suppressed, and neither can the suppressions' own codes. A suppression that suppresses
/// nothing is an `unused-suppression` warning; one naming an unknown code (or one that cannot
/// be suppressed) is an `invalid-suppression` error.
public enum Suppressions {
    /// Codes no comment can suppress.
    public static let unsuppressible: Set<DiagnosticCode> = [.syntax, .yaml, .limit, .io, .unusedSuppression, .invalidSuppression]

    enum Scope: String {
        case nextLine = "tipc-disable-next-line"
        case line = "tipc-disable-line"
        case file = "tipc-disable-file"
    }

    /// One code named by one comment.
    struct Entry {
        var scope: Scope
        var code: DiagnosticCode
        /// The line it applies to (unused for `file`).
        var line: Int
        /// Where the code is written in the comment.
        var range: SourceRange
        var used = false
    }

    /// `diagnostics` without those the comments of `sources` suppress, plus the suppressions'
    /// own diagnostics. Unused suppressions are reported only when the program was read
    /// completely (no `syntax`, `yaml` or `limit` error) and, for a warning code, when the
    /// lints ran (`lintsRan`): otherwise a finding may be missing for reasons of its own.
    /// Suppressed errors are returned apart (`suppressedErrors`): the program still has them, so
    /// it cannot be compiled, and `compile` shows them.
    public static func apply(_ diagnostics: [Diagnostic], sources: [SourceFile], lintsRan: Bool)
        -> (diagnostics: [Diagnostic], suppressedErrors: [Diagnostic]) {
        var own: [Diagnostic] = []
        var entriesByFile: [String: [Entry]] = [:]
        for source in sources {
            let entries = self.entries(in: source, problems: &own)
            if !entries.isEmpty { entriesByFile[source.path] = entries }
        }
        guard !entriesByFile.isEmpty else { return (diagnostics + own, []) }
        var kept: [Diagnostic] = []
        var suppressedErrors: [Diagnostic] = []
        for diagnostic in diagnostics {
            guard !unsuppressible.contains(diagnostic.code), var entries = entriesByFile[diagnostic.range.file] else {
                kept.append(diagnostic)
                continue
            }
            let line = diagnostic.range.start.line
            var suppressed = false
            for index in entries.indices where entries[index].code == diagnostic.code
                && (entries[index].scope == .file || entries[index].line == line) {
                entries[index].used = true
                suppressed = true
            }
            entriesByFile[diagnostic.range.file] = entries
            if !suppressed { kept.append(diagnostic) } else if diagnostic.severity == .error { suppressedErrors.append(diagnostic) }
        }
        let complete = !diagnostics.contains { $0.code == .syntax || $0.code == .yaml || $0.code == .limit }
        if complete {
            for entry in entriesByFile.values.joined() where !entry.used && (lintsRan || entry.code.defaultSeverity == .error) {
                let place = entry.scope == .file ? "in this file" : "on line \(entry.line)"
                own.append(Diagnostic(.unusedSuppression, "nothing to suppress: no '\(entry.code.rawValue)' \(place)", at: entry.range,
                                      help: "remove '\(entry.code.rawValue)' from the comment"))
            }
        }
        return (kept + own, suppressedErrors)
    }

    /// The suppression entries of one file; malformed comments go to `problems`.
    static func entries(in source: SourceFile, problems: inout [Diagnostic]) -> [Entry] {
        let marker = Array("tipc-disable".utf8)
        guard contains(source.bytes, marker) else { return [] }
        let comments: [(start: Int, end: Int)]
        if source.path.hasSuffix(".tips") {
            comments = tipsComments(source.bytes)
        } else if SourceDiscovery.isYAML(source.path) {
            comments = yamlComments(source)
        } else {
            return []
        }
        var entries: [Entry] = []
        for comment in comments {
            parse(comment, in: source, into: &entries, problems: &problems)
        }
        return entries
    }

    /// Reads one comment (its text from `start`, after the `#` or `//`, to `end`).
    private static func parse(_ comment: (start: Int, end: Int), in source: SourceFile, into entries: inout [Entry], problems: inout [Diagnostic]) {
        let bytes = source.bytes
        var index = comment.start
        func skipSpaces() { while index < comment.end, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 } }
        skipSpaces()
        let wordStart = index
        while index < comment.end, bytes[index] != 0x20, bytes[index] != 0x09 { index += 1 }
        let word = String(decoding: bytes[wordStart..<index], as: UTF8.self)
        guard word.hasPrefix("tipc-disable") else { return }
        let line = source.line(containing: wordStart)
        func range(_ from: Int, _ to: Int) -> SourceRange {
            SourceRange(file: source.path, start: source.location(atUTF8Offset: from), end: source.location(atUTF8Offset: to))
        }
        guard let scope = Scope(rawValue: word) else {
            let scopes = [Scope.nextLine, .line, .file].map(\.rawValue)
            problems.append(Diagnostic(.invalidSuppression, "unknown suppression '\(word)'", at: range(wordStart, index),
                                       help: Suggestions.didYouMean(word, in: scopes) ?? "write \(scopes.joined(separator: ", "))"))
            return
        }
        // Codes, separated by commas and/or spaces, up to the end or a ` -- reason`.
        var named = 0
        while true {
            skipSpaces()
            while index < comment.end, bytes[index] == 0x2C { index += 1; skipSpaces() }
            guard index < comment.end else { break }
            let start = index
            while index < comment.end, bytes[index] != 0x20, bytes[index] != 0x09, bytes[index] != 0x2C { index += 1 }
            let name = String(decoding: bytes[start..<index], as: UTF8.self)
            if name == "--" { break }
            named += 1
            guard let code = DiagnosticCode(rawValue: name) else {
                problems.append(Diagnostic(.invalidSuppression, "no diagnostic code named '\(name)'", at: range(start, index),
                                           help: Suggestions.didYouMean(name, in: DiagnosticCode.allCases.map(\.rawValue)) ?? "'tipc codes' lists them"))
                continue
            }
            guard !unsuppressible.contains(code) else {
                problems.append(Diagnostic(.invalidSuppression, "'\(name)' problems cannot be suppressed", at: range(start, index),
                                           help: "fix the file: tipc cannot read it as written"))
                continue
            }
            let target = scope == .nextLine ? line + 1 : line
            entries.append(Entry(scope: scope, code: code, line: target, range: range(start, index)))
        }
        if named == 0 {
            problems.append(Diagnostic(.invalidSuppression, "'\(word)' names no code", at: range(wordStart, index),
                                       help: "name the codes to suppress: \(word) unused"))
        }
    }

    /// Whether `needle` (not empty) occurs in `bytes`: `memchr` finds each candidate place of
    /// the needle's first `-` (of its first byte when it has none), far rarer in a manifest
    /// than the `t` it starts with, and `memcmp` compares the whole needle there.
    private static func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool {
        guard bytes.count >= needle.count else { return false }
        let anchor = needle.firstIndex(of: UInt8(ascii: "-")) ?? 0
        return bytes.withUnsafeBufferPointer { haystack in
            needle.withUnsafeBufferPointer { needle in
                guard let base = haystack.baseAddress, let needleBase = needle.baseAddress else { return false }
                // Candidate starts are 0...last; the anchor byte of one is `anchor` bytes further.
                let last = haystack.count - needle.count
                var start = 0
                while start <= last {
                    guard let found = memchr(base + start + anchor, Int32(needle[anchor]), last - start + 1) else { return false }
                    let candidate = base.distance(to: found.assumingMemoryBound(to: UInt8.self)) - anchor
                    if memcmp(base + candidate, needleBase, needle.count) == 0 { return true }
                    start = candidate + 1
                }
                return false
            }
        }
    }

    /// `//` comments of a `.tips` file, outside strings (`"…"` with `\` escapes) and
    /// backticked names (neither spans lines).
    static func tipsComments(_ bytes: [UInt8]) -> [(start: Int, end: Int)] {
        var comments: [(start: Int, end: Int)] = []
        var index = 0
        var quote: UInt8? = nil
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0x0A || byte == 0x0D {
                quote = nil
            } else if let open = quote {
                if byte == 0x5C, open == 0x22 { index += 1 } else if byte == open { quote = nil }
            } else if byte == 0x22 || byte == 0x60 {
                quote = byte
            } else if byte == 0x2F, index + 1 < bytes.count, bytes[index + 1] == 0x2F {
                var end = index + 2
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                comments.append((index + 2, end))
                index = end
                continue
            }
            index += 1
        }
        return comments
    }

    /// `#` comments of a YAML file: a `#` at the start of a line or after a space or tab,
    /// outside every scalar the YAML reader found (quoted and block scalars included).
    static func yamlComments(_ source: SourceFile) -> [(start: Int, end: Int)] {
        var ignored: [Diagnostic] = []
        var scalars: [(start: Int, end: Int)] = []
        if let root = YAMLReader.read(source, diagnostics: &ignored) { collectScalars(root, into: &scalars) }
        let bytes = source.bytes
        var comments: [(start: Int, end: Int)] = []
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x23, index == 0 || [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index - 1]),
               !scalars.contains(where: { $0.start <= index && index < $0.end }) {
                var end = index + 1
                while end < bytes.count, bytes[end] != 0x0A, bytes[end] != 0x0D { end += 1 }
                comments.append((index + 1, end))
                index = end
                continue
            }
            index += 1
        }
        return comments
    }

    private static func collectScalars(_ node: YAMLNode, into scalars: inout [(start: Int, end: Int)]) {
        switch node.content {
        case .scalar: scalars.append((node.startOffset, node.endOffset))
        case .mapping(let pairs):
            for pair in pairs {
                collectScalars(pair.key, into: &scalars)
                collectScalars(pair.value, into: &scalars)
            }
        case .sequence(let items):
            for item in items { collectScalars(item, into: &scalars) }
        case .alias: break
        }
    }
}
