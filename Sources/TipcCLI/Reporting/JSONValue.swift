/// A JSON document with objects kept in the order their keys were given, so machine output
/// has a stable, documented key order; serialised by hand with standard escaping.
enum JSONValue: Sendable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case integer(Int)
    /// A finite number in Swift's shortest round-tripping form (non-finite: `null`).
    case number(Double)
    case bool(Bool)
    case null

    /// The document on one line (`pretty: false`) or indented by two spaces per level.
    func serialized(pretty: Bool) -> String {
        var output = ""
        write(to: &output, pretty: pretty, depth: 0)
        return output
    }

    private func write(to output: inout String, pretty: Bool, depth: Int) {
        switch self {
        case .string(let text): Self.writeString(text, to: &output)
        case .integer(let number): output += String(number)
        case .number(let number): output += number.isFinite ? String(number) : "null"
        case .bool(let flag): output += flag ? "true" : "false"
        case .null: output += "null"
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]"; return }
            output += "["
            for (index, element) in elements.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, pretty: pretty, depth: depth + 1)
                element.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            Self.newline(&output, pretty: pretty, depth: depth)
            output += "]"
        case .object(let members):
            guard !members.isEmpty else { output += "{}"; return }
            output += "{"
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output += "," }
                Self.newline(&output, pretty: pretty, depth: depth + 1)
                Self.writeString(key, to: &output)
                output += pretty ? ": " : ":"
                value.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            Self.newline(&output, pretty: pretty, depth: depth)
            output += "}"
        }
    }

    private static func newline(_ output: inout String, pretty: Bool, depth: Int) {
        guard pretty else { return }
        output += "\n" + String(repeating: "  ", count: depth)
    }

    /// A JSON string literal: `"` and `\` escaped, control characters as `\n`, `\t`, … or
    /// `\u00XX`; everything else verbatim (the output is UTF-8).
    static func writeString(_ text: String, to output: inout String) {
        output += "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\r": output += "\\r"
            case "\t": output += "\\t"
            case "\u{08}": output += "\\b"
            case "\u{0C}": output += "\\f"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16, uppercase: false)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    output.unicodeScalars.append(scalar)
                }
            }
        }
        output += "\""
    }
}
