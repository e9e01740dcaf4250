import Testing
import TipRuntime
@testable import TipcCompiler

@Suite struct ConvertRoundTripTests {
    /// yaml → tips → yaml (or tips → yaml → tips): both conversions compile to the pack of
    /// the original, and converting back gives the first conversion's source again.
    private func expectRoundTrip(_ source: SourceFile, sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
        let original = compilePack(source)
        #expect(original.errors.isEmpty, "\(original.errors.map(\.message))", sourceLocation: sourceLocation)
        let pack = try #require(original.pack, sourceLocation: sourceLocation).strippingDebugInfo()
        let other: SourceFormat = source.path.hasSuffix(".tips") ? .yaml : .tips
        let same: SourceFormat = other == .tips ? .yaml : .tips
        let converted = try convert(source, to: other).get()
        let back = try convert(converted, to: same).get()
        for file in [converted, back] {
            let compiled = compilePack(file)
            #expect(compiled.errors.isEmpty, "\(compiled.errors.map(\.message))\n\(String(decoding: file.bytes, as: UTF8.self))",
                    sourceLocation: sourceLocation)
            #expect(compiled.pack?.strippingDebugInfo() == pack, "\(String(decoding: file.bytes, as: UTF8.self))",
                    sourceLocation: sourceLocation)
        }
        let again = try convert(back, to: other).get()
        #expect(again.bytes == converted.bytes, sourceLocation: sourceLocation)
    }

    @Test func everyExampleRoundTrips() throws {
        let sources = try exampleSources()
        #expect(sources.count >= 4)
        for source in sources {
            try expectRoundTrip(source)
        }
    }

    /// Format 2: keyed tips and rules about tips, both ways, to the same pack.
    @Test func keyedTipsAndTipReferencesRoundTrip() throws {
        try expectRoundTrip(SourceFile(path: "format2.tips", text: """
            tipkit 1
            event trailViewed { trailID: Int, region: String }
            event opened
            tip welcome {
              title "Welcome"
              rule opened.count >= 1
            }
            tip newTrail[trailID: Int] {
              title "A new trail near you"
              rule trailViewed.where(trailID == key).count >= 3
              rule not tip(newTrail, key).invalidated
            }
            tip `region-tip`[`region-name`: String] {
              title "Region"
              rule trailViewed.where(region == key).count >= 1 within 7d
              rule tip(welcome).invalidations.where(reason == "tipClosed").count >= 1
              rule tip(newTrail, 42).displays.count == 0 within 1d
            }
            """))
        try expectRoundTrip(SourceFile(path: "format2.yaml", text: """
            tipkit: 1
            events:
              opened: {}
            tips:
              welcome:
                title: Welcome
              badge:
                key: { name: name, type: string }
                title: Badge
                rules:
                  - tip(welcome).invalidated and tip(welcome).invalidations.within(1d).count == 0
                  - key != "none"
            """))
    }

    @Test func generatedProgramsRoundTrip() throws {
        for seed in UInt64(1)...500 {
            var generator = ProgramGenerator(seed: seed)
            let manifest = generator.manifest()
            let yaml = SourceFile(path: "generated-\(seed).yaml", text: ManifestYAMLPrinter.print(manifest))
            let parsed = parseSource(yaml)
            try #require(parsed.errors.isEmpty, "seed \(seed): \(parsed.errors.map(\.message))\n\(String(decoding: yaml.bytes, as: UTF8.self))")
            #expect(parsed.file.strippingLayout() == manifest.strippingLayout(), "seed \(seed)")
            try expectRoundTrip(yaml)
        }
    }

    @Test func commentsAttachedToDeclarationsAreCarried() throws {
        let yaml = SourceFile(path: "c.yaml", text: """
            # The app's tips.
            tipkit: 1
            parameters:
              # Signed in with an account.
              isSignedIn: { type: bool, default: false }
            events:
              # Opened the app.
              opened: {}
            tips:
              # The first tip.
              welcome:
                title: Hello
                rules: [opened.count > 0, $isSignedIn]
            groups:
              # Onboarding.
              onboarding: { tips: [welcome] }

            """)
        let tips = try convert(yaml, to: .tips).get()
        #expect(String(decoding: tips.bytes, as: UTF8.self) == """
            // The app's tips.

            tipkit 1

            // Signed in with an account.
            param isSignedIn: Bool = false

            // Opened the app.
            event opened

            // The first tip.
            tip welcome {
              title "Hello"
              rule opened.count > 0
              rule $isSignedIn
            }

            // Onboarding.
            group onboarding firstAvailable { welcome }

            """)
        let back = try convert(tips, to: .yaml).get()
        #expect(String(decoding: back.bytes, as: UTF8.self) == """
            # The app's tips.
            tipkit: 1

            parameters:
              # Signed in with an account.
              isSignedIn: { type: bool, default: false }

            events:
              # Opened the app.
              opened: {}

            tips:
              # The first tip.
              welcome:
                title: Hello
                rules:
                  - opened.count > 0
                  - $isSignedIn

            groups:
              # Onboarding.
              onboarding: { priority: firstAvailable, tips: [welcome] }

            """)
    }

    @Test func valuesTheRuleLanguageCannotWriteAreAnError() throws {
        let yaml = SourceFile(path: "inf.yaml", text: "tipkit: 1\nparameters:\n  limit: { type: double, default: .inf }\n")
        let result = convert(yaml, to: .tips)
        guard case .failure(let error) = result else {
            Issue.record("expected a failure")
            return
        }
        #expect(error.message.contains("parameter 'limit'"))
    }

    @Test func yamlQuotesEveryStringThatWouldReadAsSomethingElse() throws {
        let tips = SourceFile(path: "q.tips", text: """
            tipkit 1
            param mode: String = "true" in ["true", "1.5", "null", "a: b", "#x", "", "- y", "it's"]
            event `app.launched` { `true`: String }
            tip `on` {
              title "x: y # z"
              message "line\\nbreak"
              action "yes" "No"
              rule `app.launched`.where(`true` == "[x]").count >= 1 and $mode in ["a: b", "#x"]
            }

            """)
        let yaml = try convert(tips, to: .yaml).get()
        let text = String(decoding: yaml.bytes, as: UTF8.self)
        #expect(text.contains(##"values: ["true", "1.5", "null", "a: b", "#x", "", "- y", it's]"##))
        #expect(text.contains(#"title: "x: y # z""#))
        #expect(text.contains(#"message: "line\nbreak""#))
        #expect(text.contains(##"  - '`app.launched`.where(`true` == "[x]").count >= 1 and $mode in ["a: b", "#x"]'"##))
        #expect(compilePack(yaml).pack?.strippingDebugInfo() == compilePack(tips).pack?.strippingDebugInfo())
    }
}
