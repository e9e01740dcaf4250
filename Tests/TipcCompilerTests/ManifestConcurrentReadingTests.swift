import Testing
@testable import TipcCompiler

/// A large manifest read in two parts at once decodes exactly as it does read whole: the same
/// declarations, in the same order, and the same diagnostics, in the same order. Where the two
/// parts would not read as the whole file does, the file is read whole.
@Suite("Manifest decoding, read in two parts at once")
struct ManifestConcurrentReadingTests {
    /// A manifest of `tips` tips; every 37th entry has a problem of its own that is not a YAML
    /// problem (unknown key, wrong value, rule syntax error), and `extra` is written just
    /// before the groups at its end.
    private func manifest(tips: Int, message: (Int) -> String = { "\"Tip \($0): é\"" }, extra: String = "") -> String {
        var text = "tipkit: 1\nparameters:\n  signedIn: { type: bool, default: false }\n  plan: { type: string, default: free, values: [free, pro] }\n"
        text += "events:\n  viewed:\n    value: { itemID: int }\ntips:\n"
        for index in 0..<tips {
            text += "  # tip number \(index)\n  tip\(index):\n    title: \(message(index))\n"
            switch index % 37 {
            case 5: text += "    titel: misspelt\n"
            case 11: text += "    maxDisplayCount: many\n"
            case 17: text += "    rules:\n      - viewed.count >= within 3d\n"
            case 29: text += "    rules:\n      - |\n        $signedIn and\n        viewed.largestSubset(itemID).count >= 3 within 5d\n"
            default: text += "    maxDisplayCount: \(1 + index % 4)\n    rules:\n      - $signedIn and viewed.count >= \(index % 5) within 3d\n      - '$plan in [\"pro\"]'\n"
            }
        }
        text += extra
        text += "groups:\n  first: { priority: ordered, tips: [tip0, tip1] }\n"
        return text
    }

