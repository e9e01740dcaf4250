/// Evaluates the rules of a verified pack against parameter values, a donation store and an
/// instant. Evaluation never traps on the pack's behalf: a rule whose arithmetic overflows or
/// divides by zero is false, and the outcome says where and why.
///
/// The parameter values and the store must be made for this pack (`ParameterValues(pack:)`,
/// a store over `pack.events`); anything else is a programming error.
public struct RuleEvaluator: Sendable {
    public let pack: VerifiedRulePack
    private let eventFieldTypes: [[ValueType]]

    public init(pack: VerifiedRulePack) {
        self.pack = pack
        eventFieldTypes = pack.pack.events.map { $0.fields.map(\.type) }
    }

    private func checkInputs(_ parameters: ParameterValues, _ store: some DonationStore) {
        precondition(parameters.types.count == pack.pack.parameters.count, "parameter values made for another rule pack")
        precondition(store.events.count == eventFieldTypes.count, "donation store made for another rule pack")
    }

    private func machine(_ parameters: ParameterValues, _ store: any DonationStore, _ now: Int64) -> Machine {
        Machine(strings: pack.pack.strings, parameters: parameters, store: store, eventFieldTypes: eventFieldTypes, now: now)
    }

    /// The value of rule `rule` of tip `tip` at instant `now` (milliseconds since 1970).
    public func evaluateRule(tip: Int, rule: Int, parameters: ParameterValues, store: some DonationStore, now: Int64) -> RuleOutcome {
        checkInputs(parameters, store)
        var machine = machine(parameters, store, now)
        return machine.evaluate(pack.rules[tip][rule])
    }

    /// Evaluates a tip's rules in order, stopping at the first that does not hold unless
    /// `allRules` is set.
    public func evaluateTip(_ tip: Int, parameters: ParameterValues, store: some DonationStore, now: Int64, allRules: Bool = false) -> TipEvaluation {
        checkInputs(parameters, store)
        var machine = machine(parameters, store, now)
        return evaluate(tip, machine: &machine, allRules: allRules)
    }

    /// Evaluates every tip of the pack (each stopping at its first rule that does not hold).
    public func evaluateAllTips(parameters: ParameterValues, store: some DonationStore, now: Int64) -> [TipEvaluation] {
        checkInputs(parameters, store)
        var machine = machine(parameters, store, now)
        return pack.rules.indices.map { evaluate($0, machine: &machine, allRules: false) }
    }

    private func evaluate(_ tip: Int, machine: inout Machine, allRules: Bool) -> TipEvaluation {
        var outcomes: [RuleOutcome] = []
        outcomes.reserveCapacity(pack.rules[tip].count)
        for rule in pack.rules[tip] {
            let outcome = machine.evaluate(rule)
            outcomes.append(outcome)
            if !allRules && !outcome.holds { break }
        }
        return TipEvaluation(tip: tip, rules: outcomes)
    }

    /// Evaluates one rule recording every value an instruction computes, in execution order
    /// (for `explain`; map `pc` to source with the rule's `sourceMap`).
    public func trace(tip: Int, rule: Int, parameters: ParameterValues, store: some DonationStore, now: Int64) -> (outcome: RuleOutcome, trace: [TraceEntry]) {
        checkInputs(parameters, store)
        let verified = pack.rules[tip][rule]
        let types: [BytecodeVerifier.SlotType?]
        do {
            types = try BytecodeVerifier.resultTypes(verified.code, context: BytecodeContext(pack: pack.pack))
        } catch {
            preconditionFailure("verified code no longer verifies: \(error)")
        }
        var machine = Machine(strings: pack.pack.strings, parameters: parameters, store: store, eventFieldTypes: eventFieldTypes,
                              now: now, resultTypes: types, tracing: true)
        let outcome = machine.evaluate(verified)
        return (outcome, machine.trace)
    }
}
