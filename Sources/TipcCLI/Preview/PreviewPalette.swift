#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The preview's colours, in light and dark appearance: one place for each, from which the page's
/// CSS custom properties are written, and against which the tests check that every text is
/// readable (WCAG AA: a contrast ratio of at least 4.5 to its background).
struct PreviewPalette {
    enum Role: String, CaseIterable {
        case pageBackground, pageText, pageSecondaryText, border
        case paneBackground, tipBackground, tipTitle, tipMessage, tipClose, accent, glyphBackground, divider
        case pendingBackground, pendingText, availableBackground, availableText
        case invalidatedBackground, invalidatedText, holdBackground, holdText
        case passedText, failedText, markText, markBackground
    }

    let colors: [Role: String]

    subscript(role: Role) -> String { colors[role]! }

    static let light = PreviewPalette(colors: [
        .pageBackground: "#ffffff", .pageText: "#1d1d1f", .pageSecondaryText: "#56565b", .border: "#c7c7cc",
        .paneBackground: "#f2f2f7", .tipBackground: "#ffffff", .tipTitle: "#000000", .tipMessage: "#5c5c61",
        .tipClose: "#6c6c70", .accent: "#0062cc", .glyphBackground: "#e6f0fc", .divider: "#d1d1d6",
        .pendingBackground: "#e5e5ea", .pendingText: "#1d1d1f", .availableBackground: "#d3f2db", .availableText: "#0b5a1e",
        .invalidatedBackground: "#fde1e0", .invalidatedText: "#962020", .holdBackground: "#fff0c2", .holdText: "#5e4500",
        .passedText: "#0b6b25", .failedText: "#b3261e", .markText: "#ffffff", .markBackground: "#3a3a3c",
    ])

    static let dark = PreviewPalette(colors: [
        .pageBackground: "#1c1c1e", .pageText: "#f5f5f7", .pageSecondaryText: "#b0b0b5", .border: "#48484a",
        .paneBackground: "#000000", .tipBackground: "#2c2c2e", .tipTitle: "#ffffff", .tipMessage: "#c2c2c7",
        .tipClose: "#aeaeb2", .accent: "#5aa9ff", .glyphBackground: "#17304d", .divider: "#48484a",
        .pendingBackground: "#3a3a3c", .pendingText: "#f5f5f7", .availableBackground: "#1d4a2a", .availableText: "#c9f5d4",
        .invalidatedBackground: "#5a1d1d", .invalidatedText: "#ffd9d6", .holdBackground: "#4a3a00", .holdText: "#ffe9a8",
        .passedText: "#7fe0a0", .failedText: "#ff9a90", .markText: "#1c1c1e", .markBackground: "#e5e5ea",
    ])

    /// Every text drawn, as its colour on its background.
    static let textPairs: [(text: Role, background: Role)] = [
        (.pageText, .pageBackground), (.pageSecondaryText, .pageBackground), (.pageText, .paneBackground),
        (.tipTitle, .tipBackground), (.tipMessage, .tipBackground), (.tipClose, .tipBackground), (.accent, .tipBackground),
        (.accent, .glyphBackground),
        (.pendingText, .pendingBackground), (.availableText, .availableBackground), (.invalidatedText, .invalidatedBackground),
        (.holdText, .holdBackground), (.holdText, .pageBackground), (.accent, .pageBackground),
        (.passedText, .pageBackground), (.failedText, .pageBackground), (.markText, .markBackground),
    ]

    /// The CSS custom properties (`--page-background: #ffffff;`), in the roles' order.
    var customProperties: String {
        Role.allCases.map { role in
            let name = role.rawValue.reduce(into: "") { out, character in
                if character.isUppercase { out += "-" + character.lowercased() } else { out.append(character) }
            }
            return "--\(name): \(self[role]);"
        }.joined(separator: " ")
    }

    /// The WCAG contrast ratio of two `#rrggbb` colours (1 to 21).
    static func contrast(_ first: String, _ second: String) -> Double {
        let (a, b) = (luminance(first), luminance(second))
        return (max(a, b) + 0.05) / (min(a, b) + 0.05)
    }

    /// The relative luminance of a `#rrggbb` colour.
    static func luminance(_ hex: String) -> Double {
        let digits = Array(hex.dropFirst())
        func channel(_ at: Int) -> Double {
            let value = Double(Int(String(digits[at..<at + 2]), radix: 16) ?? 0) / 255
            return value <= 0.04045 ? value / 12.92 : Double(pow((value + 0.055) / 1.055, 2.4))
        }
        return 0.2126 * channel(0) + 0.7152 * channel(2) + 0.0722 * channel(4)
    }
}
