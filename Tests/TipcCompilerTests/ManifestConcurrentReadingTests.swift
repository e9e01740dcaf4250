import Testing
@testable import TipcCompiler

/// A large manifest read on the helper thread decodes exactly as it does read in place: the
/// same declarations, in the same order, and the same diagnostics, in the same order.
@Suite("Manifest decoding, read on another thread")
struct ManifestConcurrentReadingTests {
    /// A manifest of `tips` tips; every 37th entry has a problem of its own (unknown key,
    /// wrong value, rule syntax error, repeated key), and one tip is cut short by bad YAML
    /// when `broken`.
    private func manifest(tips: Int, broken: Bool) -> String {
        var text = "tipkit: 1\nparameters:\n  signedIn: { type: bool, default: false }\n  plan: { type: string, default: free, values: [free, pro] }\n"
        text += "events:\n  viewed:\n    value: { itemID: int }\ntips:\n"
        for index in 0..<tips {
            text += "  # tip number \(index)\n  tip\(index):\n    title: \"Tip \(index): é\"\n"
            switch index % 37 {
            case 5: text += "    titel: misspelt\n"
            case 11: text += "    maxDisplayCount: many\n"
            case 17: text += "    rules:\n      - viewed.count >= within 3d\n"
            case 23: text += "    title: again\n"
            case 29: text += "    rules:\n      - |\n        $signedIn and\n        viewed.largestSubset(itemID).count >= 3 within 5d\n"
            default: text += "    maxDisplayCount: \(1 + index % 4)\n    rules:\n      - $signedIn and viewed.count >= \(index % 5) within 3d\n      - '$plan in [\"pro\"]'\n"
            }
        }
        if broken { text += "  last:\n    title: \"unterminated\n" }
        text += "groups:\n  first: { priority: ordered, tips: [tip0, tip1] }\n"
        return text
    }

    @Test(arguments: [false, true])
    func readingOnTheHelperThreadChangesNothing(broken: Bool) {
        let file = SourceFile(path: "large.yaml", text: manifest(tips: 1_200, broken: broken))
        #expect(file.bytes.count > ManifestDecoder.concurrentReadingThreshold)
        var inPlace: [Diagnostic] = []
        let readInPlace = ManifestDecoder.decode(file, diagnostics: &inPlace, readingConcurrently: false)
        for _ in 0..<3 {
            var concurrent: [Diagnostic] = []
            let readConcurrently = ManifestDecoder.decode(file, diagnostics: &concurrent, readingConcurrently: true)
            #expect(readConcurrently == readInPlace)
            #expect(concurrent.map { "\($0.code) \($0.range) \($0.message)" } == inPlace.map { "\($0.code) \($0.range) \($0.message)" })
        }
        #expect(readInPlace.tips.count >= 1_199)
        #expect(!inPlace.isEmpty)
        if broken { #expect(inPlace.contains { $0.code == .yaml }) }
    }
}
