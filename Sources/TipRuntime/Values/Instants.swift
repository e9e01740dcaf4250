#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The runtime keeps instants as whole milliseconds since 1970 (what it stores and compares);
/// its API speaks `Date` and `TimeInterval`. These are the one conversion between the two.
extension Date {
    /// The instant `milliseconds` after 1970-01-01T00:00:00Z.
    package init(millisecondsSince1970 milliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    /// Whole milliseconds since 1970, rounded to the nearest (so a date made from milliseconds
    /// gives them back exactly). A date beyond what 64 bits of milliseconds hold is clamped to the
    /// nearest bound, and not a number to the lowest: every store refuses both as out of range.
    package var millisecondsSince1970: Int64 { Milliseconds.of(seconds: timeIntervalSince1970) }
}

package enum Milliseconds {
    /// `seconds` in whole milliseconds, rounded to the nearest and clamped as
    /// `Date.millisecondsSince1970` says.
    package static func of(seconds: Double) -> Int64 {
        let milliseconds = (seconds * 1000).rounded()
        guard milliseconds == milliseconds else { return Int64.min }
        if milliseconds >= 9.2e18 { return Int64.max }
        if milliseconds <= -9.2e18 { return Int64.min }
        return Int64(milliseconds)
    }

    /// `seconds` in whole milliseconds, rounded to the nearest; nil when that is not a number or
    /// does not fit in 64 bits (where `of(seconds:)` clamps).
    package static func exactly(seconds: Double) -> Int64? {
        Int64(exactly: (seconds * 1000).rounded())
    }

    /// Milliseconds as seconds (`TimeInterval`).
    package static func seconds(_ milliseconds: Int64) -> Double { Double(milliseconds) / 1000 }
}
