/// A JSON document: parsed from request bodies (strictly, with the byte offset of the first
/// error) and written for responses with objects in the order their members were given.
public enum JSON: Sendable, Hashable {
    case object([(String, JSON)])
    case array([JSON])
    case string(String)
    case integer(Int64)
    /// A number with a fraction or exponent, or an integer beyond Int64.
    case number(Double)
    case bool(Bool)
    case null

    public static func == (a: JSON, b: JSON) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.integer(let x), .integer(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(serialized()) }

    /// A member of an object (the last one of that name), or nil.
    public subscript(key: String) -> JSON? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// What a message calls this value's type ("a string", "an object", …).
    public var kindDescription: String {
        switch self {
        case .object: return "an object"
        case .array: return "an array"
        case .string: return "a string"
        case .integer, .number: return "a number"
        case .bool: return "a boolean"
        case .null: return "null"
        }
    }

    // MARK: - Writing

    /// The document on one line, or indented by two spaces per level (`pretty`).
    public func serialized(pretty: Bool = false) -> String {
        String(decoding: utf8(pretty: pretty), as: UTF8.self)
    }

    /// `serialized(pretty:)` as UTF-8 bytes (a response's body), written without a `String`.
    public func utf8(pretty: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        write(to: &output, pretty: pretty, depth: 0)
        return output
    }

