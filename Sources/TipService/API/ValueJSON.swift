import TipRuntime

/// Runtime values in JSON bodies: booleans, integers and doubles as JSON numbers, strings as
/// strings, dates as ISO-8601 strings (`2026-03-01T09:00:00Z`), durations as duration
/// literals (`90s`, `1d12h`, `1500ms`).
enum ValueJSON {
    static func json(_ value: RuntimeValue) -> JSON {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .date(let ms): return .string(ISO8601.string(fromMilliseconds: Int(ms)))
        case .duration(let ms): return .string(DurationFormatting.describe(milliseconds: ms))
        }
    }

    /// `json` as a value of `type`, or nil when it is not one.
    static func value(_ json: JSON, as type: ValueType) -> RuntimeValue? {
        switch (type, json) {
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .integer(let number)): return .int(number)
        case (.double, .integer(let number)): return .double(Double(number))
        case (.double, .number(let number)): return .double(number)
        case (.string, .string(let text)): return .string(text)
        case (.date, .string(let text)): return ISO8601.milliseconds(from: text).map { .date(milliseconds: Int64($0)) }
        case (.duration, .string(let text)): return durationMilliseconds(text).map { .duration(milliseconds: $0) }
        default: return nil
        }
    }

    /// The type a JSON value has on its own (for values whose declared type is unknown).
    static func natural(_ json: JSON) -> RuntimeValue? {
        switch json {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .int(number)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        default: return nil
        }
    }

    /// `1d12h`, `90s`, `1500ms`, `-2h` (units d, h, m, s, ms), in milliseconds; nil when the
    /// text is not a duration or overflows.
    static func durationMilliseconds(_ text: String) -> Int64? {
        var rest = Substring(text)
        var sign: Int64 = 1
        if rest.first == "-" { sign = -1; rest.removeFirst() }
        guard !rest.isEmpty else { return nil }
        var total: Int64 = 0
        while !rest.isEmpty {
            let digits = rest.prefix { $0.isASCII && $0.isNumber }
            guard !digits.isEmpty, let number = Int64(digits) else { return nil }
            rest = rest.dropFirst(digits.count)
            let unit: Int64
            if rest.hasPrefix("ms") { unit = 1; rest = rest.dropFirst(2) }
            else if rest.hasPrefix("d") { unit = 86_400_000; rest = rest.dropFirst() }
            else if rest.hasPrefix("h") { unit = 3_600_000; rest = rest.dropFirst() }
            else if rest.hasPrefix("m") { unit = 60_000; rest = rest.dropFirst() }
            else if rest.hasPrefix("s") { unit = 1_000; rest = rest.dropFirst() }
            else { return nil }
            let (part, overflow) = number.multipliedReportingOverflow(by: unit)
            guard !overflow else { return nil }
            let (sum, overflowed) = total.addingReportingOverflow(part)
            guard !overflowed else { return nil }
            total = sum
        }
        return sign * total
    }

    /// How a type is named in messages and what JSON it takes.
    static func expected(_ type: ValueType) -> String {
        switch type {
        case .bool: return "a Bool (true or false)"
        case .int: return "an Int (a JSON integer)"
        case .double: return "a Double (a JSON number)"
        case .string: return "a String"
        case .date: return "a Date (an ISO-8601 string such as \"2026-03-01T09:00:00Z\")"
        case .duration: return "a Duration (a string such as \"90s\" or \"1d12h\")"
        }
    }
}
