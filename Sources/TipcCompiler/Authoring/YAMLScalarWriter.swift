/// Writes text as YAML scalars: plain where YAML would read the text back unchanged (and as a
/// string), quoted otherwise.
public enum YAMLScalarWriter {
    /// Whether `text` can be written as a plain scalar and read back as the same text: no
    /// leading indicator character, no `: ` or ` #`, no line break, no surrounding spaces, only
    /// printable characters, and in a flow collection (`inFlow`) none of `, [ ] { }`.
    public static func isSafePlain(_ text: String, inFlow: Bool) -> Bool {
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.first, let last = scalars.last else { return false }
        if first == " " || last == " " || last == ":" { return false }
        if "!&*[]{}|>'\"%@`#,?:".unicodeScalars.contains(first) { return false }
        if first == "-" && (scalars.count == 1 || scalars[1] == " ") { return false }
        for (index, scalar) in scalars.enumerated() {
            guard isPrintable(scalar), scalar != "\t" else { return false }
            if scalar == ":" && index + 1 < scalars.count && scalars[index + 1] == " " { return false }
            if scalar == "#" && index > 0 && scalars[index - 1] == " " { return false }
            if inFlow && ",[]{}".unicodeScalars.contains(scalar) { return false }
            if inFlow && scalar == ":" && index + 1 < scalars.count && ",[]{}".unicodeScalars.contains(scalars[index + 1]) {
                return false
            }
        }
        return true
    }

    /// Whether a plain scalar with this text would be read as something other than a string
    /// (null, a bool, an integer or a float, by YAML 1.2's core schema).
    public static func resolvesToNonString(_ text: String) -> Bool {
        if ["", "~", "null", "Null", "NULL"].contains(text) { return true }
        if ManifestScalars.bool(text) != nil { return true }
        if ManifestScalars.integer(text) != nil { return true }
        return ManifestScalars.double(text) != nil
    }

    /// A string value: plain when that reads back as the same string, else double-quoted.
    public static func string(_ text: String, inFlow: Bool) -> String {
        isSafePlain(text, inFlow: inFlow) && !resolvesToNonString(text) ? text : doubleQuoted(text)
    }

    /// Whether single quotes can hold `text` (they have no escapes: only printable characters).
    public static func canSingleQuote(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { isPrintable($0) && $0 != "\t" }
    }

    /// `'text'`, with `'` doubled.
    public static func singleQuoted(_ text: String) -> String {
        var output = "'"
        for character in text {
            output += character == "'" ? "''" : String(character)
        }
        return output + "'"
    }

    /// `"text"`, with `"` and `\` escaped, and line breaks, tabs and characters YAML does not
    /// allow in a file as escapes.
    public static func doubleQuoted(_ text: String) -> String {
        var output = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += "\\\""
            case "\\": output += "\\\\"
            case "\n": output += "\\n"
            case "\t": output += "\\t"
            case "\r": output += "\\r"
            default:
                if isPrintable(scalar) {
                    output.unicodeScalars.append(scalar)
                } else if scalar.value <= 0xFFFF {
                    output += "\\u" + hex(scalar.value, digits: 4)
                } else {
                    output += "\\U" + hex(scalar.value, digits: 8)
                }
            }
        }
        return output + "\""
    }

    /// The characters YAML allows in a file (and libyaml accepts), line breaks and tabs aside;
    /// U+0085, the line separators and the byte-order mark are left to escapes.
    static func isPrintable(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x20...0x7E: return true
        case 0xA0...0xD7FF: return scalar.value != 0x2028 && scalar.value != 0x2029
        case 0xE000...0xFFFD: return scalar.value != 0xFEFF
        case 0x10000...0x10FFFF: return true
        default: return false
        }
    }

    private static func hex(_ value: UInt32, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
