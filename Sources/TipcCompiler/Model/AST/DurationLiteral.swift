import TipRuntime

/// Duration literals: `45s`, `30m`, `12h`, `3d`, `2w`, and concatenations such as `1d12h`.
/// Months and years are refused: their length varies.
public enum DurationLiteral {
    public enum Failure: Error, Sendable, Hashable {
        /// A unit that is not `s m h d w`; `hint` explains (months, years).
        case unknownUnit(String, hint: String?)
        /// Not of the shape digits+unit (…digits+unit).
        case malformed
        /// The total does not fit in an Int of seconds.
        case overflow

        public var message: String {
            switch self {
            case .unknownUnit(let unit, _): return "unknown duration unit '\(unit)'"
            case .malformed: return "malformed duration"
            case .overflow: return "duration is too large"
            }
        }

        public var help: String? {
            switch self {
            case .unknownUnit(_, let hint): return hint ?? "units are s, m, h, d and w (e.g. 1d12h)"
            case .malformed: return "write a number followed by a unit: 45s, 30m, 12h, 3d, 2w or 1d12h"
            case .overflow: return nil
            }
        }
    }

    /// Seconds per unit letter.
    public static let units: [String: Int] = Dictionary(uniqueKeysWithValues: "smhdw".utf8.map {
        (String(UnicodeScalar($0)), seconds(perUnit: $0)!)
    })

    /// Seconds per unit letter, for a letter read as a byte (the lexer's way): nil for any
    /// other byte.
    static func seconds(perUnit letter: UInt8) -> Int? {
        switch letter {
        case 0x73 /* s */: return 1
        case 0x6D /* m */: return 60
        case 0x68 /* h */: return 3_600
        case 0x64 /* d */: return 86_400
        case 0x77 /* w */: return 604_800
        default: return nil
        }
    }

    /// Unit words a user may write, by the letter a duration takes for them.
    private static let unitWords: [String: String] = [
        "sec": "s", "secs": "s", "second": "s", "seconds": "s",
        "min": "m", "mins": "m", "minute": "m", "minutes": "m",
        "hr": "h", "hrs": "h", "hour": "h", "hours": "h",
        "day": "d", "days": "d",
        "wk": "w", "wks": "w", "week": "w", "weeks": "w",
    ]

    /// `text` with its unit words as letters (`3days` → `3d`, `1day12hours` → `1d12h`), when
    /// that makes a valid duration; nil otherwise.
    static func withUnitLetters(_ text: String) -> String? {
        var result = "", word = ""
        var valid = true
        func flush() {
            guard !word.isEmpty else { return }
            if let letter = units[word] != nil ? word : unitWords[word.lowercased()] { result += letter } else { valid = false }
            word = ""
        }
        for character in text {
            if character.isLetter { word.append(character) } else { flush(); result.append(character) }
        }
        flush()
        guard valid, result != text, case .success = seconds(of: result) else { return nil }
        return result
    }

    /// Parses `text` (digits may contain `_`) into seconds.
    public static func seconds(of text: String) -> Result<Int, Failure> {
        var total = 0
        var sawComponent = false
        var scalars = Substring(text).unicodeScalars[...]
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
            guard let perUnit = units[unit] else {
                let lowered = unit.lowercased()
                let hint: String?
                if ["y", "yr", "yrs", "year", "years"].contains(lowered) {
                    hint = "years have no fixed length; write days instead (365d)"
                } else if ["mo", "mon", "month", "months"].contains(lowered) || unit == "M" {
                    hint = "months have no fixed length; write days instead (30d)"
                } else {
                    hint = withUnitLetters(text).map { "did you mean '\($0)'? (units are s, m, h, d and w)" }
                }
                return .failure(.unknownUnit(unit, hint: hint))
            }
            guard let value = Int(digits) else { return .failure(.overflow) }
            let (product, overflow1) = value.multipliedReportingOverflow(by: perUnit)
            let (sum, overflow2) = total.addingReportingOverflow(product)
            if overflow1 || overflow2 { return .failure(.overflow) }
            total = sum
            sawComponent = true
        }
        return sawComponent ? .success(total) : .failure(.malformed)
    }

    /// The canonical spelling of `seconds` (`129600` → `1d12h`; 0 → `0s`; days are the
    /// largest unit).
    public static func format(seconds: Int) -> String {
        seconds < 0 ? "-" + DurationFormatting.describe(seconds: UInt64(seconds.magnitude))
                    : DurationFormatting.describe(seconds: UInt64(seconds))
    }
}
