import Testing
@testable import TipcCompiler

/// `tipc check` of one large YAML file checks, folds and lints each tip as soon as it is
/// decoded: its diagnostics are exactly those of the ordinary check, which reads the whole file
/// first, whatever the file holds; where checking while reading cannot be exact (parameters or
/// events after the tips, YAML problems), the ordinary check runs instead.
@Suite("Checking tips while reading")
struct CheckingWhileReadingTests {
    /// A manifest of `tips` tips over a few parameters and events, with lint warnings
    /// (`viewed.count >= 0` always holds), and `trouble(index)` written into tip `index`.
    private func manifest(tips: Int, eventsAfterTips: Bool = false, rule badRule: (Int) -> String? = { _ in nil },
                          trouble: (Int) -> String = { _ in "" }) -> String {
        let events = "events:\n  viewed:\n    value: { itemID: int, category: string }\n  opened: {}\n"
        var text = "tipkit: 1\ndisplayFrequency: daily\nparameters:\n  signedIn: { type: bool, default: false }\n"
        text += "  count: { type: int, default: 0 }\n  plan: { type: string, default: free, values: [free, pro] }\n  unused: { type: bool, default: true }\n"
        if !eventsAfterTips { text += events }
        text += "tips:\n"
        for index in 0..<tips {
            text += "  tip\(index):\n    title: \"Tip \(index)\"\n    message: A message long enough to be a heap string\n"
            let rule: String
            switch index % 6 {
            case 0: rule = "viewed.count >= 0"
            case 1: rule = "$signedIn and viewed.where(category == \"shoes\").count >= \(index % 4)"
            case 2: rule = "viewed.largestSubset(itemID).count >= 3 within 5d"
            case 3: rule = "$plan in [\"pro\"] and opened.count > 1"
            default: rule = "$count >= \(index % 7) and not $signedIn"
            }
            text += "    rules:\n      - \(badRule(index) ?? rule)\n" + trouble(index)
        }
        if eventsAfterTips { text += events }
        text += "groups:\n  onboarding: { priority: ordered, tips: [tip0, tip\(tips - 1), tip\(tips / 2)] }\n"
        return text
    }

