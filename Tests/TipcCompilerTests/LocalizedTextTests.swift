import Testing
import TipRuntime
@testable import TipcCompiler
import TipcDriver

/// Localized texts and placeholders in both front ends, `fmt` and `convert`.
@Suite struct LocalizedTextTests {
    static let yaml = """
        tipkit: 1
        defaultLocale: en
        parameters:
          userName: { type: string, default: friend }
        tips:
          quickSearch:
            title: { en: Search faster, de: Schneller suchen, de-CH: Schnäller sueche }
            message:
              en: "Press {shortcut} to search, {$userName}."
              de: 'Drücke {shortcut} zum Suchen, {$userName}.'
            placeholders: { shortcut: string }
            actions:
              - { id: learn-more, title: { en: Learn more, de: Mehr erfahren } }
              - { id: later, title: "Later {{}}" }

        """

    static let tips = """
        tipkit 1
        defaultLocale en

        param userName: String = "friend"

        tip quickSearch {
          title { en: "Search faster", de: "Schneller suchen", `de-CH`: "Schnäller sueche" }
          message {
            en: "Press {shortcut} to search, {$userName}."
            de: "Drücke {shortcut} zum Suchen, {$userName}."
          }
          action "learn-more" { en: "Learn more", de: "Mehr erfahren" }
          action "later" "Later {{}}"
          placeholders { shortcut: String }
        }

        """

    @Test func yamlDecodesTextsPerLocaleWithPositions() throws {
        let parsed = parseSource(SourceFile(path: "app.yaml", text: Self.yaml))
        #expect(parsed.errors.isEmpty)
        #expect(parsed.file.defaultLocale?.value == "en")
        let tip = try #require(parsed.file.tips.first)
        let title = try #require(tip.title)
        #expect(title.isLocalized)
        #expect(title.variants.map { $0.locale?.value } == ["en", "de", "de-CH"])
        #expect(title.variants.map(\.text.value) == ["Search faster", "Schneller suchen", "Schnäller sueche"])
        #expect(title.variants[2].locale?.range.start == SourceLocation(line: 7, column: 55))
        let message = try #require(tip.message)
        // `{shortcut}` in the double-quoted scalar: the name starts after `"Press {`.
        let pieces = message.variants[0].template
        #expect(pieces.map(\.kind) == [.literal("Press "), .placeholder("shortcut"), .literal(" to search, "), .parameter("userName"), .literal(".")])
        #expect(pieces[1].range.start == SourceLocation(line: 9, column: 19))
        #expect(pieces[3].range.start == SourceLocation(line: 9, column: 42))
        #expect(tip.placeholders.map(\.name.name) == ["shortcut"])
        #expect(tip.placeholders.first?.type?.value == .string)
        #expect(tip.actions.map { $0.title?.isLocalized } == [true, false])
        #expect(tip.actions[1].title?.variants.first?.template.map(\.kind) == [.literal("Later {}")])
    }

    @Test func bothFrontEndsDeclareTheSameProgram() throws {
        let yaml = parseSource(SourceFile(path: "app.yaml", text: Self.yaml))
        let tips = parseSource(SourceFile(path: "app.tips", text: Self.tips))
        #expect(yaml.errors.isEmpty && tips.errors.isEmpty, "\(tips.errors.map(\.message))")
        #expect(yaml.file.strippingLayout() == tips.file.strippingLayout())
        let yamlPack = compilePack(SourceFile(path: "app.yaml", text: Self.yaml))
        let tipsPack = compilePack(SourceFile(path: "app.tips", text: Self.tips))
        #expect(yamlPack.errors.isEmpty)
        #expect(yamlPack.pack?.strippingDebugInfo() == tipsPack.pack?.strippingDebugInfo())
        #expect(yamlPack.pack?.texts?.tips.first?.placeholders == [PackPlaceholder(name: "shortcut", type: .string)])
    }

