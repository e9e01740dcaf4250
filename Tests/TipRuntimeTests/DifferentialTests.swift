import Testing
import TipRuntime
import TipcCompiler

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
