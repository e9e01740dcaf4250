import Testing
@testable import TipcCompiler

/// The re-scan that maps scalar bytes to positions must decode exactly as libyaml does;
/// otherwise positions fall back to the scalar's start.
@Suite struct YAMLScalarScannerTests {
    static let documents: [String] = [
        "a: plain text\n",
        "a: plain   inner  spaces   \n",
        "a: multi\n  line\n\n\n  plain\n",
        "a: [flow one,\n  flow\n   two, x]\n",
        "a: {k: flow\n   value}\n",
        "a: 'single ''quoted'' text'\n",
        "a: 'single  \n   folded\n\n   lines  '\n",
        "a: ''\n",
        "a: \"\"\n",
        "a: \"esc \\0\\a\\b\\t\\n\\v\\f\\r\\e\\ \\\"\\/\\\\\\N\\_\\L\\P end\"\n",
        "a: \"hex \\x41\\u00E9\\U0001F600\"\n",
        "a: \"trailing \\t  \n  next\"\n",
        "a: \"spaces kept before escaped break   \\\n   joined\"\n",
        "a: \"escaped break then empty lines\\\n\n\n   x\"\n",
        "a: \"line  \n\n   after empty\"\n",
        "a: \"tab\tinside\"\n",
        "a: \"ls\u{2028}ps\u{2029}nel\u{85}in quotes\"\n",
        "a: 'ls\u{2028}in single'\n",
        "a: |\n  literal\n   more\n\n  end\n",
        "a: |-\n  strip\n\n\n",
        "a: |+\n  keep\n\n\nb: 1\n",
        "a: |\n\n\n  leading empty\n",
        "a: |  # comment\n  with comment\n",
        "a: >\n  folded\n  lines\n\n  para\n    more indented\n  back\n",
        "a: >-\n  a\n   b\n  c\n",
        "a: >+\n  keep\n\n",
        "- |\n  in sequence\n- >\n  folded\n  seq\n",
        "k:\n- |2\n   indentless with indicator\n- x\n",
        "k:\n  - |1\n     deeper\n  - >2-\n     x\n    y\n",
        "top: |4\n        four\n",
        "a: |\n  tab\tinside\n  \tleading tab content\n",
        "a: >\n  x\n  \ttab line\n  next\n",
        "a: |\n  unicode é 😀\n",
        "a: 😀 plain é\n",
        "? complex\n: value\n",
        "a:\n",
        "a: ~\n",
        "a: !t tagged value\n",
        "a: &x\n  anchored\n",
    ]

    @Test(arguments: documents)
    func rescanMatchesLibyaml(_ yaml: String) {
        for variant in [yaml, yaml.replacingCRLF()] {
            let (root, _, file) = readYAML(variant)
            var scalars: [YAMLScalar] = []
            collectScalars(root, into: &scalars)
            #expect(!scalars.isEmpty)
            for scalar in scalars {
                let output = YAMLScalarScanner.scan(scalar, in: file.bytes)
                #expect(output.map { String(decoding: $0.bytes, as: UTF8.self) } == scalar.value,
                        "\(scalar.style) \(variant.debugDescription)")
                #expect(output?.origins.count == scalar.value.utf8.count)
            }
        }
    }

    private func collectScalars(_ node: YAMLNode?, into scalars: inout [YAMLScalar]) {
        guard let node else { return }
        switch node.content {
        case .scalar(let scalar): scalars.append(scalar)
        case .sequence(let items): for item in items { collectScalars(item, into: &scalars) }
        case .mapping(let pairs):
            for pair in pairs {
                collectScalars(pair.key, into: &scalars)
                collectScalars(pair.value, into: &scalars)
            }
        case .alias: break
        }
    }
}

private extension String {
    func replacingCRLF() -> String {
        String(decoding: Array(utf8).flatMap { $0 == 0x0A ? [0x0D, 0x0A] : [$0] }, as: UTF8.self)
    }
}
