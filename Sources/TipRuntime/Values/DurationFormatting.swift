/// Human-readable renderings of milliseconds, for disassembly and inspection.
public enum DurationFormatting {
    /// `3d`, `1d12h`, `90s`, `1500ms`, `-2h`: the largest units that divide the value exactly.
    public static func describe(milliseconds: Int64) -> String {
        if milliseconds == 0 { return "0s" }
        if milliseconds == .min { return "\(milliseconds)ms" }
        let sign = milliseconds < 0 ? "-" : ""
        var rest = milliseconds.magnitude
        if rest % 1000 != 0 { return "\(sign)\(rest)ms" }
        rest /= 1000
        var text = ""
        for (unit, seconds) in [("w", UInt64(604_800)), ("d", 86_400), ("h", 3_600), ("m", 60), ("s", 1)] where rest >= seconds {
            text += "\(rest / seconds)\(unit)"
            rest %= seconds
        }
        return sign + text
    }
}
