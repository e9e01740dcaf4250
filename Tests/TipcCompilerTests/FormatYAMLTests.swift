import Testing
@testable import TipcCompiler

@Suite struct FormatYAMLTests {
    static let manifest = """
        # A header comment.
        tipkit: 1
        events:
          a: {}     # trailing comment
          b-c: {}
        parameters:
          plan: { type: string, default: free, values: [free, "pro: x", "it's"] }
        tips:
          t1:
            title: T
            rules:
              - a.count>=3   # comment after a rule
              - '$plan=="free"'
              - '$plan  ==  "it''s"'
              - "`b-c`.count  >  0"
              - "$plan  ==  \\"pro: x\\""
              - |
                  a.count
                    >= 1
              - >-
                a.count    ==   2

              - a.count
                >= 4
              - a.count >= 5 within 7d
          t2: { title: U, rules: [ a.count>1, "a.count in [1,2]" ] }

          t3:
            title: V
            rules: [a.count>2, (a.count)<9]

        """

    @Test func rulesAreRewrittenInTheirOwnStyle() throws {
        let output = try formatted(Self.manifest, path: "m.yaml")
        #expect(output == """
            # A header comment.
            tipkit: 1
            events:
              a: {}     # trailing comment
              b-c: {}
            parameters:
              plan: { type: string, default: free, values: [free, "pro: x", "it's"] }
            tips:
              t1:
                title: T
                rules:
                  - a.count >= 3   # comment after a rule
                  - '$plan == "free"'
                  - '$plan == "it''s"'
                  - "`b-c`.count > 0"
                  - "$plan == \\"pro: x\\""
                  - |
                      a.count >= 1
                  - >-
                    a.count == 2

                  - a.count >= 4
                  - a.count >= 5 within 7d
              t2: { title: U, rules: [ a.count > 1, "a.count in [1, 2]" ] }

              t3:
                title: V
                rules: [a.count > 2, a.count < 9]

            """)
        #expect(try formatted(output, path: "m.yaml") == output)
    }

    @Test func everythingOutsideTheRulesIsUnchanged() throws {
        var sources = try exampleSources().filter { !$0.path.hasSuffix(".tips") }
        sources.append(SourceFile(path: "m.yaml", text: Self.manifest))
        for source in sources {
            let once = try formatted(source)
            #expect(maskingRules(once) == maskingRules(source), "\(source.path)")
            #expect(try formatted(once).bytes == once.bytes, "\(source.path)")
            #expect(parseSource(once).file.strippingLayout() == parseSource(source).file.strippingLayout())
        }
    }

    @Test func plainRulesThatAreNotSafeBecomeDoubleQuoted() {
        #expect(YAMLRuleFormatter.quoted("`a-b`.count > 0", style: .plain, inFlow: false) == #""`a-b`.count > 0""#)
        #expect(YAMLRuleFormatter.quoted(#"$p == "x # y""#, style: .plain, inFlow: false) == #""$p == \"x # y\"""#)
        #expect(YAMLRuleFormatter.quoted(#"$p in ["a", "b"]"#, style: .plain, inFlow: false) == #"$p in ["a", "b"]"#)
        #expect(YAMLRuleFormatter.quoted(#"$p in ["a", "b"]"#, style: .plain, inFlow: true) == #""$p in [\"a\", \"b\"]""#)
        #expect(YAMLRuleFormatter.quoted(#"$p == "\\""#, style: .doubleQuoted, inFlow: false) == #""$p == \"\\\\\"""#)
        #expect(YAMLRuleFormatter.quoted("$p == \"it's\"", style: .singleQuoted, inFlow: false) == #"'$p == "it''s"'"#)
    }

    @Test func generatedManifestsAreAlreadyFormatted() throws {
        for seed in UInt64(1)...100 {
            var generator = ProgramGenerator(seed: seed)
            let yaml = ManifestYAMLPrinter.print(generator.manifest())
            #expect(try formatted(yaml, path: "g.yaml") == yaml, "seed \(seed)")
        }
    }
}
