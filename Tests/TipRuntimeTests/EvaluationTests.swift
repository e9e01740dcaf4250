import Testing
import TipRuntime
import TipcCompiler

/// The VM's outcomes, failures, traces and the in-memory store.
@Suite struct EvaluationTests {
    static let now: Int64 = 1_750_000_000_000

    static func evaluator(_ rules: [CheckedExpression]) throws -> RuleEvaluator {
        var program = ExampleProgram.program
        program.tips = [CheckedTip(name: "t", title: "T", rules: rules, range: E.at(1))]
        program.groups = []
        var diagnostics: [Diagnostic] = []
        let pack = try #require(RulePackCompiler.compile(program, diagnostics: &diagnostics))
        return RuleEvaluator(pack: try RulePackVerifier.verify(pack))
    }

    @Test func runTimeFailuresMakeTheRuleFalseAndSayWhy() throws {
        let overflow = E.compare(.greater, E.arithmetic(.multiply, E.parameter(1, .int), E.int(Int.max), .int), E.int(0))
        let division = E.compare(.greater, E.arithmetic(.divide, E.int(1), E.arithmetic(.subtract, E.parameter(1, .int), E.int(2), .int), .int), E.int(0))
        let evaluator = try Self.evaluator([E.bool(true), overflow, division])
        let pack = evaluator.pack.pack
        let store = InMemoryDonationStore(events: pack.events)
        let parameters = ParameterValues(pack: pack)  // maskCount = 2
        let result = evaluator.evaluateTip(0, parameters: parameters, store: store, now: Self.now, allRules: true)
        #expect(!result.isSatisfied)
        #expect(result.rules[0] == .value(true))
        guard case .failed(.integerOverflow, let pc) = result.rules[1] else { Issue.record("\(result.rules[1])"); return }
        #expect(Opcode(rawValue: UInt8(pack.tips[0].rules[1].code[pc] & 0xFF)) == .multiply)
        guard case .failed(.divisionByZero, _) = result.rules[2] else { Issue.record("\(result.rules[2])"); return }
        #expect(result.firstUnsatisfiedRule?.index == 1)
        // Without allRules, evaluation stops at the first rule that does not hold.
        #expect(evaluator.evaluateTip(0, parameters: parameters, store: store, now: Self.now).rules.count == 2)
    }

    @Test func windowsIncludeTheirEndAndExcludeTheirStart() throws {
        let evaluator = try Self.evaluator([E.compare(.equal, E.count(E.within(E.event(0), 1000)), E.int(2))])
        var store = InMemoryDonationStore(events: evaluator.pack.pack.events)
        for offset: Int64 in [-1000, -999, 0, 1] { try store.donate(event: 0, at: Self.now + offset, payload: []) }
        let outcome = evaluator.evaluateRule(tip: 0, rule: 0, parameters: ParameterValues(pack: evaluator.pack.pack), store: store, now: Self.now)
        #expect(outcome == .value(true))  // -999 and 0
    }

    @Test func traceRecordsEveryComputedValue() throws {
        let rule = E.and(E.parameter(0, .bool), E.compare(.greaterOrEqual, E.count(E.filter(E.event(1), E.compare(.equal, E.field(1, .string), E.string("shoes")))), E.int(3)))
        let evaluator = try Self.evaluator([rule])
        let pack = evaluator.pack.pack
        let store = ExampleProgram.store(for: pack, now: Self.now)
        let (outcome, trace) = evaluator.trace(tip: 0, rule: 0, parameters: ParameterValues(pack: pack), store: store, now: Self.now)
        #expect(outcome == .value(true))
        #expect(trace.first?.value == .value(.bool(true)))
        #expect(trace.contains { $0.value == .value(.string("shoes")) && $0.donation != nil })
        #expect(trace.contains { $0.value == .collection(count: 20) })
        #expect(trace.last?.value == .value(.bool(true)))
        // Every traced pc has a source-map entry.
        let mapped = Set(pack.tips[0].rules[0].sourceMap.map { Int($0.pc) })
        #expect(trace.allSatisfy { mapped.contains($0.pc) })
    }

    @Test func storeValidatesPayloadsAndTrims() throws {
        let events = [PackEvent(name: "viewed", fields: [PackField(name: "id", type: .int), PackField(name: "kind", type: .string)],
                                maximumCount: 3, maximumAgeMilliseconds: 10_000)]
        var store = InMemoryDonationStore(events: events)
        #expect(throws: DonationError.wrongFieldCount(event: "viewed", expected: 2, actual: 1)) {
            try store.donate(event: 0, at: 0, payload: [.int(1)])
        }
        #expect(throws: DonationError.wrongFieldType(event: "viewed", field: "kind", expected: .string, actual: .int)) {
            try store.donate(event: 0, at: 0, payload: [.int(1), .int(2)])
        }
        #expect(throws: DonationError.unknownField(event: "viewed", field: "nope")) {
            try store.donate(eventNamed: "viewed", at: 0, payload: ["id": .int(1), "kind": .string("a"), "nope": .int(0)])
        }
        #expect(store.donationCount == 0)
        for time: Int64 in [5, 1, 3, 2] {
            try store.donate(eventNamed: "viewed", at: time * 1000, payload: ["id": .int(time), "kind": .string(time % 2 == 0 ? "even" : "odd")])
        }
        // Sorted by time; the oldest beyond 3 trimmed.
        #expect(store.donations(ofEvent: 0).timestamps == [2000, 3000, 5000])
        #expect(store.donations(ofEvent: 0).fields[0].slots == [2, 3, 5])
        #expect(store.donations(ofEvent: 0).fields[1].value(at: 0) == .string("even"))
        // A donation applies the count alone; the age is measured from the current instant.
        try store.donate(event: 0, at: 14_000, payload: [.int(14), .string("even")])
        #expect(store.donations(ofEvent: 0).timestamps == [3000, 5000, 14_000])
        store.trim(event: 0, now: 14_000)
        #expect(store.donations(ofEvent: 0).timestamps == [5000, 14_000], "older than 10 s before now: trimmed")
        #expect(store.donations(ofEvent: 0).fields[0].slots == [5, 14])
        // One donation dated far in the future (a device with a wrong clock) trims nothing.
        try store.donate(event: 0, at: 1_000_000, payload: [.int(99), .string("odd")])
        store.trim(event: 0, now: 14_500)
        #expect(store.donations(ofEvent: 0).timestamps == [5000, 14_000, 1_000_000])
    }
}
