#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The type of a runtime value: a parameter, a payload field or a rule's sub-expression.
/// Raw values are the type codes of the rule pack.
public enum ValueType: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// `true` or `false`.
    case bool = 0
    /// A 64-bit signed integer.
    case int = 1
    /// A 64-bit floating-point number (finite, where a parameter or payload holds one).
    case double = 2
    /// A string of Unicode text.
    case string = 3
    /// An instant, to the millisecond.
    case date = 4
    /// A length of time, to the millisecond.
    case duration = 5

    public var description: String {
        switch self {
        case .bool: return "Bool"
        case .int: return "Int"
        case .double: return "Double"
        case .string: return "String"
        case .date: return "Date"
        case .duration: return "Duration"
        }
    }
}

/// A value at run time. Dates are milliseconds since 1970-01-01T00:00:00Z (UTC); durations are
/// milliseconds.
public enum RuntimeValue: Sendable, Hashable, CustomStringConvertible {
    /// A Bool value.
    case bool(Bool)
    /// An Int value.
    case int(Int64)
    /// A Double value (a parameter or a payload field refuses NaN and the infinities).
    case double(Double)
    /// A String value.
    case string(String)
    /// A Date value, in milliseconds since 1970 (`.date(someDate)` makes one from a `Date`).
    case date(milliseconds: Int64)
    /// A Duration value, in milliseconds (`.duration(seconds)` makes one from a `TimeInterval`).
    case duration(milliseconds: Int64)

    /// The date `date`, rounded to the nearest millisecond like every instant of the runtime.
    /// - Throws: `TipError.unrepresentableTime` for a date whose milliseconds since 1970 do not
    ///   fit in 64 bits.
    public static func date(_ date: Date) throws(TipError) -> RuntimeValue {
        guard let milliseconds = Milliseconds.exactly(seconds: date.timeIntervalSince1970) else {
            throw .unrepresentableTime("the date \(date.timeIntervalSince1970) s since 1970 does not fit in the runtime's 64-bit milliseconds")
        }
        return .date(milliseconds: milliseconds)
    }

    /// The duration of `seconds`, rounded to the nearest millisecond.
    /// - Throws: `TipError.unrepresentableTime` for a length that is not finite or whose
    ///   milliseconds do not fit in 64 bits.
    public static func duration(_ seconds: TimeInterval) throws(TipError) -> RuntimeValue {
        guard let milliseconds = Milliseconds.exactly(seconds: seconds) else {
            throw .unrepresentableTime("the duration \(seconds) s is not finite or does not fit in the runtime's 64-bit milliseconds")
        }
        return .duration(milliseconds: milliseconds)
    }

    /// The date a `date` value holds; nil for a value of another type.
    public var dateValue: Date? {
        guard case .date(let milliseconds) = self else { return nil }
        return Date(millisecondsSince1970: milliseconds)
    }

    /// The seconds a `duration` value holds; nil for a value of another type.
    public var durationValue: TimeInterval? {
        guard case .duration(let milliseconds) = self else { return nil }
        return Milliseconds.seconds(milliseconds)
    }

    /// The value's type.
    public var type: ValueType {
        switch self {
        case .bool: return .bool
        case .int: return .int
        case .double: return .double
        case .string: return .string
        case .date: return .date
        case .duration: return .duration
        }
    }

    public var description: String {
        switch self {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .date(let ms): return "date(\(ms) ms)"
        case .duration(let ms): return "\(ms) ms"
        }
    }
}

/// Why a rule could not be evaluated. A rule whose evaluation fails is false.
public enum EvaluationFailure: String, Error, Sendable, Hashable, CustomStringConvertible {
    /// An Int, Date or Duration result does not fit in 64 bits.
    case integerOverflow = "integer-overflow"
    /// An Int division or remainder by zero.
    case divisionByZero = "division-by-zero"
    /// A Double operation gave an infinite or NaN result.
    case nonFiniteDouble = "non-finite-double"
    /// The stored donations of an event the rule reads do not fit the pack (a payload of
    /// another shape than the event declares).
    case inconsistentStore = "inconsistent-store"

    public var description: String {
        switch self {
        case .integerOverflow: return "integer overflow"
        case .divisionByZero: return "division by zero"
        case .nonFiniteDouble: return "the result is not a finite number"
        case .inconsistentStore: return "the donation store's data for an event does not fit the rule pack"
        }
    }
}