    private func rendered(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.code) \($0.range) \($0.message) \($0.help ?? "") \($0.notes.map { "\(String(describing: $0.range)) \($0.message)" })" }
    }

    /// Checks `text` both ways; returns whether the tips were checked while reading.
    @discardableResult
    private func expectTheSameEitherWay(_ text: String) -> Bool {
        let source = SourceFile(path: "large.yaml", text: text)
        #expect(source.bytes.count >= ManifestDecoder.concurrentReadingThreshold)
        let ordinary = Frontend.check(sources: [source])
        let whileReading = Frontend.check(sources: [source], keepingProgram: false)
        #expect(rendered(whileReading.diagnostics) == rendered(ordinary.diagnostics))
        return Frontend.checkedWhileReading(source) != nil
    }

    @Test func aCleanManifestChecksTheSameWhileReading() {
        let text = manifest(tips: 700)
        #expect(expectTheSameEitherWay(text))
        let result = Frontend.check(sources: [SourceFile(path: "large.yaml", text: text)], keepingProgram: false)
        #expect(result.diagnostics.filter { $0.code == .alwaysTrue }.count == (700 + 5) / 6)
        #expect(result.diagnostics.contains { $0.code == .unused && $0.message.contains("'unused'") })
    }

    /// Problems of the tips themselves, in both halves: checker errors (the lints then do not
    /// count), a constant error (the warnings then do not count), names repeated across kinds.
    @Test(arguments: [
        "    titel: misspelt\n",
        "    maxDisplayCount: 0\n",
        "    actions:\n      - { id: a, title: A }\n      - { id: a, title: B }\n",
    ])
    func problemsInTipsReportTheSameWhileReading(trouble: String) {
        #expect(expectTheSameEitherWay(manifest(tips: 700, trouble: { $0 % 97 == 5 ? trouble : "" })))
    }

    @Test(arguments: ["missing.count >= 1", "$signedIn + 1", "$count >= 1 / 0", "viewed.count >= within", "$sigendIn"])
    func problemsInRulesReportTheSameWhileReading(rule: String) {
        #expect(expectTheSameEitherWay(manifest(tips: 700, rule: { $0 % 97 == 5 ? rule : nil })))
    }

    @Test func aTipNamedLikeAParameterReportsTheSame() {
        let text = manifest(tips: 700).replacingOccurrences(of: "  tip650:\n", with: "  count:\n")
        #expect(expectTheSameEitherWay(text))
    }

    /// Events declared after the tips: tips were checked without them, so the file is checked
    /// the ordinary way (and `viewed` is known to every rule).
    @Test func eventsAfterTheTipsAreCheckedTheOrdinaryWay() {
        let text = manifest(tips: 700, eventsAfterTips: true)
        #expect(!expectTheSameEitherWay(text))
        let result = Frontend.check(sources: [SourceFile(path: "large.yaml", text: text)], keepingProgram: false)
        #expect(!result.diagnostics.contains { $0.code == .unknownEvent })
    }

    @Test func yamlProblemsAreCheckedTheOrdinaryWay() {
        let text = manifest(tips: 700, trouble: { $0 == 600 ? "    title: again\n" : "" })
        #expect(!expectTheSameEitherWay(text))
    }

    /// The split in the parameters: the first part has no tips, the second checks its own.
    @Test func aSplitAmongTheParametersChecksTheSame() {
        var text = "tipkit: 1\nparameters:\n"
        for index in 0..<3_000 { text += "  flag\(index): { type: bool, default: false }\n" }
        text += "tips:\n" + (0..<50).map { "  tip\($0):\n    title: T\n    rules:\n      - $flag\($0) or $flag\($0 + 1)\n" }.joined()
        expectTheSameEitherWay(text)
    }

    /// The second part's tips decoded before the first part announces its parameters and events
    /// wait, kept as stand-ins, and are checked in order once it does: the findings are those of
    /// checking every tip as it comes.
    @Test func tipsDecodedBeforeTheAnnouncementAreCheckedInOrder() {
        var diagnostics: [Diagnostic] = []
        let file = ManifestDecoder.decode(SourceFile(path: "small.yaml", text: manifest(tips: 6)), diagnostics: &diagnostics)
        let context = Frontend.TipContext(parameters: file.parameters, events: file.events)
        let announcement = Handoff<Frontend.TipContext?>()
        var tail = Frontend.PrecheckingTailTips(announcement: announcement)
        let none = ManifestDecoder.Declarations()
        var kept = file.tips.prefix(2).map { tail.take($0, after: none) }
        #expect(tail.prechecker == nil)
        announcement.put(context)
        kept += file.tips.dropFirst(2).map { tail.take($0, after: none) }
        tail.partEnded()
        #expect(tail.uncheckedWaitingTips.isEmpty)
        #expect(kept.map(\.name) == file.tips.map(\.name))
        #expect(kept.allSatisfy { $0.rules.isEmpty && $0.title == nil })

        var inTurn = context.prechecker()
        for tip in file.tips { _ = inTurn.check(tip) }
        guard let waited = tail.prechecker?.findings else {
            Issue.record("the tail's tips were not checked")
            return
        }
        let direct = inTurn.findings
        #expect(rendered(waited.diagnostics) == rendered(direct.diagnostics))
        let waitedLate = LateFindings(joining: [waited.output]), directLate = LateFindings(joining: [direct.output])
        #expect(rendered(waitedLate.warnings) == rendered(directLate.warnings))
        #expect(!directLate.warnings.isEmpty)
        #expect(rendered(waitedLate.constantErrors) == rendered(directLate.constantErrors))
    }

    /// Tips that waited, and then the first part had none to check them with: they are handed
    /// back whole, for the program's checker to check, and the tips after them are kept whole.
    @Test func tipsThatWaitedForNothingAreHandedBackWhole() {
        var diagnostics: [Diagnostic] = []
        let file = ManifestDecoder.decode(SourceFile(path: "small.yaml", text: manifest(tips: 3)), diagnostics: &diagnostics)
        let announcement = Handoff<Frontend.TipContext?>()
        var tail = Frontend.PrecheckingTailTips(announcement: announcement)
        let none = ManifestDecoder.Declarations()
        let first = tail.take(file.tips[0], after: none)
        #expect(first.rules.isEmpty)
        announcement.put(nil)
        let second = tail.take(file.tips[1], after: none)
        tail.partEnded()
        #expect(tail.prechecker == nil)
        #expect(tail.uncheckedWaitingTips == [file.tips[0]])
        #expect(second == file.tips[1])
    }

    /// A split on the first entry of `tips`: the first part has no tips, the second part's
    /// first tips may wait for nothing; the check is that of the ordinary way either way.
    @Test func aSplitOnTheFirstTipChecksTheSame() {
        var text = "tipkit: 1\nparameters:\n"
        for index in 0..<2_500 { text += "  flag\(index): { type: bool, default: false }\n" }
        text += "tips:\n" + (0..<900).map { "  tip\($0):\n    title: T\n    rules:\n      - $flag\($0) or $flag\($0 + 1) and 1 / 0 == 0\n" }.joined()
        expectTheSameEitherWay(text)
    }
}