    @Test func tipsPositionsPointIntoStrings() throws {
        var diagnostics: [Diagnostic] = []
        let source = "tipkit 1\ntip t {\n  title \"Hi {nme}\"\n  message { en: \"a }\" }\n  placeholders { name: String }\n}\n"
        _ = Frontend.parse(SourceFile(path: "t.tips", text: source), diagnostics: &diagnostics)
        #expect(diagnostics.map(\.code) == [.unbalancedBrace])
        #expect(diagnostics.first?.range.start == SourceLocation(line: 4, column: 20))
        let checked = Frontend.check(sources: [SourceFile(path: "t.tips", text: source)])
        let unknown = try #require(checked.diagnostics.first { $0.code == .unknownPlaceholder })
        #expect(unknown.range.start == SourceLocation(line: 3, column: 14))
        #expect(unknown.help == "did you mean 'name'?")
    }

    @Test func tipsFormatsCanonicallyAndIdempotently() throws {
        let messy = """
            tipkit 1
            defaultLocale   en
            param userName: String = "friend"
            tip quickSearch {
              title {en:"Search faster",de:"Schneller suchen",`de-CH`:"Schnäller sueche",}
              message { en: "Press {shortcut} to search, {$userName}.", de: "Drücke {shortcut} zum Suchen, {$userName}." }
              action "later" "Later {{}}"
              action "learn-more" {
                en: "Learn more"
                de: "Mehr erfahren"
              }
              placeholders {shortcut:String}
            }
            """
        let once = try formatted(messy, path: "app.tips")
        #expect(once.contains("  title { en: \"Search faster\", de: \"Schneller suchen\", `de-CH`: \"Schnäller sueche\" }\n"))
        #expect(once.contains("  message {\n    en: \"Press {shortcut} to search, {$userName}.\"\n    de: \"Drücke {shortcut} zum Suchen, {$userName}.\"\n  }\n"))
        #expect(once.contains("  action \"learn-more\" { en: \"Learn more\", de: \"Mehr erfahren\" }\n"))
        #expect(once.contains("  placeholders { shortcut: String }\n"))
        #expect(try formatted(once, path: "app.tips") == once)
        let parsedOnce = parseSource(SourceFile(path: "app.tips", text: once))
        let parsedMessy = parseSource(SourceFile(path: "app.tips", text: messy))
        #expect(parsedOnce.file.strippingLayout() == parsedMessy.file.strippingLayout())
    }

    @Test func convertRoundTripsLocalizedTexts() throws {
        for source in [SourceFile(path: "app.yaml", text: Self.yaml), SourceFile(path: "app.tips", text: Self.tips)] {
            let other: SourceFormat = source.path.hasSuffix(".tips") ? .yaml : .tips
            let converted = try convert(source, to: other).get()
            let back = try convert(converted, to: other == .tips ? .yaml : .tips).get()
            #expect(compilePack(converted).pack?.strippingDebugInfo() == compilePack(source).pack?.strippingDebugInfo())
            #expect(compilePack(back).pack?.strippingDebugInfo() == compilePack(source).pack?.strippingDebugInfo())
            #expect(try convert(back, to: other).get().bytes == converted.bytes)
        }
    }

    @Test func aLocaleWithAHyphenNeedsBackticks() {
        var diagnostics: [Diagnostic] = []
        _ = Frontend.parse(SourceFile(path: "t.tips", text: "tipkit 1\ndefaultLocale de-CH\n"), diagnostics: &diagnostics)
        #expect(diagnostics.map(\.code) == [.syntax])
        #expect(diagnostics.first?.help == "write `de-CH`")
    }

