import Testing
@testable import TipRuntime
import TipcCompiler
import TipcTestSupport

/// Rules of parameters, clock, window counts and comparisons take the evaluator's fast path,
/// with `COUNT_EVENT_WITHIN` + `CMP_INT_K` and `LOAD_PARAM` + `JUMP_IF_FALSE` fused: checked against the reference evaluator and
/// against the machine (through tracing, which runs the unfused steps).
@Suite struct StraightLineRuleTests {
    func compile(_ rules: [CheckedExpression]) throws -> RulePack {
        var diagnostics: [Diagnostic] = []
        let pack = try #require(RulePackCompiler.compile(RandomSchema.program(rules: rules), diagnostics: &diagnostics))
        return pack
    }

    func countWithin(_ window: Int, _ comparison: ComparisonOperator, _ threshold: Int) -> CheckedExpression {
        E.compare(comparison, E.count(E.within(E.event(0), window)), E.int(threshold))
    }

    @Test func fusingRewritesOnlyTheOpcodesOfFusablePairs() throws {
        let pack = try compile([E.and(E.parameter(0, .bool), countWithin(3 * day, .greaterOrEqual, 3)),
                                E.compare(.greaterOrEqual, E.arithmetic(.add, E.count(E.within(E.event(0), day)), E.int(1), .int), E.int(2))])
        let fusable = pack.tips[0].rules[0].code
        var fused = fusable
        StraightLineRules.fuse(&fused)
        let changed = fused.indices.filter { fused[$0] != fusable[$0] }
        #expect(changed.map { UInt8(truncatingIfNeeded: fusable[$0]) } == [Opcode.loadParameter.rawValue, Opcode.countEventWithin.rawValue])
        #expect(changed.map { UInt8(truncatingIfNeeded: fused[$0]) }
                == [Opcode.jumpIfParameterFalse.rawValue, Opcode.countEventWithinCompareImmediate.rawValue])
        #expect(changed.allSatisfy { fused[$0] >> 8 == fusable[$0] >> 8 })
        // The count is added to before it is compared: nothing to fuse.
        var unchanged = pack.tips[0].rules[1].code
        StraightLineRules.fuse(&unchanged)
        #expect(unchanged == pack.tips[0].rules[1].code)
    }

    @Test func onlyRulesWithoutCollectionsStringsOrFailuresAreStraightLine() throws {
        let pack = try compile([E.and(E.parameter(0, .bool), countWithin(3 * day, .greaterOrEqual, 3)),
                                E.compare(.greaterOrEqual, E.count(E.largest(E.event(1), 0)), E.int(2)),
                                E.compare(.equal, E.parameter(3, .string), E.string("pro")),
                                E.compare(.less, E.arithmetic(.add, E.parameter(1, .int), E.int(1), .int), E.int(5))])
        let accepted = pack.tips[0].rules.map { StraightLineRules.accepts($0.code, valueDepth: 4) }
        #expect(accepted == [true, false, false, false])
        #expect(!StraightLineRules.accepts(pack.tips[0].rules[0].code, valueDepth: StraightLineRules.maximumValueDepth + 1))
    }

    @Test func straightLineRulesAgreeWithReferenceAndTrace() throws {
        var generator = RuleGenerator(random: SeededGenerator(seed: 0x57_4A16))
        let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        for round in 0..<60 {
            var rules: [CheckedExpression] = [], countsFirst: [Bool] = []
            for _ in 0..<4 {
                let count = countWithin(generator.pick(RandomSchema.windows), generator.pick(comparisons), generator.pick([0, 1, 3, 25, -1]))
                let kind = generator.random.next() % 4
                countsFirst.append(kind != 1)
                switch kind {
                case 0: rules.append(count)
                case 1: rules.append(E.and(E.parameter(0, .bool), count))
                case 2: rules.append(E.or(E.not(count), E.compare(.greater, E.parameter(1, .int), E.int(2))))
                default: rules.append(E.compare(.less, E.count(E.event(0)), E.count(E.within(E.event(0), day))))
                }
            }
            let pack = try compile(rules)
            let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
            let now = baseNow + generator.pick([0, 1, -1, day])
            let store = generator.store(for: pack, now: now, maximumPerEvent: 40)
            let parameters = generator.parameters(for: pack)
            let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now))
            let tip = evaluator.evaluateTip(0, parameters: parameters, store: store, now: Int64(now), allRules: true)
            for (index, rule) in rules.enumerated() {
                let expected = try reference.evaluateRule(rule).get()
                let outcome = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now))
                #expect(outcome == .value(expected), "round \(round) rule \(index)")
                #expect(tip.rules[index] == outcome)
                let (traced, trace) = evaluator.trace(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now))
                #expect(traced == outcome)
                // The count is traced as its own value, as before fusing.
                if countsFirst[index] {
                    #expect(trace.contains { if case .value(.int) = $0.value { true } else { false } })
                }
            }
            #expect(evaluator.satisfiedTips(parameters: parameters, store: store, now: Int64(now)) == [tip.isSatisfied])
        }
    }

    /// `WHERE` whose block `COUNT` directly follows is fused (`WHERE_COUNT`); a `field cmp value`
    /// predicate then counts in one loop without listing the donations, on a range and on a
    /// list (after a `where` or a subset), for every comparison: checked against the reference
    /// and against the trace (which runs the unfused `WHERE`, then `COUNT`).
    @Test func whereThenCountAgreesWithReferenceAndTrace() throws {
        let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        var rules: [CheckedExpression] = []
        for comparison in comparisons {
            // viewed.where(item cmp 3).count >= 2, then over a list and with a parameter.
            let test = E.compare(comparison, E.field(0, .int), E.int(3))
            rules.append(E.compare(.greaterOrEqual, E.count(E.filter(E.event(1), test)), E.int(2)))
            rules.append(E.compare(.greaterOrEqual, E.count(E.filter(E.filter(E.event(1), E.field(3, .bool)), test)), E.int(1)))
            rules.append(E.compare(.less, E.count(E.filter(E.within(E.largest(E.event(1), 1), 3 * day),
                                                           E.compare(comparison, E.field(0, .int), E.parameter(1, .int)))), E.int(4)))
        }
        // Not a `field cmp value` predicate: counted after a listing WHERE.
        rules.append(E.compare(.greater, E.count(E.filter(E.event(1), E.compare(.equal, E.field(1, .string), E.string("a")))), E.int(0)))
        let pack = try compile(rules)
        var fused = pack.tips[0].rules[0].code
        StraightLineRules.fuse(&fused)
        #expect(fused.contains { UInt8(truncatingIfNeeded: $0) == Opcode.filterThenCount.rawValue })
        let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
        var generator = RuleGenerator(random: SeededGenerator(seed: 0xC0_047E))
        for round in 0..<30 {
            let now = baseNow + generator.pick([0, day, 5 * day])
            let store = generator.store(for: pack, now: now, maximumPerEvent: 40)
            let parameters = generator.parameters(for: pack)
            let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now))
            for (index, rule) in rules.enumerated() {
                let expected = try reference.evaluateRule(rule).get()
                let outcome = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now))
                #expect(outcome == .value(expected), "round \(round) rule \(index)")
                #expect(evaluator.trace(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now)).outcome == outcome)
            }
        }
    }

    /// The fast path walks a fused count as one instruction, so a jump into the middle of one
    /// (which verified code cannot make: `WITHIN` and `COUNT` need a collection where a jump
    /// leaves a Bool) keeps the rule off it; a jump to its start does not.
    @Test func aJumpIntoAFusedCountKeepsTheRuleOffTheFastPath() {
        func code(jumpingOver skipped: UInt32) -> [UInt32] {
            [UInt32(Opcode.pushBool.rawValue) | 1 << 8,
             UInt32(Opcode.jumpIfFalse.rawValue) | skipped << 8,
             UInt32(Opcode.countTipInvalidations.rawValue) | 1 << 8,
             UInt32(Opcode.within.rawValue), UInt32(day), 0,
             UInt32(Opcode.count.rawValue),
             UInt32(Opcode.compareIntImmediate.rawValue), 0, 0,
             UInt32(Opcode.ret.rawValue)]
        }
        #expect(StraightLineRules.accepts(code(jumpingOver: 0), valueDepth: 2))
        #expect(!StraightLineRules.accepts(code(jumpingOver: 1), valueDepth: 2))
        #expect(!StraightLineRules.accepts(code(jumpingOver: 4), valueDepth: 2))
        #expect(StraightLineRules.accepts(code(jumpingOver: 5), valueDepth: 2))
    }

    /// `tip(X).displays` / `.invalidations` counted at once (whole or in a window) are fused
    /// (`TIP_DISPLAYS_COUNT`, `TIP_INVALIDATIONS_COUNT`), and with `TIP_INVALIDATED` take the
    /// fast path: checked against the reference, against `evaluateTip`, and against the trace
    /// (which runs the unfused `TIP_*`, `WITHIN`, `COUNT` and records the collection), over the
    /// engine's record table (which counts its dates in place) and over a reader that only has
    /// `records(ofTip:key:)` (the protocol's default lending).
    @Test func tipCountsAgreeWithReferenceEvaluateTipAndTrace() throws {
        func tip(_ member: TipStateQuery.Member, _ type: ExpressionType) -> CheckedExpression {
            E.node(.tipState(TipStateQuery(tip: 1, member: member)), type)
        }
        let eventCount = RandomSchema.events.count
        let displays = tip(.displays, .collection(event: eventCount))
        let invalidations = tip(.invalidations, .collection(event: eventCount + 1))
        let invalidated = tip(.invalidated, .value(.bool))
        var generator = RuleGenerator(random: SeededGenerator(seed: 0x71_9C07))
        let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        var rules: [CheckedExpression] = [
            // The welcome rule of the benchmark, and counts whole.
            E.and(invalidated, E.compare(.equal, E.count(E.within(invalidations, day)), E.int(0))),
            E.compare(.greaterOrEqual, E.count(displays), E.int(2)),
            E.or(E.not(invalidated), E.compare(.less, E.count(invalidations), E.count(E.within(displays, 3 * day)))),
            // Fused counts inside rules the machine runs: arithmetic, and beside a listing `where`.
            E.compare(.greater, E.arithmetic(.add, E.count(E.within(displays, day)), E.int(1), .int), E.int(2)),
            E.compare(.equal, E.count(E.filter(E.within(invalidations, 30 * day), E.compare(.equal, E.field(0, .string), E.string("tipClosed")))),
                      E.count(E.within(invalidations, 30 * day))),
        ]
        for window in RandomSchema.windows {
            rules.append(E.compare(generator.pick(comparisons), E.count(E.within(generator.chance(50) ? displays : invalidations, window)),
                                   E.int(generator.pick([0, 1, 2, 3]))))
        }
        var diagnostics: [Diagnostic] = []
        let pack = try #require(RulePackCompiler.compile(RandomSchema.format2Program(rules: rules), diagnostics: &diagnostics))
        var fusedOpcodes: Set<UInt8> = []
        for rule in pack.tips[0].rules {
            var fused = rule.code
            StraightLineRules.fuse(&fused)
            fusedOpcodes.formUnion(fused.map { UInt8(truncatingIfNeeded: $0) })
            // Only opcode bytes change: of `TIP_DISPLAYS` and `TIP_INVALIDATIONS` (and of `WHERE`, fused with its `COUNT`).
            let fusable: [Opcode?] = [.tipDisplays, .tipInvalidations, .filter]
            #expect(fused.indices.allSatisfy { fused[$0] == rule.code[$0]
                || (fused[$0] >> 8 == rule.code[$0] >> 8 && fusable.contains(Opcode(rawValue: UInt8(truncatingIfNeeded: rule.code[$0])))) })
        }
        #expect(fusedOpcodes.isSuperset(of: [Opcode.countTipDisplays.rawValue, Opcode.countTipInvalidations.rawValue]))
        let accepted = pack.tips[0].rules.map { rule -> Bool in
            var fused = rule.code
            StraightLineRules.fuse(&fused)
            return StraightLineRules.accepts(fused, valueDepth: 4)
        }
        #expect(Array(accepted.prefix(5)) == [true, true, true, false, false])
        #expect(accepted.dropFirst(5).allSatisfy { $0 })

        let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
        let reasons: [InvalidationReason] = [.tipClosed, .actionPerformed, .displayCountExceeded]
        var sawBoth = (held: false, failed: false)
        for round in 0..<80 {
            let now = baseNow + generator.pick([0, day, 5 * day])
            var records: [TipEventRecord] = []
            for index in 0..<Int(generator.random.next() % 12) {
                let date = Int64(now + generator.pick([0, 1, -1, -day, -day + 1, -3 * day, -20 * day, day]))
                let kind: TipEventRecord.Kind = generator.chance(50) ? .display(count: 1, milliseconds: 1000)
                    : generator.chance(85) ? .invalidation(generator.pick(reasons)) : .reset
                records.append(TipEventRecord(id: "r\(index)", tip: "other", stamp: Stamp(milliseconds: date, device: "d"), kind: kind))
            }
            let history = TipHistory(records: records)
            let table = TipRecordTable(pack: pack, tipIndex: ["t": 0, "other": 1, "keyed": 2], stored: [TipInstance(tip: "other"): history])
            let reasonColumn = history.invalidationColumns.fields[0]
            let state = ReferenceEvaluator.TipState(
                invalidated: table.isInvalidated(tip: 1, key: nil), displays: history.displayColumns.timestamps,
                invalidations: zip(history.invalidationColumns.timestamps, reasonColumn.slots).map { ($0, reasonColumn.strings[Int($1)]) })
            let copying = CopyingTipRecords(TipRecordColumns(invalidated: state.invalidated, displays: history.displayColumns,
                                                             invalidations: history.invalidationColumns))
            let store = generator.store(for: pack, now: now, maximumPerEvent: 10)
            let parameters = generator.parameters(for: pack)
            let key = TipKey.int(1)
            let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now), key: key,
                                               tipStates: [ReferenceEvaluator.TipSlot(tip: 1): state])
            for reader in [table, copying] as [any TipRecordReader] {
                let instance = RuleInstance(key: key, records: reader)
                let tipEvaluation = evaluator.evaluateTip(0, parameters: parameters, store: store, now: Int64(now), allRules: true, instance: instance)
                for (index, rule) in rules.enumerated() {
                    let expected = try reference.evaluateRule(rule).get()
                    if expected { sawBoth.held = true } else { sawBoth.failed = true }
                    let outcome = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now), instance: instance)
                    #expect(outcome == .value(expected), "round \(round) rule \(index)")
                    #expect(tipEvaluation.rules[index] == outcome)
                    let (traced, trace) = evaluator.trace(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now), instance: instance)
                    #expect(traced == outcome)
                    // The tip's records are traced as a collection, as before fusing.
                    if index > 2 || index == 1 || state.invalidated {
                        #expect(trace.contains { switch $0.value { case .displays, .invalidations: true; default: false } })
                    }
                }
            }
        }
        #expect(sawBoth.held && sawBoth.failed)
    }

    /// `EVENT`, optionally `WITHIN`, then a `WHERE` by a field test whose `COUNT` directly
    /// follows are fused (`COUNT_EVENT_WHERE`) and take the fast path: checked against the
    /// reference, `evaluateTip` and the trace (which runs them unfused), for every comparison,
    /// by a constant, a parameter and the instance's key. Over an in-memory store made for
    /// another pack (same events, other field types) the rule fails as the trace does, at the
    /// `WHERE`.
    @Test func countedFieldTestsAgreeWithReferenceEvaluateTipAndTrace() throws {
        let comparisons: [ComparisonOperator] = [.equal, .notEqual, .less, .lessOrEqual, .greater, .greaterOrEqual]
        let operands = [E.int(3), E.parameter(1, .int), E.node(.instanceKey, .value(.int))]
        var generator = RuleGenerator(random: SeededGenerator(seed: 0xC0_0E7))
        var rules: [CheckedExpression] = []
        for comparison in comparisons {
            for operand in operands {
                let viewed = generator.chance(30) ? E.event(1) : E.within(E.event(1), generator.pick(RandomSchema.windows))
                let matching = E.count(E.filter(viewed, E.compare(comparison, E.field(0, .int), operand)))
                rules.append(E.compare(generator.pick(comparisons), matching, E.int(generator.pick([0, 1, 2, 3, 5]))))
            }
        }
        // A Date field against a parameter, and the count beside another in one rule.
        rules.append(E.compare(.less, E.count(E.filter(E.within(E.event(1), 3 * day), E.compare(.greater, E.field(4, .date), E.parameter(4, .date)))),
                               E.count(E.within(E.event(1), day))))
        var diagnostics: [Diagnostic] = []
        let pack = try #require(RulePackCompiler.compile(RandomSchema.format2Program(rules: rules), diagnostics: &diagnostics))
        for rule in pack.tips[0].rules {
            var fused = rule.code
            StraightLineRules.fuse(&fused)
            #expect(fused.contains { UInt8(truncatingIfNeeded: $0) == Opcode.countEventWhere.rawValue })
            #expect(StraightLineRules.accepts(fused, valueDepth: 4))
        }
        let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
        var outcomes: Set<Bool> = []
        for round in 0..<40 {
            let now = baseNow + generator.pick([0, day, 5 * day])
            let store = generator.store(for: pack, now: now, maximumPerEvent: 40)
            let parameters = generator.parameters(for: pack)
            let key = TipKey.int(Int64(generator.pick([0, 1, 2, 3, -1])))
            let instance = RuleInstance(key: key)
            let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now), key: key)
            let tip = evaluator.evaluateTip(0, parameters: parameters, store: store, now: Int64(now), allRules: true, instance: instance)
            for (index, rule) in rules.enumerated() {
                let expected = try reference.evaluateRule(rule).get()
                outcomes.insert(expected)
                let outcome = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now), instance: instance)
                #expect(outcome == .value(expected), "round \(round) rule \(index)")
                #expect(tip.rules[index] == outcome)
                #expect(evaluator.trace(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now), instance: instance).outcome == outcome)
            }
        }
        #expect(outcomes == [true, false])

        var other = InMemoryDonationStore(events: [PackEvent(name: "opened"),
                                                   PackEvent(name: "viewed", fields: [PackField(name: "item", type: .string)])])
        try other.donate(event: 1, at: Int64(baseNow - 1000), payload: [.string("a")])
        let parameters = generator.parameters(for: pack)
        for (index, rule) in pack.tips[0].rules.enumerated() {
            let filter = try #require(rule.code.firstIndex { UInt8(truncatingIfNeeded: $0) == Opcode.filter.rawValue })
            let outcome = evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: other, now: Int64(baseNow), instance: RuleInstance(key: .int(1)))
            #expect(outcome == .failed(.inconsistentStore, pc: filter), "rule \(index)")
            #expect(evaluator.trace(tip: 0, rule: index, parameters: parameters, store: other, now: Int64(baseNow), instance: RuleInstance(key: .int(1))).outcome == outcome)
        }
    }

    /// A store read through snapshots (not in place: here one made with another number of
    /// events) fails at the `EVENT`, whose timestamps do not fit, fused or not, traced or not.
    @Test func aFusedCountedWhereFailsWhereTheUnfusedSequenceFails() throws {
        let rule = E.compare(.greaterOrEqual, E.count(E.filter(E.event(1), E.compare(.equal, E.field(0, .int), E.int(3)))), E.int(1))
        var diagnostics: [Diagnostic] = []
        let pack = try #require(RulePackCompiler.compile(RandomSchema.format2Program(rules: [rule]), diagnostics: &diagnostics))
        let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
        var store = InMemoryDonationStore(events: ["a", "b", "c", "d", "e", "f"].map { PackEvent(name: $0) })
        try store.donate(event: 1, at: 1_000, payload: [])
        #expect(store.events.count != RandomSchema.events.count)
        var generator = RuleGenerator(random: SeededGenerator(seed: 7))
        let parameters = generator.parameters(for: pack)
        let instance = RuleInstance(key: .int(1))
        let outcome = evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: 2_000, instance: instance)
        let traced = evaluator.trace(tip: 0, rule: 0, parameters: parameters, store: store, now: 2_000, instance: instance).outcome
        let event = try #require(pack.tips[0].rules[0].code.firstIndex { UInt8(truncatingIfNeeded: $0) == Opcode.event.rawValue })
        #expect(traced == .failed(.inconsistentStore, pc: event))
        #expect(outcome == traced)
    }
}

/// A reader with only `records(ofTip:key:)`: every other read, `countDates` included, is the
/// protocol's default, which copies the columns.
private final class CopyingTipRecords: TipRecordReader {
    let columns: TipRecordColumns

    init(_ columns: TipRecordColumns) { self.columns = columns }

    func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns { tip == 1 && key == nil ? columns : TipRecordColumns() }
}
