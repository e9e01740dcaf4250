#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
/// BCP 47 language tags (`de`, `de-CH`, `zh-Hans`, `es-419`): the well-formedness the checker
/// and the pack loader require of a text's locale, and the lookup fallback (RFC 4647 section 3.4) the
/// runtime uses to choose a text. Tags compare case-insensitively. No ICU, no locale data: only
/// the syntax of RFC 5646 section 2.1 (grandfathered tags such as `i-klingon` are not accepted).
package enum LocaleTag {
    /// The language tag of `locale`: its identifier with hyphens (`de_CH` → `de-CH`,
    /// `zh_Hans_CN` → `zh-Hans-CN`), without keywords (`@calendar=…`). On Linux a program must
    /// link Foundation (not only FoundationEssentials, where every `Locale` is `en_001`) for
    /// `Locale(identifier:)` and `Locale.current` to mean what they say.
    package static func tag(of locale: Locale) -> String {
        let identifier = locale.identifier.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        return String(identifier.map { $0 == "_" ? "-" : $0 })
    }

    /// Whether `tag` is a well-formed BCP 47 language tag (hyphens, not underscores).
    package static func isWellFormed(_ tag: String) -> Bool {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { Array($0.utf8) }
        guard let language = subtags.first, subtags.allSatisfy({ !$0.isEmpty && $0.count <= 8 && $0.allSatisfy(isAlphanumeric) }) else {
            return false
        }
        var index = 1
        // language: 2–3 letters (with up to three 3-letter extlangs), or 4–8 letters.
        guard language.allSatisfy(isLetter), (2...8).contains(language.count) else { return false }
        if language.count <= 3 {
            var extlangs = 0
            while index < subtags.count, extlangs < 3, subtags[index].count == 3, subtags[index].allSatisfy(isLetter) {
                index += 1
                extlangs += 1
            }
        }
        // script: 4 letters.
        if index < subtags.count, subtags[index].count == 4, subtags[index].allSatisfy(isLetter) { index += 1 }
        // region: 2 letters or 3 digits.
        if index < subtags.count, (subtags[index].count == 2 && subtags[index].allSatisfy(isLetter))
            || (subtags[index].count == 3 && subtags[index].allSatisfy(isDigit)) {
            index += 1
        }
        // variants: 5–8 alphanumerics, or a digit and 3 alphanumerics.
        while index < subtags.count, isVariant(subtags[index]) { index += 1 }
        // extensions: a singleton other than x, then subtags of 2–8.
        while index < subtags.count, subtags[index].count == 1, lowercase(subtags[index][0]) != UInt8(ascii: "x") {
            index += 1
            let start = index
            while index < subtags.count, subtags[index].count >= 2 { index += 1 }
            guard index > start else { return false }
        }
        // private use: x, then subtags of 1–8.
        if index < subtags.count, subtags[index].count == 1, lowercase(subtags[index][0]) == UInt8(ascii: "x") {
            return subtags.count > index + 1
        }
        return index == subtags.count
    }

    /// The tags to try for `requested`, most specific first (RFC 4647 lookup): `de-CH-1996`,
    /// `de-CH`, `de`. A subtag of one letter left at the end is dropped with the one after it.
    /// The request is read leniently, as apps pass it: `_` counts as `-` (`de_CH`, Apple's
    /// `Locale.identifier`), and anything from `@` on (`@calendar=…`) is ignored.
    package static func lookupChain(for requested: String) -> [String] {
        var text = Substring(requested)
        if let at = text.firstIndex(of: "@") { text = text[..<at] }
        var subtags = text.split(whereSeparator: { $0 == "-" || $0 == "_" }).map(String.init)
        var chain: [String] = []
        while !subtags.isEmpty {
            chain.append(subtags.joined(separator: "-"))
            subtags.removeLast()
            if subtags.count > 1, subtags[subtags.count - 1].count == 1 { subtags.removeLast() }
        }
        return chain
    }

    /// Whether two tags name the same locale (BCP 47 tags are case-insensitive).
    package static func matches(_ a: String, _ b: String) -> Bool {
        a.utf8.count == b.utf8.count && zip(a.utf8, b.utf8).allSatisfy { lowercase($0) == lowercase($1) }
    }

    private static func isVariant(_ subtag: [UInt8]) -> Bool {
        (5...8).contains(subtag.count) || (subtag.count == 4 && isDigit(subtag[0]))
    }

    private static func isLetter(_ byte: UInt8) -> Bool { (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) }
    private static func isDigit(_ byte: UInt8) -> Bool { (0x30...0x39).contains(byte) }
    private static func isAlphanumeric(_ byte: UInt8) -> Bool { isLetter(byte) || isDigit(byte) }
    private static func lowercase(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte + 0x20 : byte }
}
