import Testing
@testable import TipcCompiler

@Suite struct FormatTipsTests {
    static let messy = """
        // The header: kept, with its blank line.

        // About the version.
        tipkit   1 // format
        event  b { n :Int } limit 5 within 7d // an event
        param x :Int=   -3   transient
        param `plan`: String = "free" in [ "free","pro" ]
        displayFrequency 12h
        param when: Date = date( "2026-01-01T00:00:00Z" )
        tip  t{
          // before the rule
          rule ((b.count>=3)) and ( $x  > 2 ) // at the end of the rule
             or not (b.count == 1)
          title "T" // about the title
          image asset "pic"
          action learn "Learn \\"more\\""
          // before the closing brace
        }
        group g ordered {
          t
        }
        // the end

        """

    @Test func messyFileIsFormattedCanonically() throws {
        let output = try formatted(Self.messy, path: "messy.tips")
        #expect(output == """
            // The header: kept, with its blank line.

            // About the version.
            tipkit 1 // format
            displayFrequency 12h

            param x: Int = -3 transient
            param plan: String = "free" in ["free", "pro"]
            param when: Date = date("2026-01-01T00:00:00Z")

            event b { n: Int } limit 5 within 7d // an event

            tip t {
              title "T" // about the title
              image asset "pic"
              action "learn" "Learn \\"more\\""
              // before the rule
              rule b.count >= 3 and $x > 2 or not b.count == 1 // at the end of the rule
              // before the closing brace
            }

            group g ordered { t }

            // the end

            """)
        #expect(try formatted(output, path: "messy.tips") == output)
    }

    @Test(arguments: [
        "tipkit 1\nevent e\ntip t {\n  title \"x\"\n  rule (((e.count)) > (1 + 2) * 3)\n}\n",
        "tipkit 1\n\n\n\nparam p: Bool = false\nparam q: Bool=true\ntip t { title \"x\"\n rule not ($p or $q) and ($p||$q) && !$p\n}\n",
        "// only a comment\n",
        "tipkit 1 // a\n// b\ndisplayFrequency daily // c // d\n",
        "event e { f: String }\ntip t {\n  title \"t\"\n  rule e.where(f == \"a\" or (f in [\"b\",\"c\"])).count >= 2 within 3d // x\n  rule e.within(1d12h).count==0\n}\n",
    ])
    func formattingIsIdempotent(_ text: String) throws {
        let once = try formatted(text, path: "f.tips")
        #expect(try formatted(once, path: "f.tips") == once)
        let comments = { (text: String) in RuleLexer.lex(RuleText(file: SourceFile(path: "f.tips", text: text))).comments.count }
        #expect(comments(once) == comments(text))
    }

    @Test func everyTipsExampleIsAFixpointAfterOneFormat() throws {
        for source in try exampleSources() where source.path.hasSuffix(".tips") {
            let once = try formatted(source)
            #expect(try formatted(once).bytes == once.bytes, "\(source.path)")
            #expect(parseSource(once).file.strippingLayout() == parseSource(source).file.strippingLayout())
        }
    }

    @Test func generatedProgramsFormatToThemselves() throws {
        for seed in UInt64(1)...100 {
            var generator = ProgramGenerator(seed: seed)
            let tips = TipsPrinter.print(generator.manifest())
            #expect(try formatted(tips, path: "g.tips") == tips, "seed \(seed)")
        }
    }

    @Test func fileWithErrorsIsRefused() {
        #expect(throws: AuthoringError.self) { try formatted("tipkit 1\ntip t {\n  rule a.count >=\n}\n", path: "bad.tips") }
    }
}