    @Test func checkedProgramsOnlyCarryTextsWhenNeeded() throws {
        let plain = compilePack(SourceFile(path: "a.yaml", text: "tipkit: 1\ndefaultLocale: en\ntips:\n  t: { title: Hello, message: World }\n"))
        #expect(plain.errors.isEmpty)
        #expect(plain.pack?.texts == nil)
        let braces = compilePack(SourceFile(path: "a.yaml", text: "tipkit: 1\ntips:\n  t: { title: \"{{x}}\" }\n"))
        #expect(braces.pack?.texts?.tips.first?.title.variants.first?.template == TextTemplate([.literal("{x}")]))
        #expect(braces.pack?.texts?.defaultLocale == nil)
        // A parameter used only by a text is used.
        let used = Frontend.check(sources: [SourceFile(path: "a.yaml", text: "tipkit: 1\nparameters:\n  n: { type: int, default: 0 }\ntips:\n  t: { title: \"{$n}\" }\n")])
        #expect(used.diagnostics.isEmpty)
    }

    /// Property: a template written back with braces (`TextTemplate.source`, what `inspect`
    /// shows) parses to the same pieces, whatever braces its literal text holds.
    @Test func templatesWrittenBackParseToTheSamePieces() {
        var random = SystemRandomNumberGenerator()
        let literals = ["a", "{", "}", "{{", "}}", " {x} ", "$", "é {", "}{", "Press ", "{$y}"]
        let names = ["shortcut", "user.name", "n-1", "_x"]
        for _ in 0..<500 {
            var segments: [TextTemplate.Segment] = []
            for _ in 0..<Int.random(in: 0...6, using: &random) {
                switch Int.random(in: 0...2, using: &random) {
                case 0:
                    let literal = literals.randomElement(using: &random)!
                    if case .literal(let previous)? = segments.last { segments[segments.count - 1] = .literal(previous + literal) }
                    else { segments.append(.literal(literal)) }
                case 1: segments.append(.parameter(Int.random(in: 0..<names.count, using: &random)))
                default: segments.append(.placeholder(Int.random(in: 0..<names.count, using: &random)))
                }
            }
            let template = TextTemplate(segments)
            let source = template.source(parameterNames: names, placeholderNames: names)
            var diagnostics: [Diagnostic] = []
            let pieces = TextTemplateParser.parse(RuleText(text: source, path: "t.yaml", mapping: .singleLine(start: SourceLocation(line: 1, column: 1))),
                                                  diagnostics: &diagnostics)
            #expect(diagnostics.isEmpty, "\(source)")
            let expected: [TemplatePiece.Kind] = segments.map { segment in
                switch segment {
                case .literal(let text): return .literal(text)
                case .parameter(let index): return .parameter(names[index])
                case .placeholder(let index): return .placeholder(names[index])
                }
            }
            #expect(pieces.map(\.kind) == expected, "\(source)")
        }
    }

    @Test func commentsInsideATextStayWithTheirLocale() throws {
        let source = """
            tipkit 1
            defaultLocale en

            tip t {
              // the title
              title { en: "Hi", de: "Hallo" } // trailing
              message {
                // English first
                en: "Hello"
                de: "Hallo" // German
              }
              action "a" {
                en: "A"
                de: "B"
              }
            }

            """
        let once = try formatted(source, path: "app.tips")
        #expect(once == source.replacingOccurrences(of: "  action \"a\" {\n    en: \"A\"\n    de: \"B\"\n  }\n", with: "  action \"a\" { en: \"A\", de: \"B\" }\n"))
        #expect(try formatted(once, path: "app.tips") == once)
    }

    @Test func theParserRecoversPastABadTextOrPlaceholders() {
        var diagnostics: [Diagnostic] = []
        let source = "tipkit 1\ndefaultLocale en\ntip t {\n  title { en: \"a\" de: \"b\" }\n  placeholders { x String }\n  message \"m\"\n}\ntip u {\n  title \"U\"\n}\n"
        let file = Frontend.parse(SourceFile(path: "r.tips", text: source), diagnostics: &diagnostics)
        #expect(diagnostics.map(\.code) == [.syntax, .syntax])
        #expect(file.tips.map(\.name.name) == ["t", "u"])
        #expect(file.tips.first?.message?.value == "m")
    }
}
