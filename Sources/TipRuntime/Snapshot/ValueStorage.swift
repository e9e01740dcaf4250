/// A compact, exact text form of runtime values for storage: a type tag, a colon, the value
/// (`b:true`, `i:42`, `d:2.5`, `s:text`, `t:<ms>` for dates, `u:<ms>` for durations). Doubles
/// print in Swift's shortest round-tripping form, so reading gives back the same bits.
extension RuntimeValue {
    /// The value's stored form (`i:42`, `s:text`, …).
    public var storageText: String {
        switch self {
        case .bool(let value): return "b:\(value)"
        case .int(let value): return "i:\(value)"
        case .double(let value): return "d:\(value)"
        case .string(let value): return "s:\(value)"
        case .date(let milliseconds): return "t:\(milliseconds)"
        case .duration(let milliseconds): return "u:\(milliseconds)"
        }
    }

    /// The value a stored form reads back as; nil when `text` is not one (an unknown tag, or a
    /// body that does not parse as its type).
    public init?(storageText text: String) {
        // By bytes, not characters: a text starting with a combining mark is one character
        // with the colon before it. The tag and the colon are ASCII, so the body starts at
        // the third byte.
        let utf8 = text.utf8
        guard utf8.count >= 2, utf8.dropFirst().first == UInt8(ascii: ":"), let tag = utf8.first else { return nil }
        let body = String(Substring(utf8.dropFirst(2)))
        switch tag {
        case UInt8(ascii: "b"):
            guard let value = Bool(body) else { return nil }
            self = .bool(value)
        case UInt8(ascii: "i"):
            guard let value = Int64(body) else { return nil }
            self = .int(value)
        case UInt8(ascii: "d"):
            guard let value = Double(body) else { return nil }
            self = .double(value)
        case UInt8(ascii: "s"): self = .string(body)
        case UInt8(ascii: "t"):
            guard let value = Int64(body) else { return nil }
            self = .date(milliseconds: value)
        case UInt8(ascii: "u"):
            guard let value = Int64(body) else { return nil }
            self = .duration(milliseconds: value)
        default: return nil
        }
    }
}

/// Payloads (field name → value) as one text: fields in name order, each `name=storageText`,
/// names and values escaped so that `=`, `;` and `\` inside them round-trip.
package enum PayloadStorage {
    package static func encode(_ payload: [String: RuntimeValue]) -> String {
        payload.sorted { $0.key < $1.key }
            .map { escape($0.key) + "=" + escape($0.value.storageText) }
            .joined(separator: ";")
    }

    package static func decode(_ text: String) -> [String: RuntimeValue]? {
        if text.isEmpty { return [:] }
        // Without an escape (almost every payload): fields split at `;`, each at its one `=`.
        if !text.utf8.contains(UInt8(ascii: "\\")) {
            var result: [String: RuntimeValue] = [:]
            for field in text.utf8.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
                guard let equals = field.firstIndex(of: UInt8(ascii: "=")), !field[field.index(after: equals)...].contains(UInt8(ascii: "=")),
                      let value = RuntimeValue(storageText: String(Substring(field[field.index(after: equals)...]))) else { return nil }
                result[String(Substring(field[..<equals]))] = value
            }
            return result
        }
        var result: [String: RuntimeValue] = [:]
        var parts: [String] = [""]
        var escaping = false
        for scalar in text.unicodeScalars {
            if escaping {
                parts[parts.count - 1].unicodeScalars.append(scalar)
                escaping = false
            } else if scalar == "\\" {
                escaping = true
            } else if scalar == "=" || scalar == ";" {
                parts.append(String(scalar))
                parts.append("")
            } else {
                parts[parts.count - 1].unicodeScalars.append(scalar)
            }
        }
        // parts: name, "=", value, ";", name, "=", value, …
        var index = 0
        while index < parts.count {
            guard index + 2 < parts.count, parts[index + 1] == "=", let value = RuntimeValue(storageText: parts[index + 2]) else { return nil }
            result[parts[index]] = value
            index += 3
            if index < parts.count {
                guard parts[index] == ";" else { return nil }
                index += 1
            }
        }
        return result
    }

    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar == "\\" || scalar == "=" || scalar == ";" { out.unicodeScalars.append("\\") }
            out.unicodeScalars.append(scalar)
        }
        return out
    }
}
