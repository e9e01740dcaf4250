import TipRuntime

/// Conversions between whole seconds (as written) and milliseconds (as evaluated).
enum Milliseconds {
    /// `seconds × 1000`, or nil on overflow.
    static func from(seconds: Int) -> Int? {
        let (value, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        return overflow ? nil : value
    }
}

extension RuntimeValue {
    /// The value a parameter of `type` has before anything is known.
    static func zero(of type: ValueType) -> RuntimeValue {
        switch type {
        case .bool: return .bool(false)
        case .int: return .int(0)
        case .double: return .double(0)
        case .string: return .string("")
        case .date: return .date(milliseconds: 0)
        case .duration: return .duration(milliseconds: 0)
        }
    }

    /// A manifest literal as a value of `type`, or nil if it is not one. An Int literal is a
    /// valid Double; a Date is written as an ISO-8601 string; a Duration as a duration literal
    /// or a string holding one (YAML reads `5m` as a string).
    static func converting(_ literal: Literal, to type: ValueType) -> RuntimeValue? {
        switch (type, literal) {
        case (.bool, .bool(let value)): return .bool(value)
        case (.int, .int(let value)): return .int(Int64(value))
        case (.double, .int(let value)): return .double(Double(value))
        case (.double, .double(let value)): return .double(value)
        case (.string, .string(let value)): return .string(value)
        case (.date, .string(let text)):
            return ISO8601.milliseconds(from: text).map { .date(milliseconds: Int64($0)) }
        case (.duration, .duration(let seconds)):
            return Milliseconds.from(seconds: seconds).map { .duration(milliseconds: Int64($0)) }
        case (.duration, .string(let text)):
            guard case .success(let seconds) = DurationText.seconds(of: text) else { return nil }
            return Milliseconds.from(seconds: seconds).map { .duration(milliseconds: Int64($0)) }
        default: return nil
        }
    }

    /// An example default of `type`, for help texts.
    static func example(of type: ValueType) -> String {
        switch type {
        case .bool: return "false"
        case .int: return "0"
        case .double: return "0.5"
        case .string: return "\"text\""
        case .date: return "\"2026-01-01T00:00:00Z\""
        case .duration: return "5m"
        }
    }
}
