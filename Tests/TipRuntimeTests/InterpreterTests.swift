import Testing
@testable import TipRuntime

/// Ties every row of the opcode table to its case in the one interpreter loop: each row has a
/// program here (the `switch` below is exhaustive, so a new row does not compile without one),
/// and each program is verified, fused, disassembled and run in every mode of the loop (the
/// machine fused, the machine traced, which runs fused instructions unfused, and the fast path
/// when it takes the program), where it must give its known value. A row whose case is missing
/// stops the loop at its `default`.
@Suite struct InterpreterTests {
    static let now: Int64 = 1_750_000_000_000
    static let hour: Int64 = 3_600_000
    static let day: Int64 = 86_400_000

    /// Parameters `flag` (true), `number` (2), `ratio` (1.5), `plan` ("pro"); events `opened`
    /// (3 donations, 2 in the last day) and `viewed` (`item`, `category`: (1, "pro"), (1,
    /// "free"), (2, "pro"), all in the last day); tip 0 (keyed, holds the programs), tip 1 and
    /// tip 2 (keyed), whose records `records` gives.
    static func pack(rules: [[UInt32]]) -> RulePack {
        RulePack(strings: ["pro", "free"], displayFrequencyMilliseconds: 0,
                 parameters: [PackParameter(name: "flag", type: .bool, defaultValue: .bool(true)),
                              PackParameter(name: "number", type: .int, defaultValue: .int(2)),
                              PackParameter(name: "ratio", type: .double, defaultValue: .double(1.5)),
                              PackParameter(name: "plan", type: .string, defaultValue: .string("pro"))],
                 events: [PackEvent(name: "opened"),
                          PackEvent(name: "viewed", fields: [PackField(name: "item", type: .int), PackField(name: "category", type: .string)])],
                 tips: [PackTip(name: "t", title: "T", rules: rules.map { RuleProgram(code: $0) }, key: PackTipKey(name: "id", type: .int)),
                        PackTip(name: "other", title: "O"),
                        PackTip(name: "keyed", title: "K", key: PackTipKey(name: "id", type: .int))],
                 groups: [])
    }

    static func store(_ pack: RulePack) throws -> InMemoryDonationStore {
        var store = InMemoryDonationStore(events: pack.events)
        for age in [10 * day, 2 * hour, hour] { try store.donate(event: 0, at: now - age, payload: []) }
        for (age, item, category) in [(3 * hour, 2, "pro"), (2 * hour, 1, "free"), (hour, 1, "pro")] {
            try store.donate(event: 1, at: now - age, payload: [.int(Int64(item)), .string(category)])
        }
        return store
    }

    /// Tip 1 is invalidated, displayed an hour ago and invalidated two hours ago; instance 3 of
    /// tip 2 was displayed twice and is not invalidated.
    final class Records: TipRecordReader {
        func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns {
            switch (tip, key) {
            case (1, nil):
                return TipRecordColumns(invalidated: true, displays: DonationColumns(timestamps: [now - hour]),
                                        invalidations: DonationColumns(timestamps: [now - 2 * hour],
                                                                       fields: [PayloadColumn(type: .string, slots: [0], strings: ["tipClosed"])]))
            case (2, .int(3)?):
                return TipRecordColumns(invalidated: false, displays: DonationColumns(timestamps: [now - 2 * day, now - hour]))
            default:
                return TipRecordColumns()
            }
        }
    }

    /// A store the evaluator reads through its checked reader, never in place: the machine
    /// runs every rule over it, fused.
    struct ForwardingStore: DonationStore {
        var inner: InMemoryDonationStore
        var events: [PackEvent] { inner.events }
        func donations(ofEvent event: Int) -> DonationColumns { inner.donations(ofEvent: event) }
        mutating func donate(event: Int, at milliseconds: Int64, payload: [RuntimeValue]) throws(DonationError) {
            try inner.donate(event: event, at: milliseconds, payload: payload)
        }
    }

