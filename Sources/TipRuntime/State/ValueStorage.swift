/// A compact, exact text form of runtime values for storage: a type tag, a colon, the value
/// (`b:true`, `i:42`, `d:2.5`, `s:text`, `t:<ms>` for dates, `u:<ms>` for durations). Doubles
/// print in Swift's shortest round-tripping form, so reading gives back the same bits.
extension RuntimeValue {
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

    public init?(storageText text: String) {
        // By scalars, not characters: a text starting with a combining mark is one character
        // with the colon before it.
        let scalars = text.unicodeScalars
        guard scalars.count >= 2, scalars.dropFirst().first == ":", let tag = scalars.first else { return nil }
        let body = String(String.UnicodeScalarView(scalars.dropFirst(2)))
        switch Character(tag) {
        case "b":
            guard let value = Bool(body) else { return nil }
            self = .bool(value)
        case "i":
            guard let value = Int64(body) else { return nil }
            self = .int(value)
        case "d":
            guard let value = Double(body) else { return nil }
            self = .double(value)
        case "s": self = .string(body)
        case "t":
            guard let value = Int64(body) else { return nil }
            self = .date(milliseconds: value)
        case "u":
            guard let value = Int64(body) else { return nil }
            self = .duration(milliseconds: value)
        default: return nil
        }
    }
}

/// Payloads (field name → value) as one text: fields in name order, each `name=storageText`,
/// names and values escaped so that `=`, `;` and `\` inside them round-trip.
public enum PayloadStorage {
    public static func encode(_ payload: [String: RuntimeValue]) -> String {
        payload.sorted { $0.key < $1.key }
            .map { escape($0.key) + "=" + escape($0.value.storageText) }
            .joined(separator: ";")
    }

    public static func decode(_ text: String) -> [String: RuntimeValue]? {
        if text.isEmpty { return [:] }
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
