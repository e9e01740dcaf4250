/// Small pieces of English for messages: "an Int", "a Bool", "1 step", "2 steps".
package enum EnglishText {
    /// `word` after "a" or "an", by its first letter ("an Int", "an int", "a Double").
    package static func withArticle(_ word: String) -> String {
        guard let first = word.first?.lowercased() else { return word }
        return ("aeiou".contains(first) ? "an " : "a ") + word
    }

    /// `count` and `noun`, plural unless the count is one ("1 step", "0 steps").
    package static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) " + (count == 1 ? noun : plural ?? noun + "s")
    }
}
