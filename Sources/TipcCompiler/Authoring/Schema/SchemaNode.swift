extension ManifestSchema {
    /// A JSON value whose objects keep their keys in the order written, so the schema prints
    /// the same bytes every time and reads in a sensible order (description first, then type,
    /// then details).
    indirect enum Node: Sendable {
        case string(String)
        case integer(Int)
        case bool(Bool)
        case array([Node])
        case object([(String, Node)])

        /// Pretty-printed JSON, two spaces per level, no trailing newline.
        func rendered() -> String {
            var output = ""
            write(to: &output, indent: 0)
            return output
        }

        private func write(to output: inout String, indent: Int) {
            switch self {
            case .string(let text): Node.writeString(text, to: &output)
            case .integer(let number): output += String(number)
            case .bool(let flag): output += flag ? "true" : "false"
            case .array(let items):
                guard !items.isEmpty else { output += "[]"; return }
                output += "[\n"
                for (index, item) in items.enumerated() {
                    output += String(repeating: "  ", count: indent + 1)
                    item.write(to: &output, indent: indent + 1)
                    output += index == items.count - 1 ? "\n" : ",\n"
                }
                output += String(repeating: "  ", count: indent) + "]"
            case .object(let members):
                guard !members.isEmpty else { output += "{}"; return }
                output += "{\n"
                for (index, (key, value)) in members.enumerated() {
                    output += String(repeating: "  ", count: indent + 1)
                    Node.writeString(key, to: &output)
                    output += ": "
                    value.write(to: &output, indent: indent + 1)
                    output += index == members.count - 1 ? "\n" : ",\n"
                }
                output += String(repeating: "  ", count: indent) + "}"
            }
        }

        private static func writeString(_ text: String, to output: inout String) {
            output += "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": output += "\\\""
                case "\\": output += "\\\\"
                case "\n": output += "\\n"
                case "\r": output += "\\r"
                case "\t": output += "\\t"
                case _ where scalar.value < 0x20:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    output += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                default: output.unicodeScalars.append(scalar)
                }
            }
            output += "\""
        }
    }
}
