import TipcTestSupport

/// Generates the text of random YAML manifests, seeded so that every run sees the same files:
/// the sections parameters, events, tips and groups in any order, with entries whose values
/// nest mappings, lists, flow collections, block scalars and quoted scalars, comments between
/// and after entries, and now and then a repeated key, a repeated section or a section that
/// is not a mapping. The YAML is always well formed (repeated keys aside).
struct YAMLManifestTextGenerator {
    /// A value to write: block collections span lines, the rest fit on one.
    private indirect enum Value {
        /// Written as is; safe inside flow collections too.
        case scalar(String)
        /// `|` or `>` (with a chomping indicator or not) and its lines.
        case blockScalar(header: String, lines: [String])
        case mapping([(key: String, value: Value)], flow: Bool)
        case sequence([Value], flow: Bool)
        /// An empty value (null).
        case nothing

        var isBlockCollection: Bool {
            switch self {
            case .mapping(let pairs, let flow): return !flow && !pairs.isEmpty
            case .sequence(let items, let flow): return !flow && !items.isEmpty
            default: return false
            }
        }
    }

    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    private static let plainScalars = ["free", "pro", "3", "-7", "0.5", "true", "false", "~", "null", "3d", "2m", "hello world",
                                       "$isLoggedIn", "searchPerformed.count >= 3 within 3d", "héllo", "日本語", "a-b", "x_y"]
    private static let quotedScalars = ["'it''s'", "'a: b # c'", "''", "'[not, a, list]'", "\"Welcome\"", "\"tab\\there\"",
                                        "\"quote \\\" and \\\\\"", "\"\\u00e9t\\u00e9\"", "\"multi word: value\"", "\"\"", "\"héllo 🎉\""]
    private static let blockLines = ["first line", "second: line # not a comment", "  more indented", "", "last — é"]
    private static let entryNames = (0..<24).map { "entry\($0)" } + ["title", "tips", "café"]
    private static let innerKeys = ["title", "message", "type", "default", "rules", "values", "k", "'quoted key'", "\"dq\"", "é"]
    private static let comments = ["# a comment", "#", "# key: value, [x] {y}", "# — é"]

    private mutating func chance(_ numerator: Int, in denominator: Int) -> Bool {
        Int.random(in: 0..<denominator, using: &random) < numerator
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices[Int.random(in: 0..<choices.count, using: &random)]
    }

    /// `count` different keys from `pool`, but now and then one repeated.
    private mutating func keys(_ count: Int, from pool: [String]) -> [String] {
        var keys = Array(pool.shuffled(using: &random).prefix(count))
        if keys.count > 1, chance(1, in: 25) {
            keys[Int.random(in: 1..<keys.count, using: &random)] = keys[0]
        }
        return keys
    }

    /// A manifest's text.
    mutating func manifest() -> String {
        var lines: [String] = []
        if chance(1, in: 3) { lines.append(pick(Self.comments)) }
        var sections = ["tipkit", "parameters", "events", "tips", "groups"].shuffled(using: &random)
        if chance(1, in: 6) { sections.insert(pick(["tips", "events"]), at: Int.random(in: 0...sections.count, using: &random)) }
        if chance(1, in: 4) { sections.append("displayFrequency") }
        for section in sections {
            if chance(1, in: 6) { lines.append("") }
            switch section {
            case "tipkit": lines.append("tipkit: 1")
            case "displayFrequency": lines.append("displayFrequency: daily # how often")
            default: lines += sectionLines(section)
            }
        }
        return lines.joined(separator: "\n") + (chance(4, in: 5) ? "\n" : "")
    }

    private mutating func sectionLines(_ name: String) -> [String] {
        let key = chance(1, in: 8) ? "\"\(name)\"" : name
        if chance(1, in: 10) {
            // Not a mapping: a list, a scalar or nothing.
            return pairLines(key: key, value: pick([.sequence([.scalar("a"), .scalar("b")], flow: chance(1, in: 2)),
                                                    .scalar("1"), .nothing, .scalar("'text'")]), indent: 0)
        }
        let count = Int.random(in: 0...8, using: &random)
        let flow = count == 0 || chance(1, in: 8)
        var pairs: [(key: String, value: Value)] = []
        for name in keys(count, from: Self.entryNames) {
            pairs.append((name, entryValue(flowOnly: flow)))
        }
        return pairLines(key: key, value: .mapping(pairs, flow: flow), indent: 0)
    }