    /// A rule, as the compiler writes it (unfused), whose value is true and which runs `opcode`
    /// (a fused row: which `StraightLineRules.fuse` turns into it). Instance key 7.
    static func program(running opcode: Opcode) -> [UInt32] {
        func w(_ opcode: Opcode, _ a: UInt32 = 0) -> UInt32 { Instruction.word(opcode, a) }
        func k(_ value: Int64) -> [UInt32] { Instruction.immediate(value) }
        func d(_ value: Double) -> [UInt32] { Instruction.immediate(Int64(bitPattern: value.bitPattern)) }
        let (equal, notEqual, less, greaterOrEqual) = (ComparisonCode.equal.rawValue, ComparisonCode.notEqual.rawValue,
                                                        ComparisonCode.less.rawValue, ComparisonCode.greaterOrEqual.rawValue)
        let ret = w(.ret)
        /// `value == expected` for an Int on top of the stack, then RETURN.
        func isInt(_ expected: Int64) -> [UInt32] { [w(.compareIntImmediate, equal)] + k(expected) + [ret] }
        func isDouble(_ expected: Double) -> [UInt32] { [w(.compareDoubleImmediate, equal)] + d(expected) + [ret] }
        let itemIsOne = [w(.loadField, 0), w(.compareIntImmediate, equal)] + k(1) + [ret] // a field test, 5 words
        let categoryIsPro = [w(.loadField, 1), w(.compareStringImmediate, equal), 0, ret] // not a field test, 4 words
        switch opcode {
        case .ret, .pushBool: return [w(.pushBool, 1), ret]
        case .pushInt: return [w(.pushInt)] + k(2) + [w(.loadParameter, 1), w(.compareInt, equal), ret]
        case .pushDouble: return [w(.pushDouble)] + d(1.5) + isDouble(1.5)
        case .pushString: return [w(.pushString, 0), w(.compareStringImmediate, equal), 0, ret]
        case .pushDate: return [w(.pushDate)] + k(now - 1) + [w(.loadNow), w(.compareInt, less), ret]
        case .pushDuration: return [w(.pushDuration)] + k(5) + isInt(5)
        case .loadNow: return [w(.loadNow)] + isInt(now)
        case .loadParameter: return [w(.loadParameter, 0), ret]
        case .loadField: return [w(.event, 1), w(.filter, 4)] + categoryIsPro + [w(.distinct, 0)] + isInt(2)
        case .loadKey: return [w(.loadKey)] + isInt(7)
        case .not: return [w(.pushBool, 0), w(.not), ret]
        case .jumpIfFalse: return [w(.pushBool, 0), w(.jumpIfFalse, 1), w(.pushBool, 1), w(.not), ret]
        case .jumpIfTrue: return [w(.pushBool, 1), w(.jumpIfTrue, 1), w(.pushBool, 0), ret]
        case .compareInt: return [w(.loadParameter, 1), w(.pushInt)] + k(2) + [w(.compareInt, equal), ret]
        case .compareDouble: return [w(.loadParameter, 2), w(.pushDouble)] + d(1.5) + [w(.compareDouble, equal), ret]
        case .compareString: return [w(.loadParameter, 3), w(.pushString, 0), w(.compareString, equal), ret]
        case .compareBool: return [w(.loadParameter, 0), w(.pushBool, 1), w(.compareBool, equal), ret]
        case .compareIntImmediate: return [w(.loadParameter, 1), w(.compareIntImmediate, greaterOrEqual)] + k(2) + [ret]
        case .compareDoubleImmediate: return [w(.loadParameter, 2), w(.compareDoubleImmediate, less)] + d(2) + [ret]
        case .compareStringImmediate: return [w(.loadParameter, 3), w(.compareStringImmediate, notEqual), 1, ret]
        case .inInts: return [w(.loadParameter, 1), w(.inInts, 2)] + k(1) + k(2) + [ret]
        case .inDoubles: return [w(.loadParameter, 2), w(.inDoubles, 1)] + d(1.5) + [ret]
        case .inStrings: return [w(.loadParameter, 3), w(.inStrings, 2), 1, 0, ret]
        case .inBools: return [w(.loadParameter, 0), w(.inBools, 2), ret]
        case .add: return [w(.loadParameter, 1), w(.pushInt)] + k(3) + [w(.add)] + isInt(5)
        case .subtract: return [w(.loadParameter, 1), w(.pushInt)] + k(3) + [w(.subtract)] + isInt(-1)
        case .multiply: return [w(.loadParameter, 1), w(.pushInt)] + k(3) + [w(.multiply)] + isInt(6)
        case .divide: return [w(.pushInt)] + k(7) + [w(.loadParameter, 1), w(.divide)] + isInt(3)
        case .remainder: return [w(.pushInt)] + k(7) + [w(.loadParameter, 1), w(.remainder)] + isInt(1)
        case .negate: return [w(.loadParameter, 1), w(.negate)] + isInt(-2)
        case .addDouble: return [w(.loadParameter, 2), w(.pushDouble)] + d(1.5) + [w(.addDouble)] + isDouble(3)
        case .subtractDouble: return [w(.loadParameter, 2), w(.pushDouble)] + d(0.5) + [w(.subtractDouble)] + isDouble(1)
        case .multiplyDouble: return [w(.loadParameter, 2), w(.pushDouble)] + d(1.5) + [w(.multiplyDouble)] + isDouble(2.25)
        case .divideDouble: return [w(.loadParameter, 2), w(.pushDouble)] + d(0.5) + [w(.divideDouble)] + isDouble(3)
        case .remainderDouble: return [w(.loadParameter, 2), w(.pushDouble)] + d(1) + [w(.remainderDouble)] + isDouble(0.5)
        case .negateDouble: return [w(.loadParameter, 2), w(.negateDouble)] + isDouble(-1.5)
        case .intToDouble: return [w(.loadParameter, 1), w(.intToDouble)] + isDouble(2)
        case .event, .count: return [w(.event, 0), w(.count)] + isInt(3)
        case .within: return [w(.event, 0), w(.within)] + k(day) + [w(.count)] + isInt(2)
        // A WHERE whose block DISTINCT follows (COUNT would fuse it).
        case .filter: return [w(.event, 1), w(.filter, 5)] + itemIsOne + [w(.distinct, 1)] + isInt(2)
        case .largestSubset: return [w(.event, 1), w(.largestSubset, 1), w(.count)] + isInt(2)
        case .smallestSubset: return [w(.event, 1), w(.smallestSubset, 1), w(.count)] + isInt(1)
        case .distinct: return [w(.event, 1), w(.distinct, 0)] + isInt(2)
        case .countEvent: return [w(.countEvent, 0)] + isInt(3)
        // COUNT_EVENT_WITHIN that CMP_INT_K does not directly follow (it would fuse).
        case .countEventWithin: return [w(.countEventWithin, 0)] + k(day) + [w(.pushInt)] + k(2) + [w(.compareInt, equal), ret]
        case .tipInvalidated: return [w(.tipInvalidated, 1), ret]
        // TIP_DISPLAYS that a WHERE follows (COUNT would fuse it).
        case .tipDisplays: return [w(.tipDisplays, 1), w(.filter, 2), w(.pushBool, 1), ret, w(.count)] + isInt(1)
        case .tipInvalidations: return [w(.tipInvalidations, 1), w(.distinct, 0)] + isInt(1)
        case .tipInvalidatedKeyed: return [w(.pushInt)] + k(3) + [w(.tipInvalidatedKeyed, 2), w(.not), ret]
        case .tipDisplaysKeyed: return [w(.pushInt)] + k(3) + [w(.tipDisplaysKeyed, 2), w(.within)] + k(day) + [w(.count)] + isInt(1)
        case .tipInvalidationsKeyed: return [w(.pushInt)] + k(3) + [w(.tipInvalidationsKeyed, 2), w(.count)] + isInt(0)
        case .countEventWithinCompareImmediate: return [w(.countEventWithin, 0)] + k(day) + isInt(2)
        case .jumpIfParameterFalse: return [w(.loadParameter, 0), w(.jumpIfFalse, 1), w(.pushBool, 1), ret]
        // A field test over a list (a subset), and a predicate that is not one.
        case .filterThenCount:
            return [w(.event, 1), w(.largestSubset, 1), w(.filter, 5)] + itemIsOne + [w(.count), w(.event, 1), w(.filter, 4)]
                + categoryIsPro + [w(.count), w(.compareInt, equal), w(.not), ret]
        case .countTipDisplays: return [w(.tipDisplays, 1), w(.count)] + isInt(1)
        case .countTipInvalidations: return [w(.tipInvalidations, 1), w(.within)] + k(day) + [w(.count)] + isInt(1)
        case .countEventWhere: return [w(.event, 1), w(.within)] + k(day) + [w(.filter, 5)] + itemIsOne + [w(.count)] + isInt(2)
        }
    }

