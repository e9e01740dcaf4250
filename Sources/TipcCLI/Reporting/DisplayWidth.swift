/// How many terminal columns text takes, so carets line up under what they point at.
enum DisplayWidth {
    /// Spaces a tab expands to in a source line shown under a diagnostic.
    static let tabWidth = 4

    /// Columns of one scalar: 0 for combining marks and zero-width characters, 2 for wide
    /// (East Asian wide/fullwidth, emoji presentation), the tab width for a tab, else 1.
    static func of(_ scalar: Unicode.Scalar) -> Int {
        if scalar == "\t" { return tabWidth }
        let value = scalar.value
        if value == 0x200B || value == 0x200C || value == 0x200D || value == 0xFEFF { return 0 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return 0
        default: break
        }
        if scalar.properties.isEmojiPresentation { return 2 }
        switch value {
        case 0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF,
             0xA000...0xA4CF, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60,
             0xFFE0...0xFFE6, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }

    /// `text` as a terminal should show it: tabs expanded, control characters made visible
    /// (they could otherwise move the cursor or change colours).
    static func displayable(_ scalar: Unicode.Scalar) -> String {
        if scalar == "\t" { return String(repeating: " ", count: tabWidth) }
        if isControl(scalar) { return "\u{FFFD}" }
        return String(scalar)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// `text` with control characters other than line breaks replaced, for messages.
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isControl($0) && $0 != "\n" }) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            result.append(isControl(scalar) && scalar != "\n" ? "\u{FFFD}" : scalar)
        }
        return String(result)
    }
}
