/// ISO-8601 instants (`2026-12-24T00:00:00Z`, `2026-12-24T09:30:00.250+01:00`, `2026-12-24`)
/// to and from milliseconds since 1970-01-01T00:00:00Z. Written by hand so that the runtime
/// needs no ICU-backed date formatter; the proleptic Gregorian calendar, UTC only.
package enum ISO8601 {
    /// Milliseconds since the epoch, or nil if `text` is not a valid instant. A date without a
    /// time means midnight UTC; a time needs an offset (`Z` or `±HH:MM`).
    package static func milliseconds(from text: String) -> Int? {
        let bytes = Array(text.utf8)
        var index = 0

        func digits(_ count: Int) -> Int? {
            guard index + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<index + count] {
                guard byte >= 0x30, byte <= 0x39 else { return nil }
                value = value * 10 + Int(byte - 0x30)
            }
            index += count
            return value
        }
        func expect(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        guard let year = digits(4), expect(0x2D), let month = digits(2), expect(0x2D), let day = digits(2) else { return nil }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day) else { return nil }
        var milliseconds = daysFromCivil(year: year, month: month, day: day) * 86_400_000
        if index == bytes.count { return milliseconds }

        guard expect(0x54) || expect(0x74) || expect(0x20) else { return nil }
        guard let hour = digits(2), expect(0x3A), let minute = digits(2), expect(0x3A), let second = digits(2),
              hour < 24, minute < 60, second < 60 else { return nil }
        milliseconds += ((hour * 60 + minute) * 60 + second) * 1000
        if expect(0x2E) {
            var scale = 100
            var sawDigit = false
            while index < bytes.count, bytes[index] >= 0x30, bytes[index] <= 0x39 {
                milliseconds += Int(bytes[index] - 0x30) * scale
                scale /= 10
                index += 1
                sawDigit = true
            }
            guard sawDigit else { return nil }
        }
        if expect(0x5A) || expect(0x7A) {
            return index == bytes.count ? milliseconds : nil
        }
        let sign: Int
        if expect(0x2B) { sign = 1 } else if expect(0x2D) { sign = -1 } else { return nil }
        guard let offsetHours = digits(2), offsetHours < 24 else { return nil }
        _ = expect(0x3A)
        guard let offsetMinutes = digits(2), offsetMinutes < 60, index == bytes.count else { return nil }
        return milliseconds - sign * (offsetHours * 60 + offsetMinutes) * 60_000
    }

    /// `2026-12-24T09:30:00Z`, with `.250` when the instant has milliseconds. Total: any
    /// instant prints (a year outside 0000–9999 with as many digits as it needs), so a date read
    /// from a damaged store never traps.
    package static func string(fromMilliseconds milliseconds: Int) -> String {
        let days = floorDivide(milliseconds, 86_400_000)
        let remainder = milliseconds % 86_400_000
        let rest = remainder < 0 ? remainder + 86_400_000 : remainder
        let (year, month, day) = civilFromDays(days)
        let seconds = rest / 1000
        let millis = rest % 1000
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value.magnitude)
            return (value < 0 ? "-" : "") + String(repeating: "0", count: max(0, width - text.count)) + text
        }
        var text = "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(seconds / 3600, 2)):\(pad(seconds / 60 % 60, 2)):\(pad(seconds % 60, 2))"
        if millis != 0 { text += "." + pad(millis, 3) }
        return text + "Z"
    }

    static func isLeap(_ year: Int) -> Bool { year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// ⌊a / b⌋ for b > 0, without overflow for any `a`.
    static func floorDivide(_ a: Int, _ b: Int) -> Int {
        a >= 0 ? a / b : (a + 1) / b - 1
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = floorDivide(y, 400)
        let yearOfEra = y - era * 400
        let monthIndex = (month + 9) % 12
        let dayOfYear = (153 * monthIndex + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDivide(z, 146_097)
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
