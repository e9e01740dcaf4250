/// A unified diff of two texts by lines (Myers' O(ND) algorithm), as `diff -u` prints it:
/// `---`/`+++` headers, then hunks with three lines of context.
enum UnifiedDiff {
    static func render(old: String, new: String, oldName: String, newName: String, context: Int = 3) -> String {
        let a = lines(old)
        let b = lines(new)
        let script = editScript(a, b)
        guard script.contains(where: { $0.kind != .same }) else { return "" }
        var output = "--- \(oldName)\n+++ \(newName)\n"
        // Group changes into hunks separated by more than 2 × context unchanged lines.
        var index = 0
        while index < script.count {
            guard let firstChange = script[index...].firstIndex(where: { $0.kind != .same }) else { break }
            var end = firstChange
            var lastChange = firstChange
            while end < script.count {
                if script[end].kind != .same { lastChange = end }
                if end - lastChange > 2 * context { break }
                end += 1
            }
            let start = max(index, firstChange - context)
            let stop = min(script.count, lastChange + context + 1)
            let hunk = script[start..<stop]
            let oldStart = hunk.first!.oldLine
            let newStart = hunk.first!.newLine
            let oldCount = hunk.filter { $0.kind != .insert }.count
            let newCount = hunk.filter { $0.kind != .delete }.count
            output += "@@ -\(range(oldStart, oldCount)) +\(range(newStart, newCount)) @@\n"
            for edit in hunk {
                switch edit.kind {
                case .same: output += " " + edit.text
                case .delete: output += "-" + edit.text
                case .insert: output += "+" + edit.text
                }
                if !edit.text.hasSuffix("\n") { output += "\n\\ No newline at end of file\n" }
            }
            index = stop
        }
        return output
    }

    private static func range(_ start: Int, _ count: Int) -> String {
        count == 1 ? "\(start)" : "\(count == 0 ? start - 1 : start),\(count)"
    }

    /// Lines with their line breaks.
    static func lines(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        for character in text {
            current.append(character)
            if character == "\n" || character == "\r\n" {
                result.append(current)
                current = ""
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }

    struct Edit {
        enum Kind { case same, delete, insert }
        var kind: Kind
        var text: String
        /// 1-based line numbers in the old and new text where this edit stands.
        var oldLine: Int
        var newLine: Int
    }

    /// The shortest edit script from `a` to `b`.
    static func editScript(_ a: [String], _ b: [String]) -> [Edit] {
        let n = a.count, m = b.count, max = n + m
        var v = [Int](repeating: 0, count: 2 * max + 2)
        var trace: [[Int]] = []
        var found = false
        for d in 0...max {
            trace.append(v)
            for k in stride(from: -d, through: d, by: 2) {
                var x = (k == -d || (k != d && v[max + k - 1] < v[max + k + 1])) ? v[max + k + 1] : v[max + k - 1] + 1
                var y = x - k
                while x < n, y < m, a[x] == b[y] { x += 1; y += 1 }
                v[max + k] = x
                if x >= n, y >= m { found = true; break }
            }
            if found { break }
        }
        // Walk back through the trace.
        var edits: [Edit] = []
        var x = n, y = m
        for d in stride(from: trace.count - 1, through: 0, by: -1) {
            let v = trace[d]
            let k = x - y
            let previousK = (k == -d || (k != d && v[max + k - 1] < v[max + k + 1])) ? k + 1 : k - 1
            let previousX = d == 0 ? 0 : v[max + previousK]
            let previousY = previousX - previousK
            while x > previousX, y > previousY {
                x -= 1; y -= 1
                edits.append(Edit(kind: .same, text: a[x], oldLine: x + 1, newLine: y + 1))
            }
            if d > 0 {
                if x == previousX {
                    y -= 1
                    edits.append(Edit(kind: .insert, text: b[y], oldLine: x + 1, newLine: y + 1))
                } else {
                    x -= 1
                    edits.append(Edit(kind: .delete, text: a[x], oldLine: x + 1, newLine: y + 1))
                }
            }
        }
        return edits.reversed()
    }
}
