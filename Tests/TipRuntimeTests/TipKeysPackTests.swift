import Testing
@testable import TipRuntime

/// The format-2 `tipKeys` table and the instructions it types: loaded, written back the same,
/// and refused with an error saying what is wrong.
@Suite struct TipKeysPackTests {
    static func pack(key: PackTipKey? = PackTipKey(name: "trailID", type: .int), code: [UInt32], groups: [PackGroup] = []) -> RulePack {
        RulePack(strings: [], displayFrequencyMilliseconds: 0, parameters: [], events: [],
                 tips: [PackTip(name: "newTrail", title: "T", rules: [RuleProgram(code: code)], key: key),
                        PackTip(name: "welcome", title: "W")],
                 groups: groups)
    }

    /// `key == 42`
    static let keyRule: [UInt32] = [Instruction.word(.loadKey)] + [Instruction.word(.compareIntImmediate, 0)] + Instruction.immediate(42)
        + [Instruction.word(.ret)]

    @Test func keysRoundTripAndTypeLoadKey() throws {
        let verified = try RulePackVerifier.verify(Self.pack(code: Self.keyRule))
        #expect(verified.pack.tips[0].key == PackTipKey(name: "trailID", type: .int))
        #expect(verified.pack.tips[1].key == nil)
        #expect(RulePackWriter.encode(verified.pack) == RulePackWriter.encode(Self.pack(code: Self.keyRule)))
        let evaluator = RuleEvaluator(pack: verified)
        let parameters = ParameterValues(pack: verified.pack)
        let store = InMemoryDonationStore(events: [])
        #expect(evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: 0, instance: RuleInstance(key: .int(42))) == .value(true))
        #expect(evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: 0, instance: RuleInstance(key: .int(7))) == .value(false))
    }

    @Test func aPackWithoutKeysHasNoKeysTable() {
        let bytes = RulePackWriter.encode(Self.pack(key: nil, code: [Instruction.word(.pushBool, 1), Instruction.word(.ret)]))
        #expect(!bytes.isEmpty)
        let keyed = RulePackWriter.encode(Self.pack(code: Self.keyRule))
        #expect(keyed.count > bytes.count)
    }

    @Test func wrongKeysAndWrongInstructionsAreRefused() {
        // LOAD_KEY in a tip without a key.
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(Self.pack(key: nil, code: Self.keyRule)) }
        // A key of a type keys cannot have.
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(Self.pack(key: PackTipKey(name: "k", type: .double), code: Self.keyRule)) }
        // A String key compared as an Int.
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(Self.pack(key: PackTipKey(name: "k", type: .string), code: Self.keyRule)) }
        // The unkeyed TIP_* form for a keyed tip, and the keyed form for an unkeyed one.
        let unkeyedRead: [UInt32] = [Instruction.word(.tipInvalidated, 0), Instruction.word(.ret)]
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(Self.pack(code: unkeyedRead)) }
        let keyedRead: [UInt32] = [Instruction.word(.pushInt)] + Instruction.immediate(1) + [Instruction.word(.tipInvalidatedKeyed, 1), Instruction.word(.ret)]
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(Self.pack(code: keyedRead)) }
        // A tip index out of bounds.
        let outside: [UInt32] = [Instruction.word(.tipInvalidated, 9), Instruction.word(.ret)]
        #expect(throws: RulePackError.self) { try RulePackVerifier.verify(Self.pack(code: outside)) }
        // A keyed tip in a group.
        #expect(throws: RulePackError.self) {
            try RulePackVerifier.verify(Self.pack(code: Self.keyRule, groups: [PackGroup(name: "g", priority: .ordered, tips: [0, 1])]))
        }
    }

    @Test func recordsOfAnotherTipAreReadAndWindowed() throws {
        // tip(welcome).invalidations.within(1d).count == 1
        let code: [UInt32] = [Instruction.word(.tipInvalidations, 1), Instruction.word(.within)] + Instruction.immediate(86_400_000)
            + [Instruction.word(.count), Instruction.word(.compareIntImmediate, 0)] + Instruction.immediate(1) + [Instruction.word(.ret)]
        let verified = try RulePackVerifier.verify(Self.pack(code: code))
        let history = TipHistory(records: [
            TipEventRecord(tip: "welcome", stamp: Stamp(milliseconds: 1_000, device: "a"), kind: .invalidation(.tipClosed)),
        ])
        final class Records: TipRecordReader {
            let history: TipHistory
            init(history: TipHistory) { self.history = history }
            func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns {
                tip == 1 ? TipRecordColumns(invalidated: true, displays: history.displayColumns, invalidations: history.invalidationColumns)
                    : TipRecordColumns()
            }
        }
        let evaluator = RuleEvaluator(pack: verified)
        let parameters = ParameterValues(pack: verified.pack)
        let store = InMemoryDonationStore(events: [])
        let instance = RuleInstance(key: .int(1), records: Records(history: history))
        #expect(evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: 999, instance: instance) == .value(false),
                "not yet")
        #expect(evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: 1_000, instance: instance) == .value(true))
        #expect(evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: 1_000 + 86_400_000, instance: instance) == .value(false),
                "out of the window")
        #expect(WindowAnalysis.tipWindows(in: code) == [TipRecordWindow(tip: 1, milliseconds: 86_400_000)])
    }
}
