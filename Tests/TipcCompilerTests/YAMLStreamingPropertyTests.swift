import Testing
@testable import TipcCompiler

/// Streaming must not change what is read: on generated manifests, whole, cut short and
/// damaged, the entries handed on and the root left behind are exactly the whole read's.
@Suite struct YAMLStreamingPropertyTests {
    private static let seeds: [UInt64] = Array(0..<200)

    /// Text a damaged file gets at some point: YAML indicators, a quote, a tab, an anchor, a
    /// line break that breaks the indentation.
    private static let damage = ["]", "{", ": x", "\"", "\t", "&a ", "*a", "- ", "\n  ", "\n", "#", "? ", "[", "'"]

    @Test func generatedManifestsStreamLikeTheWholeRead() {
        for seed in Self.seeds {
            var generator = YAMLManifestTextGenerator(seed: seed)
            let text = generator.manifest()
            let read = StreamingComparison(text)
            // The generator writes well-formed YAML: only its repeated keys are reported.
            #expect(read.wholeDiagnostics.allSatisfy { $0.code == .duplicateKey }, "seed \(seed): \(read.wholeDiagnostics)\n\(text)")
            #expect(read.wholeRoot != nil, "seed \(seed)")
            expectStreamingMatchesWholeRead(read, "seed \(seed)\n\(text)")
        }
    }

    @Test func generatedManifestsCutShortStreamLikeTheWholeRead() {
        for seed in Self.seeds {
            var generator = YAMLManifestTextGenerator(seed: seed)
            let scalars = Array(generator.manifest().unicodeScalars)
            let cut = Int.random(in: 0...scalars.count, using: &generator.random)
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars[..<cut])
            expectStreamingMatchesWholeRead(StreamingComparison(text), "seed \(seed)\n\(text)")
        }
    }

    @Test func generatedManifestsWithDamageStreamLikeTheWholeRead() {
        for seed in Self.seeds {
            var generator = YAMLManifestTextGenerator(seed: seed)
            var scalars = Array(generator.manifest().unicodeScalars)
            for _ in 0..<Int.random(in: 1...2, using: &generator.random) {
                let at = Int.random(in: 0...scalars.count, using: &generator.random)
                let damage = Self.damage[Int.random(in: 0..<Self.damage.count, using: &generator.random)]
                scalars.insert(contentsOf: damage.unicodeScalars, at: at)
            }
            var text = ""
            text.unicodeScalars.append(contentsOf: scalars)
            expectStreamingMatchesWholeRead(StreamingComparison(text), "seed \(seed)\n\(text)")
        }
    }

    /// A large manifest: the declarations come out in file order, the same on every run.
    @Test func aLargeManifestDecodesInFileOrderEveryTime() {
        let count = 700
        var yaml = "tipkit: 1\ntips:\n"
        for index in 0..<count {
            yaml += "  tip\(index):\n    title: Title \(index)\n    message: \"Message \(index)\"\n"
        }
        yaml += "  tip5:\n    title: again\n"
        let file = SourceFile(path: "test.yaml", text: yaml)
        var firstDiagnostics: [Diagnostic] = []
        let first = ManifestDecoder.decode(file, diagnostics: &firstDiagnostics)
        #expect(first.tips.map(\.name.name) == (0..<count).map { "tip\($0)" })
        #expect(first.tips.map { $0.title?.value } == (0..<count).map { "Title \($0)" })
        #expect(firstDiagnostics.map(\.code) == [.duplicateKey])
        for _ in 0..<3 {
            var diagnostics: [Diagnostic] = []
            #expect(ManifestDecoder.decode(file, diagnostics: &diagnostics) == first)
            #expect(diagnostics == firstDiagnostics)
        }
    }
}
