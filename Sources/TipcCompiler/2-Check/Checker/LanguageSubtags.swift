/// The two-letter languages of ISO 639-1, against which a locale's language is checked
/// (`unknown-locale`). Languages of three letters (ISO 639-2 and 639-3) are not checked: there
/// are thousands, and a typo rarely makes another three-letter code.
enum LanguageSubtags {
    static let twoLetter: Set<String> = Set("""
        aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy \
        da de dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu \
        hy hz ia id ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb \
        lg li ln lo lt lu lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om \
        or os pa pi pl ps pt qu rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw \
        ta te tg th ti tk tl tn to tr ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu
        """.split(separator: " ").map(String.init))

    /// Codes written for a language that is not theirs: countries' codes (`jp` is Japan) and
    /// withdrawn language codes, by the language meant.
    static let usualSlips: [String: String] = [
        "jp": "ja", "cn": "zh", "dk": "da", "gr": "el", "cz": "cs", "ua": "uk", "vn": "vi",
        "gb": "en", "us": "en", "il": "he", "rs": "sr", "ir": "fa", "at": "de",
        "in": "id", "iw": "he", "ji": "yi", "jw": "jv", "mo": "ro",
    ]

    /// Why `tag` (well-formed) names no known language, with a did-you-mean: nil when its
    /// language is known or not two letters. `place` says where the tag is written.
    static func problem(with tag: String, in place: String) -> (message: String, help: String)? {
        let parts = tag.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        let language = parts[0].lowercased()
        guard language.count == 2, !twoLetter.contains(language) else { return nil }
        let help: String
        if let meant = usualSlips[language] {
            help = "did you mean '\(([meant] + parts.dropFirst().map(String.init)).joined(separator: "-"))'?"
        } else {
            help = "the language comes first, as ISO 639-1 writes it: 'en', 'de', 'ja', 'zh-Hans', 'pt-BR'"
        }
        let locale = language == tag.lowercased() ? "" : " of locale '\(tag)'"
        return ("unknown language '\(parts[0])'\(locale) in \(place)", help)
    }
}
