import TipcCompiler
import TipcJSON

/// `--format sarif`: SARIF 2.1.0 with one run whose tool is `tipc`, for code-scanning
/// services. Every diagnostic code is a rule (stable ids and indexes); regions count
/// Unicode code points (`columnKind`), columns are 1-based and the end column exclusive.
public struct SARIFReporter: Sendable {
    public static let schema = "https://json.schemastore.org/sarif-2.1.0.json"

    public var toolVersion: String

    public init(toolVersion: String) {
        self.toolVersion = toolVersion
    }

    public func render(_ report: DiagnosticReport) -> String {
        let codes = DiagnosticCode.allCases
        let rules = codes.map { code -> JSON in
            .object([
                ("id", .string(code.rawValue)),
                ("shortDescription", .object([("text", .string(code.summary))])),
                ("fullDescription", .object([("text", .string(code.explanation))])),
                ("help", .object([("text", .string(CodesCommand.explanation(of: code)))])),
                ("defaultConfiguration", .object([("level", .string(Self.level(code.defaultSeverity)))])),
            ])
        }
        let results = report.diagnostics.map { diagnostic -> JSON in
            var members: [(String, JSON)] = [
                ("ruleId", .string(diagnostic.code.rawValue)),
                ("ruleIndex", .integer(codes.firstIndex(of: diagnostic.code) ?? 0)),
                ("level", .string(Self.level(diagnostic.severity))),
                ("message", .object([("text", .string(Self.messageText(of: diagnostic)))])),
                ("locations", .array([.object([("physicalLocation", Self.physicalLocation(diagnostic.range))])])),
                ("partialFingerprints", .object([("tipcDiagnostic/v1", .string(Self.fingerprint(of: diagnostic, in: report)))])),
            ]
            let related = diagnostic.notes.compactMap { note in note.range.map { (note.message, $0) } }
            if !related.isEmpty {
                members.append(("relatedLocations", .array(related.enumerated().map { index, item in
                    .object([
                        ("id", .integer(index + 1)),
                        ("physicalLocation", Self.physicalLocation(item.1)),
                        ("message", .object([("text", .string(item.0))])),
                    ])
                })))
            }
            return .object(members)
        }
        let driver: JSON = .object([
            ("name", .string("tipc")),
            ("version", .string(toolVersion)),
            ("rules", .array(rules)),
        ])
        var run: [(String, JSON)] = [
            ("tool", .object([("driver", driver)])),
            ("columnKind", .string("unicodeCodePoints")),
            ("results", .array(results)),
        ]
        if let omitted = report.omittedText {
            // Results past the report's cap are said, not listed: a notification of the run.
            run.append(("invocations", .array([.object([
                ("executionSuccessful", .bool(true)),
                ("toolExecutionNotifications", .array([.object([
                    ("level", .string("note")),
                    ("message", .object([("text", .string(omitted))])),
                ])])),
            ])])))
        }
        let document: JSON = .object([
            ("$schema", .string(Self.schema)),
            ("version", .string("2.1.0")),
            ("runs", .array([.object(run)])),
        ])
        return document.serialized(pretty: true) + "\n"
    }

    /// Identifies a finding across runs while lines move: FNV-1a (64 bits, hex) of its code,
    /// file, message and the text of the line it starts on, blanks trimmed.
    static func fingerprint(of diagnostic: Diagnostic, in report: DiagnosticReport) -> String {
        let line = report.sources[diagnostic.range.file].map { $0.lineText(diagnostic.range.start.line) } ?? ""
        let trimmed = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for part in [diagnostic.code.rawValue, diagnostic.range.file, diagnostic.message, trimmed] {
            for byte in part.utf8 + [0x1F] {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
            }
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static func level(_ severity: Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// The message, then `help:` and the notes that point nowhere, one per line.
    static func messageText(of diagnostic: Diagnostic) -> String {
        var lines = [diagnostic.message]
        if let help = diagnostic.help { lines.append("help: " + help) }
        for note in diagnostic.notes where note.range == nil { lines.append("note: " + note.message) }
        return lines.joined(separator: "\n")
    }

    static func physicalLocation(_ range: SourceRange) -> JSON {
        let startLine = max(1, range.start.line)
        let startColumn = max(1, range.start.column)
        let endLine = max(startLine, range.end.line)
        let endColumn = endLine == startLine ? max(startColumn, range.end.column) : max(1, range.end.column)
        return .object([
            ("artifactLocation", .object([("uri", .string(uri(forPath: range.file)))])),
            ("region", .object([
                ("startLine", .integer(startLine)),
                ("startColumn", .integer(startColumn)),
                ("endLine", .integer(endLine)),
                ("endColumn", .integer(endColumn)),
            ])),
        ])
    }

    /// A path as a URI reference: relative paths stay relative (to the working directory,
    /// which code-scanning services take as the repository root); absolute ones become
    /// `file://` URIs. Bytes outside the unreserved set and `/` are percent-encoded.
    static func uri(forPath path: String) -> String {
        var encoded = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                encoded += "%" + (hex.count == 1 ? "0" : "") + hex
            }
        }
        return path.hasPrefix("/") ? "file://" + encoded : encoded
    }
}
