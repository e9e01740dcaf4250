/// Human-readable renderings of durations, for disassembly, inspection and the canonical
/// spelling of duration literals.
public enum DurationFormatting {
    /// `3d`, `1d12h`, `90s`, `1500ms`, `-2h`: the largest units that divide the value exactly.
    public static func describe(milliseconds: Int64) -> String {
        if milliseconds == 0 { return "0s" }
        if milliseconds == .min { return "\(milliseconds)ms" }
        let sign = milliseconds < 0 ? "-" : ""
        let rest = milliseconds.magnitude
        if rest % 1000 != 0 { return "\(sign)\(rest)ms" }
        return sign + describe(seconds: rest / 1000)
    }

    /// `1d12h` for 129,600 seconds; `0s` for none. Days are the largest unit: `7d` reads as the
    /// week it is, and windows are written in days.
    public static func describe(seconds: UInt64) -> String {
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
