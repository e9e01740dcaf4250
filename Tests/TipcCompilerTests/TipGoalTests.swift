import Testing
import TipRuntime
@testable import TipcCompiler

/// A tip's `goal` (one row of `TipAttributes`): read from both front ends, checked, written to
/// the pack's optional goals table, printed by both printers and in the schema.
@Suite struct TipGoalTests {
    static let yaml = """
        tipkit: 1

        events:
          backyardFavorited: {}
          backyardViewed: {}

        tips:
          favoriteBackyard:
            title: Save as a favorite
            goal: backyardFavorited within 7d
            rules:
              - backyardViewed.count >= 3

        """

    @Test func yamlAndTipsGiveTheSameGoalInThePack() throws {
        let compiled = compilePack(SourceFile(path: "goal.yaml", text: Self.yaml))
        #expect(compiled.errors.isEmpty, "\(compiled.errors.map(\.message))")
        let pack = try #require(compiled.pack)
        #expect(pack.tips[0].goal == PackTipGoal(event: 0, windowMilliseconds: 7 * 86_400_000))
        let tips = try convert(SourceFile(path: "goal.yaml", text: Self.yaml), to: .tips).get()
        let text = String(decoding: tips.bytes, as: UTF8.self)
        #expect(text.contains("  goal backyardFavorited within 7d\n"), "\(text)")
        let back = try convert(tips, to: .yaml).get()
        #expect(String(decoding: back.bytes, as: UTF8.self) == Self.yaml)
        #expect(compilePack(tips).pack?.strippingDebugInfo() == pack.strippingDebugInfo())
    }

    @Test func theGoalsTableRoundTripsAndIsAbsentWithoutGoals() throws {
        let pack = try #require(compilePack(SourceFile(path: "goal.yaml", text: Self.yaml)).pack).withoutSourcePositions
        let bytes = RulePackWriter.encode(pack)
        let read = try RulePackLoader.decodeModel(bytes)
        #expect(read.tips[0].goal == PackTipGoal(event: 0, windowMilliseconds: 7 * 86_400_000))
        #expect(RulePackWriter.encode(read) == bytes)
        var withoutGoal = pack
        withoutGoal.tips[0].goal = nil
        let plain = RulePackWriter.encode(withoutGoal)
        // The only difference is the optional table: kind, length, count and one 16-byte entry.
        #expect(bytes.count == plain.count + 6 + 4 + 16)
        #expect(try RulePackLoader.decodeModel(plain).tips[0].goal == nil)
    }

    @Test func aLoaderRefusesAGoalOfAnEventThePackLacks() throws {
        var pack = try #require(compilePack(SourceFile(path: "goal.yaml", text: Self.yaml)).pack).withoutSourcePositions
        pack.tips[0].goal = PackTipGoal(event: 7, windowMilliseconds: 1_000)
        #expect(throws: RulePackError.self) { try RulePackLoader.decodeModel(RulePackWriter.encode(pack)) }
        pack.tips[0].goal = PackTipGoal(event: 0, windowMilliseconds: 0)
        #expect(throws: RulePackError.self) { try RulePackLoader.decodeModel(RulePackWriter.encode(pack)) }
    }

    @Test(arguments: [
        ("goal: backyardFavorited 7d", "expected EVENT within DURATION for 'goal' of tip 'favoriteBackyard', found 'backyardFavorited 7d'"),
        ("goal: backyardFavorited within 7months", "unknown duration unit"),
        ("goal: backyardFavorited within 0d", "the window of 'goal' of tip 'favoriteBackyard' must be a positive duration, found '0d'"),
        ("goal: [backyardFavorited]", "expected EVENT within DURATION for 'goal' of tip 'favoriteBackyard', found a list"),
    ])
    func badGoalsInYAMLAreClearErrors(_ line: String, _ message: String) {
        let source = Self.yaml.replacingOccurrences(of: "goal: backyardFavorited within 7d", with: line)
        let errors = compilePack(SourceFile(path: "goal.yaml", text: source)).errors
        #expect(errors.count == 1 && errors[0].message.contains(message), "\(errors.map(\.message))")
    }

    @Test func anUnknownGoalEventHasADidYouMean() throws {
        let source = Self.yaml.replacingOccurrences(of: "goal: backyardFavorited", with: "goal: backyardFavourited")
        let errors = compilePack(SourceFile(path: "goal.yaml", text: source)).errors
        let error = try #require(errors.first)
        #expect(errors.count == 1)
        #expect(error.code == .unknownGoalEvent)
        #expect(error.help == "did you mean 'backyardFavorited'?")
        // It points at the event's name alone.
        #expect(error.range.start.column == 11 && error.range.end.column == 29)
    }

    @Test func anEventUsedOnlyAsAGoalIsNotUnused() {
        let result = Frontend.check(sources: [SourceFile(path: "goal.yaml", text: Self.yaml)])
        #expect(!result.diagnostics.contains { $0.code == .unused }, "\(result.diagnostics.map(\.message))")
    }

    @Test func badGoalsInTipsAreClearErrors() {
        let tips = "tipkit 1\nevent backyardFavorited\ntip t {\n  title \"T\"\n  goal backyardFavorited 7d\n}\n"
        let diagnostics = parseTipsFile(tips).diagnostics
        #expect(diagnostics.map(\.message) == ["expected 'within' and a duration, found duration '7d'"]
                || diagnostics.first?.message.hasPrefix("expected 'within' and a duration") == true, "\(diagnostics.map(\.message))")
    }

    @Test func theSchemaDescribesTheGoal() {
        let schema = ManifestSchema.jsonSchema()
        #expect(schema.contains("\"goal\": {"))
        #expect(schema.contains("EVENT within DURATION"))
    }
}
