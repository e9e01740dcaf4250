import Testing
import TipRuntime
import TipcCompiler
import TipcTestSupport

/// The VM against the reference tree-walker on random well-typed rules, stores and instants.
@Suite struct DifferentialTests {
    @Test func vmAgreesWithReferenceEvaluator() throws {
        var generator = RuleGenerator(random: SeededGenerator(seed: 0x71_9C_0DE))
        var compared = 0, failures = 0, folded = 0, mismatches: [String] = []
        var rulesTried = 0
        while compared < 10_500 {
            rulesTried += 1
            let rule = generator.expression(.bool, depth: 1 + Int(generator.random.next() % 5), event: nil)
            var diagnostics: [Diagnostic] = []
            guard let pack = RulePackCompiler.compile(RandomSchema.program(rules: [rule]), diagnostics: &diagnostics) else {
                #expect(diagnostics.allSatisfy { $0.code == .invalidValue })
                folded += 1
                continue
            }
            let verified = try RulePackVerifier.verify(pack)
            let evaluator = RuleEvaluator(pack: verified)
            for _ in 0..<3 {
                let now = baseNow + generator.pick([0, 1, -1, day, Int(generator.random.next() % UInt64(day))])
                let store = generator.store(for: pack, now: now)
                let parameters = generator.parameters(for: pack)
                let vm = evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: Int64(now))
                let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now)).evaluateRule(rule)
                compared += 1
                let agree: Bool
                switch (vm, reference) {
                case (.value(let a), .success(let b)): agree = a == b
                case (.failed(let a, _), .failure(let b)): agree = a == b; failures += 1
                default: agree = false
                }
                if !agree && mismatches.count < 5 {
                    mismatches.append("vm \(vm) reference \(reference)\n" + Disassembler(pack: pack).text(pack.tips[0].rules[0].code))
                }
                if compared % 97 == 0 {
                    let traced = evaluator.trace(tip: 0, rule: 0, parameters: parameters, store: store, now: Int64(now))
                    #expect(traced.outcome == vm)
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        // The generator must exercise run-time failures and mostly compile.
        #expect(failures > 100)
        #expect(folded * 5 < rulesTried)
    }
}

/// Random tips' records, as the VM reads them and as the reference evaluator does.
final class RandomTipRecords: TipRecordReader {
    var columns: [ReferenceEvaluator.TipSlot: TipRecordColumns] = [:]
    var states: [ReferenceEvaluator.TipSlot: ReferenceEvaluator.TipState] = [:]

    init(_ generator: inout RuleGenerator, now: Int) {
        let slots = [ReferenceEvaluator.TipSlot(tip: 1)] + (0..<4).flatMap { key in
            [ReferenceEvaluator.TipSlot(tip: 0, key: .int(Int64(key))), ReferenceEvaluator.TipSlot(tip: 2, key: .int(Int64(key)))]
        }
        for slot in slots where generator.chance(70) {
            func dates() -> [Int64] {
                (0..<Int(generator.random.next() % 5)).map { _ in
                    Int64(now + generator.pick([0, 1, -1, -day, -day + 1, -day - 1, -3 * day, day])) }.sorted()
            }
            let displays = dates()
            let invalidations = dates().map { ($0, generator.pick(InvalidationReason.allCases).rawValue) }
            let invalidated = generator.chance(50)
            states[slot] = ReferenceEvaluator.TipState(invalidated: invalidated, displays: displays,
                                                       invalidations: invalidations.map { (date: $0.0, reason: $0.1) })
            var reasons: [String] = []
            let codes = invalidations.map { entry -> Int64 in
                if let code = reasons.firstIndex(of: entry.1) { return Int64(code) }
                reasons.append(entry.1)
                return Int64(reasons.count - 1)
            }
            columns[slot] = TipRecordColumns(invalidated: invalidated, displays: DonationColumns(timestamps: displays),
                                             invalidations: DonationColumns(timestamps: invalidations.map(\.0),
                                                                            fields: [PayloadColumn(type: .string, slots: codes, strings: reasons)]))
        }
    }

    func records(ofTip tip: Int, key: TipKey?) -> TipRecordColumns {
        columns[ReferenceEvaluator.TipSlot(tip: tip, key: key)] ?? TipRecordColumns()
    }
}

extension DifferentialTests {
    /// Format 2: rules of a keyed tip that read `key` and other tips' records.
    @Test func vmAgreesWithReferenceEvaluatorOnFormat2Rules() throws {
        var generator = RuleGenerator(random: SeededGenerator(seed: 0x2F0_12A7))
        generator.format2 = true
        var compared = 0, readRecords = 0, mismatches: [String] = []
        while compared < 6_000 {
            let rule = generator.expression(.bool, depth: 1 + Int(generator.random.next() % 5), event: nil)
            var diagnostics: [Diagnostic] = []
            guard let pack = RulePackCompiler.compile(RandomSchema.format2Program(rules: [rule]), diagnostics: &diagnostics) else { continue }
            let verified = try RulePackVerifier.verify(pack)
            let evaluator = RuleEvaluator(pack: verified)
            if pack.tips[0].rules[0].code.contains(where: { Opcode(rawValue: UInt8(truncatingIfNeeded: $0))?.info.operand == .tip
                || Opcode(rawValue: UInt8(truncatingIfNeeded: $0))?.info.operand == .keyedTip }) { readRecords += 1 }
            for _ in 0..<3 {
                let now = baseNow + generator.pick([0, 1, -1, day, Int(generator.random.next() % UInt64(day))])
                let store = generator.store(for: pack, now: now)
                let parameters = generator.parameters(for: pack)
                let key = TipKey.int(Int64(generator.pick([0, 1, 2, 3])))
                let records = RandomTipRecords(&generator, now: now)
                let vm = evaluator.evaluateRule(tip: 0, rule: 0, parameters: parameters, store: store, now: Int64(now),
                                                instance: RuleInstance(key: key, records: records))
                let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now), key: key,
                                                   tipStates: records.states).evaluateRule(rule)
                compared += 1
                let agree: Bool
                switch (vm, reference) {
                case (.value(let a), .success(let b)): agree = a == b
                case (.failed(let a, _), .failure(let b)): agree = a == b
                default: agree = false
                }
                if !agree && mismatches.count < 5 {
                    mismatches.append("vm \(vm) reference \(reference)\n" + Disassembler(pack: pack).text(pack.tips[0].rules[0].code))
                }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
        #expect(readRecords > 300, "the generator must read tips' records")
    }
}
