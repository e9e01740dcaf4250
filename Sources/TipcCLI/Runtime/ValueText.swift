#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TipcCompiler
import TipRuntime
import TipService

/// Values as people type them (command lines, timelines) and as JSON shows them.
enum ValueText {
    /// `text` as a value of `type`: `true`/`false`, integers, decimals, any string, ISO-8601
    /// instants for dates, duration literals (`5m`) for durations. Nil when it is not one.
    static func parse(_ text: String, as type: ValueType) -> RuntimeValue? {
        switch type {
        case .bool: return Bool(text).map { .bool($0) }
        case .int: return Int64(text.filter { $0 != "_" }).map { .int($0) }
        case .double:
            guard let value = Double(text), value.isFinite else { return nil }
            return .double(value)
        case .string: return .string(text)
        case .date: return ISO8601.milliseconds(from: text).map { .date(milliseconds: Int64($0)) }
        case .duration:
            guard case .success(let seconds) = DurationLiteral.seconds(of: text) else { return nil }
            let (ms, overflow) = Int64(seconds).multipliedReportingOverflow(by: 1000)
            return overflow ? nil : .duration(milliseconds: ms)
        }
    }

    /// A JSON value as a value of `type` (dates and durations as strings).
    static func fromJSON(_ json: JSON, as type: ValueType) -> RuntimeValue? {
        switch (type, json) {
        case (.bool, .bool(let flag)): return .bool(flag)
        case (.int, .integer(let number)): return .int(number)
        case (.double, .integer(let number)): return .double(Double(number))
        case (.double, .number(let number)): return .double(number)
        case (.string, .string(let text)): return .string(text)
        case (.date, .string(let text)), (.duration, .string(let text)): return parse(text, as: type)
        default: return nil
        }
    }

    /// The value as a person writes it (dates ISO-8601, durations `1d12h`).
    static func display(_ value: RuntimeValue) -> String {
        switch value {
        case .bool(let flag): return String(flag)
        case .int(let number): return String(number)
        case .double(let number): return String(number)
        case .string(let text): return "\"\(text)\""
        case .date(let ms): return ISO8601.string(fromMilliseconds: Int(ms))
        case .duration(let ms): return ms % 1000 == 0 ? DurationLiteral.format(seconds: Int(ms / 1000)) : "\(ms)ms"
        }
    }

    /// The value as JSON.
    static func json(_ value: RuntimeValue) -> JSON {
        switch value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .integer(number)
        case .double(let number): return .number(number)
        case .string(let text): return .string(text)
        case .date(let ms): return .string(ISO8601.string(fromMilliseconds: Int(ms)))
        case .duration(let ms): return .string(display(.duration(milliseconds: ms)))
        }
    }
}