    private func rendered(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.code) \($0.range) \($0.message) \($0.help ?? "") \($0.notes.map { "\(String(describing: $0.range)) \($0.message)" })" }
    }

    /// Decodes `text` both ways; returns whether it was read in two parts.
    @discardableResult
    private func expectTheSameEitherWay(_ text: String, path: String = "large.yaml") -> Bool {
        let file = SourceFile(path: path, text: text)
        #expect(file.bytes.count > ManifestDecoder.concurrentReadingThreshold)
        var whole: [Diagnostic] = []
        let readWhole = ManifestDecoder.decode(file, diagnostics: &whole, readingConcurrently: false)
        var inParts: [Diagnostic] = []
        let readInParts = ManifestDecoder.decode(file, diagnostics: &inParts, readingConcurrently: true)
        #expect(readInParts == readWhole)
        #expect(rendered(inParts) == rendered(whole))
        guard let split = YAMLSplitPoint.find(in: file) else { return false }
        return ManifestDecoder.decodeInTwoParts(file, at: split, head: ManifestDecoder.KeepingTips(), tail: { ManifestDecoder.KeepingTips() }) != nil
    }

    @Test func aLargeManifestIsReadInTwoPartsAsItIsReadWhole() {
        let text = manifest(tips: 1_200)
        #expect(expectTheSameEitherWay(text))
        var diagnostics: [Diagnostic] = []
        let decoded = ManifestDecoder.decode(SourceFile(path: "large.yaml", text: text), diagnostics: &diagnostics)
        #expect(decoded.tips.count == 1_200)
        #expect(decoded.tips.map(\.name.name) == (0..<1_200).map { "tip\($0)" })
        #expect(decoded.groups.count == 1 && decoded.parameters.count == 2 && decoded.events.count == 1)
        #expect(diagnostics.contains { $0.code == .unknownKey } && diagnostics.contains { $0.code == .syntax })
    }

    @Test func lineEndingsAndAByteOrderMarkReadInTwoParts() {
        #expect(expectTheSameEitherWay(manifest(tips: 1_200).replacingOccurrences(of: "\n", with: "\r\n")))
        #expect(expectTheSameEitherWay("\u{FEFF}" + manifest(tips: 1_200)))
        #expect(expectTheSameEitherWay(manifest(tips: 1_200, message: { "\"Tipp \($0) für Ärzte 🦜\"" })))
    }

    /// Problems of the YAML itself, anywhere, are found by reading the file whole: each part
    /// alone could not tell (a key repeated in both parts) or would say it differently.
    @Test(arguments: [
        "  tip3:\n    title: written twice, the first in the other part\n",
        "tipkit: 1\n",
        "  late:\n    title: \"unterminated\n",
        "  late:\n\t title: tab\n",
        "  late:\n    title: &anchor anchored\n",
        "  late: [unclosed\n",
    ])
    func yamlProblemsInTheSecondPartReadAsInTheWholeFile(extra: String) {
        #expect(!expectTheSameEitherWay(manifest(tips: 1_200, extra: extra)))
    }

    @Test func aYAMLProblemInTheFirstPartReadsAsInTheWholeFile() {
        let text = manifest(tips: 1_200).replacingOccurrences(of: "  tip7:\n", with: "  tip7:\n  tip7:\n")
        #expect(!expectTheSameEitherWay(text))
    }

    /// The middle of the file inside a multi-line quoted scalar whose lines look like entries:
    /// the first part does not end at the candidate line, and the file is read whole.
    @Test func aCandidateInsideAMultiLineScalarIsRefused() {
        let fake = (0..<3_000).map { "  fake\($0): not a key" }.joined(separator: "\n")
        let text = manifest(tips: 600, message: { $0 == 300 ? "\"starts here\n\(fake)\n    ends here\"" : "\"Tip \($0)\"" })
        let file = SourceFile(path: "large.yaml", text: text)
        let split = YAMLSplitPoint.find(in: file)
        #expect(split != nil)
        #expect(!expectTheSameEitherWay(text))
    }

    @Test func splitPointsAreOnlyFoundInsideATopLevelBlockSection() {
        let large = manifest(tips: 1_200)
        let split = YAMLSplitPoint.find(in: SourceFile(path: "a.yaml", text: large))
        #expect(split?.section == "tips")
        #expect(split?.indent == 2)
        if let split {
            let bytes = Array(large.utf8)
            #expect(bytes[split.offset - 1] == 0x0A)
            #expect(String(decoding: bytes[split.header], as: UTF8.self) == "tips:\n")
            #expect(String(decoding: bytes[split.keyOffset..<split.keyOffset + 3], as: UTF8.self) == "tip")
        }
        // The middle in a flow mapping, and in a section written as one long line.
        let flow = "tipkit: 1\ntips: {\n" + (0..<3_000).map { "  tip\($0): { title: t }," }.joined(separator: "\n") + "\n}\n"
        #expect(expectTheSameEitherWay(flow) == false)
        let oneLine = "tipkit: 1\ntips: {" + (0..<2_000).map { "tip\($0): { title: t }" }.joined(separator: ", ") + "}\n"
        #expect(YAMLSplitPoint.find(in: SourceFile(path: "b.yaml", text: oneLine)) == nil)
        #expect(YAMLSplitPoint.find(in: SourceFile(path: "c.yaml", text: "tips:\n  a: 1\n  b: 2\n"))?.offset == 13)
        #expect(YAMLSplitPoint.find(in: SourceFile(path: "d.yaml", text: "")) == nil)
    }

    /// The section header is the last top-level line before the middle, found eight bytes at a
    /// time: the same line as looking at every line, whatever the lines around it hold (comments
    /// and blank lines at column 0, non-ASCII text, a BOM, CR LF, the header anywhere in a word).
    @Test func theHeaderIsTheLastTopLevelLineBeforeTheMiddle() {
        var random = SeededGenerator(seed: 0x5EC7_10)
        // Mostly entries, so that many files have a section around their middle.
        let lines = ["  entry: value", "  entry: value", "  entry: value", "  entry: value", "    nested: 1", "# a comment", "",
                     "  é: ünïcode", "  - item", "\t", "section:", "other: 1"]
        var found = 0
        for trial in 0..<400 {
            var text = trial % 3 == 0 ? "\u{FEFF}" : ""
            text += "section:\n"
            for _ in 0..<Int.random(in: 1...60, using: &random) {
                text += lines.randomElement(using: &random)! + (trial % 4 == 1 ? "\r\n" : "\n")
            }
            let file = SourceFile(path: "h.yaml", text: text)
            let bytes = file.bytes
            let start = file.hasByteOrderMark ? 3 : 0
            // Every line start at or before the middle's line, the last at column 0 that is not a comment.
            let middle = start + (bytes.count - start) / 2
            var expected = start
            for index in start..<bytes.count where index == start || bytes[index - 1] == 0x0A {
                guard index <= middle else { break }
                let byte = bytes[index]
                if byte != 0x20 && byte != 0x0A && byte != 0x0D && byte != 0x23 && byte != 0x09 { expected = index }
            }
            if let split = YAMLSplitPoint.find(in: file) {
                #expect(split.header.lowerBound == expected, "\(text.debugDescription)")
                found += 1
            }
        }
        #expect(found >= 40)
    }

    @Test func theParametersSectionCanBeTheOneSplit() {
        var text = "tipkit: 1\nparameters:\n"
        for index in 0..<3_000 { text += "  flag\(index): { type: bool, default: false }\n" }
        text += "tips:\n  only:\n    title: One\n    rules:\n      - $flag1\n"
        #expect(expectTheSameEitherWay(text))
    }

    /// Generated manifests, whole, cut short and damaged, of any size (the split is tried
    /// whatever the size here): reading in two parts changes nothing, and many do split.
    @Test func generatedManifestsReadInTwoPartsAsWhole() {
        let damage = ["]", "{", ": x", "\"", "\t", "&a ", "*a", "- ", "\n  ", "\n", "#", "? ", "[", "'", "\r\n", "é"]
        var splits = 0
        for seed in UInt64(0)..<300 {
            var generator = YAMLManifestTextGenerator(seed: seed)
            var scalars = Array(generator.manifest().unicodeScalars)
            switch seed % 3 {
            case 1:
                scalars = Array(scalars[..<Int.random(in: 0...scalars.count, using: &generator.random)])
            case 2:
                for _ in 0..<Int.random(in: 1...2, using: &generator.random) {
                    let at = Int.random(in: 0...scalars.count, using: &generator.random)
                    scalars.insert(contentsOf: damage[Int.random(in: 0..<damage.count, using: &generator.random)].unicodeScalars, at: at)
                }
            default:
                break
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            let file = SourceFile(path: "generated.yaml", text: text)
            var whole: [Diagnostic] = [], inParts: [Diagnostic] = []
            let readWhole = ManifestDecoder.decode(file, diagnostics: &whole, readingConcurrently: false)
            let readInParts = ManifestDecoder.decode(file, diagnostics: &inParts, readingConcurrently: true)
            #expect(readInParts == readWhole, "seed \(seed)\n\(text)")
            #expect(rendered(inParts) == rendered(whole), "seed \(seed)\n\(text)")
            if let split = YAMLSplitPoint.find(in: file), ManifestDecoder.decodeInTwoParts(file, at: split, head: ManifestDecoder.KeepingTips(), tail: { ManifestDecoder.KeepingTips() }) != nil { splits += 1 }
        }
        #expect(splits >= 30)
    }
}