    private func write(to output: inout [UInt8], pretty: Bool, depth: Int) {
        switch self {
        case .string(let text): Self.writeString(text, to: &output)
        case .integer(let number): output += String(number).utf8
        case .number(let number): output += (number.isFinite ? String(number) : "null").utf8
        case .bool(let flag): output += (flag ? "true" : "false").utf8
        case .null: output += "null".utf8
        case .array(let elements):
            guard !elements.isEmpty else { output += "[]".utf8; return }
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, pretty: pretty, depth: depth + 1)
                element.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            Self.newline(&output, pretty: pretty, depth: depth)
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { output += "{}".utf8; return }
            output.append(UInt8(ascii: "{"))
            for (index, (key, value)) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.newline(&output, pretty: pretty, depth: depth + 1)
                Self.writeString(key, to: &output)
                output += (pretty ? ": " : ":").utf8
                value.write(to: &output, pretty: pretty, depth: depth + 1)
            }
            Self.newline(&output, pretty: pretty, depth: depth)
            output.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ output: inout [UInt8], pretty: Bool, depth: Int) {
        guard pretty else { return }
        output.append(UInt8(ascii: "\n"))
        output += repeatElement(UInt8(ascii: " "), count: 2 * depth)
    }

    /// A string literal: `"` and `\` escaped, control characters as `\n`, … or `\u00XX`.
    static func writeString(_ text: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // Most texts need no escape: copied whole.
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            output += text.utf8
            output.append(UInt8(ascii: "\""))
            return
        }
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += #"\""#.utf8
            case UInt8(ascii: "\\"): output += #"\\"#.utf8
            case UInt8(ascii: "\n"): output += #"\n"#.utf8
            case UInt8(ascii: "\r"): output += #"\r"#.utf8
            case UInt8(ascii: "\t"): output += #"\t"#.utf8
            case 0x08: output += #"\b"#.utf8
            case 0x0C: output += #"\f"#.utf8
            case ..<0x20:
                let digits = Array("0123456789abcdef".utf8)
                output += #"\u00"#.utf8
                output.append(digits[Int(byte >> 4)])
                output.append(digits[Int(byte & 0x0F)])
            default:
                // Bytes of UTF-8 sequences (0x80 and up) are copied as they are.
                output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    // MARK: - Parsing

    /// Why a body is not JSON, and where.
    public struct ParseError: Error, Sendable, Hashable, CustomStringConvertible {
        public var offset: Int
        public var reason: String
        public var description: String { "the body is not valid JSON: \(reason) at byte \(offset)" }
    }

    /// Parses one JSON document (RFC 8259; nesting at most 64 deep).
    public static func parse(_ bytes: [UInt8]) throws(ParseError) -> JSON {
        var parser = Parser(bytes: bytes)
        parser.skipSpace()
        let value = try parser.value(depth: 0)
        parser.skipSpace()
        guard parser.position == bytes.count else { throw parser.error("unexpected text after the document") }
        return value
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        func error(_ reason: String) -> ParseError { ParseError(offset: position, reason: reason) }

        mutating func skipSpace() {
            while position < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[position]) { position += 1 }
        }

        mutating func expect(_ literal: String, _ value: JSON) throws(ParseError) -> JSON {
            for byte in literal.utf8 {
                guard position < bytes.count, bytes[position] == byte else { throw error("expected '\(literal)'") }
                position += 1
            }
            return value
        }

        mutating func value(depth: Int) throws(ParseError) -> JSON {
            guard depth < 64 else { throw error("nesting deeper than 64") }
            guard position < bytes.count else { throw error("unexpected end of the body") }
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var members: [(String, JSON)] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                while true {
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw error("expected a member name in quotes") }
                    let key = try string()
                    skipSpace()
                    guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw error("expected ':'") }
                    position += 1
                    skipSpace()
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                    guard position < bytes.count else { throw error("unexpected end of the body") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "}") { position += 1; return .object(members) }
                    throw error("expected ',' or '}'")
                }
            case UInt8(ascii: "["):
                position += 1
                var elements: [JSON] = []
                skipSpace()
                if position < bytes.count, bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                while true {
                    skipSpace()
                    elements.append(try value(depth: depth + 1))
                    skipSpace()
                    guard position < bytes.count else { throw error("unexpected end of the body") }
                    if bytes[position] == UInt8(ascii: ",") { position += 1; continue }
                    if bytes[position] == UInt8(ascii: "]") { position += 1; return .array(elements) }
                    throw error("expected ',' or ']'")
                }
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): return try expect("true", .bool(true))
            case UInt8(ascii: "f"): return try expect("false", .bool(false))
            case UInt8(ascii: "n"): return try expect("null", .null)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw error("unexpected character")
            }
        }

        mutating func number() throws(ParseError) -> JSON {
            let start = position
            func digits() -> Int {
                let from = position
                while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
                return position - from
            }
            if bytes[position] == UInt8(ascii: "-") { position += 1 }
            let integerStart = position
            let integerDigits = digits()
            guard integerDigits > 0 else { throw error("expected a digit") }
            if integerDigits > 1, bytes[integerStart] == UInt8(ascii: "0") { throw ParseError(offset: integerStart, reason: "a number with a leading zero") }
            var isInteger = true
            if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
                position += 1
                isInteger = false
                guard digits() > 0 else { throw error("expected a digit after '.'") }
            }
            if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
                position += 1
                isInteger = false
                if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
                guard digits() > 0 else { throw error("expected a digit in the exponent") }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if isInteger, let integer = Int64(text) { return .integer(integer) }
            guard let double = Double(text), double.isFinite else { throw ParseError(offset: start, reason: "a number out of range") }
            return .number(double)
        }

        mutating func string() throws(ParseError) -> String {
            position += 1
            var scalars = String.UnicodeScalarView()
            var run = position
            func flush(_ end: Int) throws(ParseError) {
                guard end > run else { return }
                guard let text = String(validating: bytes[run..<end], as: UTF8.self) else {
                    throw ParseError(offset: run, reason: "invalid UTF-8 in a string")
                }
                scalars.append(contentsOf: text.unicodeScalars)
            }
            while true {
                guard position < bytes.count else { throw error("unterminated string") }
                let byte = bytes[position]
                if byte == UInt8(ascii: "\"") {
                    try flush(position)
                    position += 1
                    return String(scalars)
                }
                if byte < 0x20 { throw error("a control character in a string (escape it)") }
                if byte != UInt8(ascii: "\\") { position += 1; continue }
                try flush(position)
                position += 1
                guard position < bytes.count else { throw error("unterminated string") }
                let escape = bytes[position]
                position += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append("\"")
                case UInt8(ascii: "\\"): scalars.append("\\")
                case UInt8(ascii: "/"): scalars.append("/")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "u"):
                    var code = try hex4()
                    if (0xD800...0xDBFF).contains(code) {
                        guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                            throw error("a lone UTF-16 surrogate")
                        }
                        position += 2
                        let low = try hex4()
                        guard (0xDC00...0xDFFF).contains(low) else { throw error("a lone UTF-16 surrogate") }
                        code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let scalar = Unicode.Scalar(code) else { throw error("a lone UTF-16 surrogate") }
                    scalars.append(scalar)
                default: throw ParseError(offset: position - 1, reason: "an unknown escape")
                }
                run = position
            }
        }

        mutating func hex4() throws(ParseError) -> UInt32 {
            guard position + 4 <= bytes.count,
                  let value = UInt32(String(decoding: bytes[position..<position + 4], as: UTF8.self), radix: 16) else {
                throw error("expected four hex digits after \\u")
            }
            position += 4
            return value
        }
    }
}

extension JSON {
    /// An integer of the platform's width (counts, indices, line numbers).
    public static func integer(_ value: Int) -> JSON { .integer(Int64(value)) }
}
