/// "Did you mean" suggestions by edit distance.
public enum Suggestions {
    /// The candidate closest to `name`, if it is close enough to be a plausible typo:
    /// at most a third of the name's length in edits (at least 1, at most 3), or equal
    /// ignoring case.
    public static func closest<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
        let limit = min(3, max(1, name.count / 3))
        var best: (name: String, distance: Int)?
        let lowered = name.lowercased()
        for candidate in candidates where candidate != name {
            if candidate.lowercased() == lowered { return candidate }
            let distance = editDistance(name, candidate, limit: limit)
            if distance <= limit, distance < (best?.distance ?? Int.max) {
                best = (candidate, distance)
            }
        }
        return best?.name
    }

    /// Like `closest`, but also takes a candidate that `name` abbreviates (its characters in
    /// order, the first one first: `cnt` for `count`) when no candidate is close by edits:
    /// for short, closed sets such as members.
    public static func closestOrExpanded<S: Sequence>(to name: String, in candidates: S) -> String? where S.Element == String {
        if let close = closest(to: name, in: candidates) { return close }
        let wanted = Array(name.lowercased())
        guard wanted.count >= 2 else { return nil }
        let expansions = candidates.filter { candidate in
            let letters = Array(candidate.lowercased())
            guard letters.first == wanted.first else { return false }
            var index = 0
            for letter in letters where index < wanted.count && letter == wanted[index] { index += 1 }
            return index == wanted.count
        }
        return expansions.count == 1 ? expansions[0] : nil
    }

    /// `help:` text for a did-you-mean, or nil.
    public static func didYouMean<S: Sequence>(_ name: String, in candidates: S) -> String? where S.Element == String {
        closest(to: name, in: candidates).map { "did you mean '\($0)'?" }
    }

    /// Levenshtein distance with transpositions counted as one edit; stops early (returning
    /// `limit + 1`) once the distance must exceed `limit`.
    public static func editDistance(_ a: String, _ b: String, limit: Int = .max) -> Int {
        let a = Array(a.unicodeScalars)
        let b = Array(b.unicodeScalars)
        if abs(a.count - b.count) > limit { return limit == .max ? limit : limit + 1 }
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var value = Swift.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    value = Swift.min(value, previous2[j - 2] + 1)
                }
                current[j] = value
                rowMinimum = Swift.min(rowMinimum, value)
            }
            if rowMinimum > limit { return limit + 1 }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
