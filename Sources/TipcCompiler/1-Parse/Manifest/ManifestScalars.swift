/// How manifest values are read from YAML scalars: YAML 1.2 core-schema resolution of plain
/// scalars, and the checks on names.
enum ManifestScalars {
    /// A plain scalar's value as the core schema resolves it; nil for null.
    /// Quoted and block scalars are always strings.
    static func literal(of scalar: YAMLScalar) -> Literal? {
        guard scalar.style == .plain else { return .string(scalar.value) }
        if scalar.isNull { return nil }
        if let bool = bool(scalar.value) { return .bool(bool) }
        if let int = integer(scalar.value) {
            // An integer too large for Int stays text here; callers report it.
            return int.map { .int($0) } ?? .string(scalar.value)
        }
        if let double = double(scalar.value) { return .double(double) }
        return .string(scalar.value)
    }

    /// `true`/`false` in the spellings the core schema allows.
    static func bool(_ text: String) -> Bool? {
        switch text {
        case "true", "True", "TRUE": return true
        case "false", "False", "FALSE": return false
        default: return nil
        }
    }

    /// nil: not an integer; `.some(nil)`: an integer too large for Int.
    static func integer(_ text: String) -> Int?? {
        // The common case, a few decimal digits, read straight from the bytes.
        let utf8 = text.utf8
        if !utf8.isEmpty, utf8.count <= 18 {
            var value = 0
            var allDigits = true
            for byte in utf8 {
                guard byte >= 0x30 && byte <= 0x39 else {
                    allDigits = false
                    break
                }
                value = value * 10 + Int(byte - 0x30)
            }
            if allDigits { return .some(value) }
        }
        var digits = Substring(text)
        var radix = 10
        var negative = false
        if digits.hasPrefix("0o") {
            radix = 8
            digits = digits.dropFirst(2)
        } else if digits.hasPrefix("0x") {
            radix = 16
            digits = digits.dropFirst(2)
        } else if let sign = digits.first, sign == "-" || sign == "+" {
            negative = sign == "-"
            digits = digits.dropFirst()
        }
        let allowed: (Character) -> Bool = { character in
            switch radix {
            case 8: return ("0"..."7").contains(character)
            case 16: return character.isHexDigit
            default: return ("0"..."9").contains(character)
            }
        }
        guard !digits.isEmpty, digits.allSatisfy(allowed) else { return nil }
        guard let magnitude = UInt64(digits, radix: radix) else { return .some(nil) }
        if negative {
            return magnitude <= UInt64(Int.max) + 1 ? .some(magnitude == UInt64(Int.max) + 1 ? Int.min : -Int(magnitude)) : .some(nil)
        }
        return magnitude <= UInt64(Int.max) ? .some(Int(magnitude)) : .some(nil)
    }

    /// A float in the core schema (`1.5`, `-2e3`, `.5`, `.inf`, `.nan`).
    static func double(_ text: String) -> Double? {
        switch text {
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .infinity
        case "-.inf", "-.Inf", "-.INF": return -.infinity
        case ".nan", ".NaN", ".NAN": return .nan
        default: break
        }
        var rest = Substring(text)
        if let sign = rest.first, sign == "-" || sign == "+" { rest = rest.dropFirst() }
        let isDigit: (Character) -> Bool = { ("0"..."9").contains($0) }
        let integerPart = rest.prefix(while: isDigit)
        rest = rest.dropFirst(integerPart.count)
        var fractionDigits = 0
        if rest.first == "." {
            rest = rest.dropFirst()
            let fraction = rest.prefix(while: isDigit)
            fractionDigits = fraction.count
            rest = rest.dropFirst(fraction.count)
        }
        guard !integerPart.isEmpty || fractionDigits > 0 else { return nil }
        if let e = rest.first, e == "e" || e == "E" {
            rest = rest.dropFirst()
            if let sign = rest.first, sign == "-" || sign == "+" { rest = rest.dropFirst() }
            let exponent = rest.prefix(while: isDigit)
            guard !exponent.isEmpty else { return nil }
            rest = rest.dropFirst(exponent.count)
        }
        guard rest.isEmpty else { return nil }
        return Double(text)
    }

    /// Names of parameters, events, fields, tips, groups and actions: `[A-Za-z_][A-Za-z0-9_.-]*`.
    /// Read from the UTF-8 bytes: every allowed character is ASCII, so any other byte fails.
    static func isValidName(_ name: String) -> Bool {
        var isFirst = true
        for byte in name.utf8 {
            let isLetter = (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || byte == 0x5F  // a-z A-Z _
            let continues = (byte >= 0x30 && byte <= 0x39) || byte == 0x2E || byte == 0x2D  // 0-9 . -
            guard isLetter || (!isFirst && continues) else { return false }
            isFirst = false
        }
        return !isFirst
    }
}
