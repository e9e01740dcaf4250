import Testing
import TipRuntime
import TipcCompiler
import TipcTestSupport

/// One machine serves all the rules of a call and keeps its member lists on the call stack
/// until they outgrow it: checked against the reference evaluator on tips of several rules and
/// stores large enough for lists to move to the heap.
@Suite struct MachineReuseTests {
    @Test func tipsOfSeveralRulesOnLargeStoresAgreeWithReference() throws {
        var generator = RuleGenerator(random: SeededGenerator(seed: 0x5CA7_C4))
        var compared = 0, mismatches: [String] = []
        while compared < 400 {
            let rules = (0..<3).map { _ in generator.expression(.bool, depth: 2 + Int(generator.random.next() % 4), event: nil) }
            var diagnostics: [Diagnostic] = []
            guard let pack = RulePackCompiler.compile(RandomSchema.program(rules: rules), diagnostics: &diagnostics) else { continue }
            let evaluator = RuleEvaluator(pack: try RulePackVerifier.verify(pack))
            let now = baseNow + generator.pick([0, 1, -1, day])
            let store = generator.store(for: pack, now: now, maximumPerEvent: 400)
            let parameters = generator.parameters(for: pack)
            let reference = ReferenceEvaluator(parameters: parameters.values, store: store, now: Int64(now))
            let expected = rules.map { reference.evaluateRule($0) }

            let tip = evaluator.evaluateTip(0, parameters: parameters, store: store, now: Int64(now), allRules: true)
            for (index, (vm, wanted)) in zip(tip.rules, expected).enumerated() {
                let agree: Bool
                switch (vm, wanted) {
                case (.value(let a), .success(let b)): agree = a == b
                case (.failed(let a, _), .failure(let b)): agree = a == b
                default: agree = false
                }
                if !agree && mismatches.count < 5 {
                    mismatches.append("rule \(index): vm \(vm) reference \(wanted)\n" + Disassembler(pack: pack).text(pack.tips[0].rules[index].code))
                }
                #expect(evaluator.evaluateRule(tip: 0, rule: index, parameters: parameters, store: store, now: Int64(now)) == vm)
            }
            #expect(evaluator.satisfiedTips(parameters: parameters, store: store, now: Int64(now)) == [tip.isSatisfied])
            #expect(evaluator.evaluateAllTips(parameters: parameters, store: store, now: Int64(now)).map(\.isSatisfied) == [tip.isSatisfied])
            compared += 1
        }
        #expect(mismatches.isEmpty, "\(mismatches.joined(separator: "\n\n"))")
    }
}
