/// How a value is held in a 64-bit slot (the VM's stack, parameters, payload columns, a pack's
/// constants and parameter defaults): a Bool as 0 or 1; an Int as itself; a Date or Duration as
/// its Int64 milliseconds; a Double as its IEEE-754 bits; a String as a code that the holder of
/// the slot chooses (an index into a table of strings).
///
/// Doubles are normalised on the way in, so that equal numbers have equal slots: −0.0 is held
/// as 0.0, and every NaN as the one quiet NaN. Slots can then be compared and grouped by their
/// bits.
package enum ValueSlot {
    /// The slot of a Double: its bits, with −0.0 as 0.0 and any NaN as `Double.nan`.
    @inline(__always)
    package static func slot(_ number: Double) -> Int64 {
        if number == 0 { return 0 }
        if number.isNaN { return canonicalNaN }
        return Int64(bitPattern: number.bitPattern)
    }

    /// The Double a slot holds.
    @inline(__always)
    package static func double(_ slot: Int64) -> Double { Double(bitPattern: UInt64(bitPattern: slot)) }

    /// The bits of the one NaN a slot holds.
    package static let canonicalNaN = Int64(bitPattern: Double.nan.bitPattern)

    /// The slot of `value`; a String's slot is the code `stringCode` gives it.
    @inline(__always)
    package static func slot(_ value: RuntimeValue, stringCode: (String) throws -> Int64) rethrows -> Int64 {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let number), .date(milliseconds: let number), .duration(milliseconds: let number): return number
        case .double(let number): return slot(number)
        case .string(let text): return try stringCode(text)
        }
    }

    /// The value of `type` in `slot` (a Bool is true for any slot but 0); a String is the text
    /// `string` gives for its code. Whoever reads slots from outside (a pack) checks them first.
    @inline(__always)
    package static func value(_ slot: Int64, as type: ValueType, string: (Int64) -> String) -> RuntimeValue {
        switch type {
        case .bool: return .bool(slot != 0)
        case .int: return .int(slot)
        case .double: return .double(double(slot))
        case .string: return .string(string(slot))
        case .date: return .date(milliseconds: slot)
        case .duration: return .duration(milliseconds: slot)
        }
    }
}