    private mutating func entryValue(flowOnly: Bool) -> Value {
        if chance(1, in: 8) { return value(depth: 1, flowOnly: flowOnly) }
        let count = Int.random(in: 0...5, using: &random)
        let flow = flowOnly || count == 0 || chance(1, in: 4)
        return .mapping(keys(count, from: Self.innerKeys).map { ($0, value(depth: 3, flowOnly: flow)) }, flow: flow)
    }

    private mutating func value(depth: Int, flowOnly: Bool) -> Value {
        let roll = Int.random(in: 0..<(depth > 0 ? 12 : 7), using: &random)
        switch roll {
        case 0..<3: return .scalar(pick(Self.plainScalars))
        case 3..<5: return .scalar(pick(Self.quotedScalars))
        case 5: return .nothing
        case 6:
            if flowOnly { return .scalar(pick(Self.quotedScalars)) }
            let header = pick(["|", ">", "|-", ">-", "|+", ">+", "| # block"])
            let count = Int.random(in: 1...3, using: &random)
            return .blockScalar(header: header, lines: ["line one"] + (1..<count).map { _ in pick(Self.blockLines) })
        case 7..<9:
            let count = Int.random(in: 0...4, using: &random)
            let flow = flowOnly || count == 0 || chance(1, in: 3)
            return .mapping(keys(count, from: Self.innerKeys).map { ($0, value(depth: depth - 1, flowOnly: flow)) }, flow: flow)
        default:
            let count = Int.random(in: 0...4, using: &random)
            let flow = flowOnly || count == 0 || chance(1, in: 3)
            return .sequence((0..<count).map { _ in value(depth: depth - 1, flowOnly: flow) }, flow: flow)
        }
    }

    // MARK: - Writing

    /// `key: value` at `indent`, and the lines of a block value under it.
    private mutating func pairLines(key: String, value: Value, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        if value.isBlockCollection {
            // A block list may sit at its key's indentation.
            var sameIndent = false
            if case .sequence = value { sameIndent = chance(1, in: 3) }
            return ["\(pad)\(key):" + trailingComment()] + blockLines(value, indent: sameIndent ? indent : indent + 2)
        }
        switch value {
        case .blockScalar(let header, let lines):
            return ["\(pad)\(key): \(header)"] + lines.map { $0.isEmpty ? "" : "\(pad)  \($0)" }
        case .nothing:
            return ["\(pad)\(key):" + trailingComment()]
        default:
            return ["\(pad)\(key): \(inline(value, continuation: chance(1, in: 6) ? pad + "  " : nil))" + trailingComment()]
        }
    }

    private mutating func trailingComment() -> String {
        chance(1, in: 5) ? " " + pick(Self.comments) : ""
    }

    /// The lines of a block mapping or list at `indent`.
    private mutating func blockLines(_ value: Value, indent: Int) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines: [String] = []
        switch value {
        case .mapping(let pairs, _):
            for (index, pair) in pairs.enumerated() {
                if index > 0, chance(1, in: 6) { lines.append(pad + pick(Self.comments)) }
                lines += pairLines(key: pair.key, value: pair.value, indent: indent)
            }
        case .sequence(let items, _):
            for (index, item) in items.enumerated() {
                if index > 0, chance(1, in: 6) { lines.append(pad + pick(Self.comments)) }
                if item.isBlockCollection {
                    // `- ` takes the place of the nested collection's first indentation.
                    var nested = blockLines(item, indent: indent + 2)
                    nested[0] = pad + "- " + nested[0].dropFirst(indent + 2)
                    lines += nested
                    continue
                }
                switch item {
                case .blockScalar(let header, let content):
                    lines.append("\(pad)- \(header)")
                    lines += content.map { $0.isEmpty ? "" : "\(pad)  \($0)" }
                case .nothing:
                    lines.append("\(pad)-" + trailingComment())
                default:
                    lines.append("\(pad)- \(inline(item, continuation: nil))" + trailingComment())
                }
            }
        default:
            preconditionFailure("only block collections span lines")
        }
        return lines
    }

    /// A scalar or flow collection on one line, or, with `continuation`, a flow collection
    /// whose entries after the first go on lines of their own indented so.
    private func inline(_ value: Value, continuation: String?) -> String {
        let separator = continuation.map { ",\n" + $0 } ?? ", "
        switch value {
        case .scalar(let text): return text
        case .nothing: return "~"
        case .blockScalar(_, let lines): return "\"" + lines.joined(separator: "\\n") + "\""
        case .mapping(let pairs, _):
            return "{" + pairs.map { "\($0.key): \(inline($0.value, continuation: nil))" }.joined(separator: separator) + "}"
        case .sequence(let items, _):
            return "[" + items.map { inline($0, continuation: nil) }.joined(separator: separator) + "]"
        }
    }
}
