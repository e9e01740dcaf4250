import TipRuntime

/// Runtime values in JSON (the service's bodies, `tipc store`'s payloads and export, reports):
/// booleans, integers and doubles as JSON numbers, strings as strings, dates and durations as
/// strings in their text form (`ValueText`: `"2026-03-01T09:00:00Z"`, `"1d12h"`, `"1500ms"`).
package enum ValueJSON {
    /// The value as JSON.
    package static func json(_ value: RuntimeValue) -> JSON {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .date, .duration: return .string(ValueText.display(value))
        }
    }

    /// `json` as a value of `type`, or nil when it is not one (an Int is a Double too).
    package static func value(_ json: JSON, as type: ValueType) -> RuntimeValue? {
        switch (type, json) {
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .integer(let number)): return .int(number)
        case (.double, .integer(let number)): return .double(Double(number))
        case (.double, .number(let number)): return .double(number)
        case (.string, .string(let text)): return .string(text)
        case (.date, .string(let text)), (.duration, .string(let text)): return try? ValueText.parse(text, as: type).get()
        default: return nil
        }
    }

    /// The type a JSON value has on its own (for values whose declared type is unknown).
    package static func natural(_ json: JSON) -> RuntimeValue? {
        switch json {
        case .bool(let flag): return .bool(flag)
        case .integer(let number): return .int(number)
        case .number(let number): return .double(number)
        case .string(let text): return .string(text)
        default: return nil
        }
    }

    /// How a type is named in messages and what JSON it takes.
    package static func expected(_ type: ValueType) -> String {
        switch type {
        case .bool: return "a Bool (true or false)"
        case .int: return "an Int (a JSON integer)"
        case .double: return "a Double (a JSON number)"
        case .string: return "a String"
        case .date: return "a Date (an ISO-8601 string such as \"2026-03-01T09:00:00Z\")"
        case .duration: return "a Duration (a string such as \"90s\", \"1d12h\" or \"1500ms\")"
        }
    }
}