    @Test func everyRowOfTheTableRunsItsCaseInEveryModeOfTheLoop() throws {
        let rows = Opcode.allCases
        let pack = Self.pack(rules: rows.map(Self.program(running:)))
        let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
        let store = try Self.store(pack)
        let parameters = ParameterValues(pack: pack)
        let instance = RuleInstance(key: .int(7), records: Records())
        for (index, opcode) in rows.enumerated() {
            let mnemonic = opcode.info.mnemonic
            let code = pack.tips[0].rules[index].code
            var fused = code
            StraightLineRules.fuse(&fused)
            #expect(fused.contains { Instruction.word($0, is: opcode) }, "\(mnemonic): its program does not run it")
            if let base = opcode.info.fusedFrom {
                // Made from its base's word, in place; never accepted from a pack.
                let at = try #require(fused.firstIndex { Instruction.word($0, is: opcode) })
                #expect(Instruction.word(code[at], is: base) && code[at] >> 8 == fused[at] >> 8, "\(mnemonic)")
                #expect(throws: RulePackError.self, "\(mnemonic) verified") {
                    try BytecodeVerifier.verify(fused, context: BytecodeContext(pack: pack, tip: 0))
                }
            }
            #expect(Disassembler(pack: pack).lines(fused).contains { $0.split(separator: " ").contains(Substring(mnemonic)) },
                    "\(mnemonic) not disassembled")
            let onTheFastPathOrMachine = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: store, now: Self.now, instance: instance)
            let onTheMachine = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: ForwardingStore(inner: store),
                                                      now: Self.now, instance: instance)
            let traced = evaluator.trace(tip: 0, rule: index, parameters: parameters, store: store, now: Self.now, instance: instance).outcome
            #expect(onTheFastPathOrMachine == .value(true), "\(mnemonic)")
            #expect(onTheMachine == .value(true), "\(mnemonic) on the machine")
            #expect(traced == .value(true), "\(mnemonic) traced")
        }
    }

    /// The fast path takes the programs of the straight-line rows whose every instruction is
    /// straight-line, and the loop's fast mode gives their value.
    @Test func theFastPathTakesTheStraightLineRowsPrograms() throws {
        let straightLine = Opcode.allCases.filter { opcode in
            var fused = Self.program(running: opcode)
            StraightLineRules.fuse(&fused)
            return StraightLineRules.accepts(fused, valueDepth: 4)
        }
        #expect(Set(straightLine) == [.ret, .pushBool, .pushInt, .pushDate, .pushDuration, .loadNow, .loadParameter, .not,
                                      .jumpIfFalse, .jumpIfTrue, .compareInt, .compareBool, .compareIntImmediate, .countEvent,
                                      .countEventWithin, .tipInvalidated, .countEventWithinCompareImmediate, .jumpIfParameterFalse,
                                      .countTipDisplays, .countTipInvalidations, .countEventWhere])
    }
}
