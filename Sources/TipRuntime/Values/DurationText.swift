/// Durations as text: the one grammar every reader uses (`.tips` and YAML manifests, timelines,
/// `--value`, the service's bodies) and the one spelling every printer writes.
///
/// A duration is one or more components, each digits (`_` may separate them) and a unit: `ms`,
/// `s`, `m`, `h`, `d` or `w` (`45s`, `1d12h`, `1500ms`, `2w`). Months and years are refused:
/// their length varies. A duration that a person writes is never negative; a computed one
/// (`Date - Date`) may be, and prints with a leading `-`, which `allowsNegative` reads back.
package enum DurationText {
    /// Why a text is not a duration; `message` and `help` say so to a person.
    package enum Failure: Error, Sendable, Hashable {
        /// A unit that is none of `ms s m h d w`; `hint` explains (months, years, unit words).
        case unknownUnit(String, hint: String?)
        /// Not of the shape digits+unit (…digits+unit).
        case malformed
        /// A leading `-` where a duration is read from a person (see `milliseconds(of:allowsNegative:)`).
        case negative
        /// A part of a second where durations are whole seconds (rules and manifests).
        case fractionalSeconds
        /// The total does not fit (64-bit milliseconds for values, seconds in a manifest).
        case overflow

        package var message: String {
            switch self {
            case .unknownUnit(let unit, _): return "unknown duration unit '\(unit)'"
            case .malformed: return "malformed duration"
            case .negative: return "a duration cannot be negative"
            case .fractionalSeconds: return "duration is not a whole number of seconds"
            case .overflow: return "duration is too large"
            }
        }

        package var help: String? {
            switch self {
            case .unknownUnit(_, let hint): return hint ?? "units are \(DurationText.unitList) (e.g. 1d12h)"
            case .malformed: return "write a number followed by a unit: 1500ms, 45s, 30m, 12h, 3d, 2w or 1d12h"
            case .negative: return "write it without '-'"
            case .fractionalSeconds: return "rules and manifests count whole seconds: round to 1s, or write 2000ms"
            case .overflow: return nil
            }
        }
    }

    /// The units in messages.
    package static let unitList = "ms, s, m, h, d and w"

    // MARK: - Reading

    /// `text` in milliseconds (`1d12h`, `1500ms`; `-2h` when `allowsNegative`).
    package static func milliseconds(of text: String, allowsNegative: Bool) -> Result<Int64, Failure> {
        let parsed: Components
        switch components(of: text) {
        case .success(let value): parsed = value
        case .failure(let failure): return .failure(failure)
        }
        if parsed.isNegative && !allowsNegative { return .failure(.negative) }
        // The magnitude in UInt64, so that −2⁶³ ms reads back.
        guard parsed.seconds <= Int(UInt64.max / 1000) else { return .failure(.overflow) }
        let (magnitude, overflow) = (UInt64(parsed.seconds) * 1000).addingReportingOverflow(parsed.milliseconds)
        guard !overflow else { return .failure(.overflow) }
        if parsed.isNegative {
            guard magnitude <= Int64.min.magnitude else { return .failure(.overflow) }
            return .success(magnitude == Int64.min.magnitude ? .min : -Int64(magnitude))
        }
        guard magnitude <= UInt64(Int64.max) else { return .failure(.overflow) }
        return .success(Int64(magnitude))
    }

    /// `text` in whole seconds, never negative: the durations of rules and manifests. `1500ms`
    /// is refused (`fractionalSeconds`); `2000ms` is 2.
    package static func seconds(of text: String) -> Result<Int, Failure> {
        let parsed: Components
        switch components(of: text) {
        case .success(let value): parsed = value
        case .failure(let failure): return .failure(failure)
        }
        if parsed.isNegative { return .failure(.negative) }
        guard parsed.milliseconds % 1000 == 0 else { return .failure(.fractionalSeconds) }
        let (total, overflow) = parsed.seconds.addingReportingOverflow(Int(parsed.milliseconds / 1000))
        return overflow ? .failure(.overflow) : .success(total)
    }

    /// Seconds per one-letter unit, for a letter read as a byte (the rule lexer's quick path):
    /// nil for any other byte, `ms` included.
    @inline(__always)
    package static func seconds(perUnitLetter letter: UInt8) -> Int? {
        switch letter {
        case UInt8(ascii: "s"): return 1
        case UInt8(ascii: "m"): return 60
        case UInt8(ascii: "h"): return 3_600
        case UInt8(ascii: "d"): return 86_400
        case UInt8(ascii: "w"): return 604_800
        default: return nil
        }
    }

    /// A duration's parts as written: whole seconds (from `s` to `w`), milliseconds (from
    /// `ms`) and the sign.
    private struct Components {
        var seconds = 0
        var milliseconds: UInt64 = 0
        var isNegative = false
    }

    private static func components(of text: String) -> Result<Components, Failure> {
        var result = Components()
        var scalars = Substring(text).unicodeScalars[...]
        if scalars.first == "-" {
            result.isNegative = true
            scalars.removeFirst()
        }
        var sawComponent = false
        while !scalars.isEmpty {
            var digits = ""
            while let c = scalars.first, c.properties.numericType == .decimal || c == "_" {
                guard c.isASCII else { return .failure(.malformed) }
                if c != "_" { digits.unicodeScalars.append(c) }
                scalars.removeFirst()
            }
            var unit = ""
            while let c = scalars.first, c.properties.isAlphabetic {
                unit.unicodeScalars.append(c)
                scalars.removeFirst()
            }
            guard !digits.isEmpty, !unit.isEmpty else { return .failure(.malformed) }
            if unit == "ms" {
                guard let value = UInt64(digits) else { return .failure(.overflow) }
                let (sum, overflow) = result.milliseconds.addingReportingOverflow(value)
                if overflow { return .failure(.overflow) }
                result.milliseconds = sum
            } else if unit.utf8.count == 1, let perUnit = seconds(perUnitLetter: unit.utf8.first!) {
                guard let value = Int(digits) else { return .failure(.overflow) }
                let (product, overflow1) = value.multipliedReportingOverflow(by: perUnit)
                let (sum, overflow2) = result.seconds.addingReportingOverflow(product)
                if overflow1 || overflow2 { return .failure(.overflow) }
                result.seconds = sum
            } else {
                return .failure(.unknownUnit(unit, hint: hint(forUnit: unit, in: text)))
            }
            sawComponent = true
        }
        return sawComponent ? .success(result) : .failure(.malformed)
    }

    /// Unit words a person may write, by the unit a duration takes for them.
    private static let unitWords: [String: String] = [
        "msec": "ms", "msecs": "ms", "millisecond": "ms", "milliseconds": "ms",
        "sec": "s", "secs": "s", "second": "s", "seconds": "s",
        "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "day": "d", "days": "d",
        "wk": "w", "wks": "w", "week": "w", "weeks": "w",
    ]

    private static func hint(forUnit unit: String, in text: String) -> String? {
        let lowered = unit.lowercased()
        if ["y", "yr", "yrs", "year", "years"].contains(lowered) {
            return "years have no fixed length; write days instead (365d)"
        }
        if ["mo", "mon", "month", "months"].contains(lowered) || unit == "M" {
            return "months have no fixed length; write days instead (30d)"
        }
        return withUnits(text).map { "did you mean '\($0)'? (units are \(unitList))" }
    }

    /// `text` with its unit words as units (`3days` → `3d`, `1day12hours` → `1d12h`), when that
    /// makes a valid duration; nil otherwise.
    private static func withUnits(_ text: String) -> String? {
        var result = "", word = ""
        var valid = true
        func flush() {
            guard !word.isEmpty else { return }
            if let unit = ["ms", "s", "m", "h", "d", "w"].contains(word) ? word : unitWords[word.lowercased()] { result += unit } else { valid = false }
            word = ""
        }
        for character in text {
            if character.isLetter { word.append(character) } else { flush(); result.append(character) }
        }
        flush()
        guard valid, result != text, case .success = components(of: result) else { return nil }
        return result
    }

    // MARK: - Writing

    /// The spelling of a duration in milliseconds: the largest units that divide it exactly
    /// (`3d`, `1d12h`, `90s` → `1m30s`), `1500ms` when it is not whole seconds, `0s` for none,
    /// `-2h` below zero. Days are the largest unit: `7d` reads as the week it is, and windows
    /// are written in days. `milliseconds(of:allowsNegative: true)` reads every spelling back.
    package static func string(milliseconds: Int64) -> String {
        let sign = milliseconds < 0 ? "-" : ""
        let magnitude = milliseconds.magnitude
        if magnitude % 1000 != 0 { return "\(sign)\(magnitude)ms" }
        return sign + units(seconds: magnitude / 1000)
    }

    /// The spelling of a duration in whole seconds, as `string(milliseconds:)` writes it (for
    /// the compiler's durations, which may be too large for milliseconds).
    package static func string(seconds: Int) -> String {
        (seconds < 0 ? "-" : "") + units(seconds: UInt64(seconds.magnitude))
    }

    private static func units(seconds: UInt64) -> String {
        if seconds == 0 { return "0s" }
        var rest = seconds
        var text = ""
        for (unit, size) in [("d", UInt64(86_400)), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= size {
            text += "\(rest / size)\(unit)"
            rest %= size
        }
        return text
    }
}
