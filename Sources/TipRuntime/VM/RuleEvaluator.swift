/// Evaluates the rules of a verified pack against parameter values, a donation store and an
/// instant. Evaluation never traps on the pack's behalf: a rule whose arithmetic overflows or
/// divides by zero is false, and the outcome says where and why.
///
/// The parameter values must be made for this pack (`ParameterValues(pack:)`); anything else is a
/// programming error. The store is trusted with nothing (see `DonationStore`): data that does not
/// fit the pack makes the rules that read it fail with `inconsistentStore`.
package struct RuleEvaluator: Sendable {
    package let pack: VerifiedRulePack
    private let eventFieldTypes: [[ValueType]]
    /// Per tip, its key's type (nil for a tip without a key).
    private let tipKeyTypes: [ValueType?]
    private let strings: [String]
    private let parameterCount: Int
    /// Every rule's code, concatenated in tip order.
    private let code: [UInt32]
    /// Per rule, in tip order: where its code starts in `code`.
    private let ruleStarts: [Int]
    /// Per tip: the index in `ruleStarts` of its first rule; one extra entry closes the last tip.
    private let tipFirstRule: [Int]
    /// Per rule, like `ruleStarts`: whether it takes the straight-line fast path.
    private let isStraightLine: [Bool]
    /// Per tip: whether all its rules take the fast path (`evaluateTip` then sets up no machine).
    private let tipIsStraightLine: [Bool]
    /// The deepest value and collection stacks any rule of the pack needs.
    private let valueDepth: Int
    private let collectionDepth: Int
    /// Where the collection stack and the first member-list room start in the stacks'
    /// allocation, and its size, in bytes.
    private let collectionOffset: Int
    private let memberOffset: Int
    private let stackBytes: Int

    package init(pack: VerifiedRulePack) {
        self.pack = pack
        eventFieldTypes = pack.pack.events.map { $0.fields.map(\.type) }
        tipKeyTypes = pack.pack.tips.map { $0.key?.type }
        strings = pack.pack.strings
        parameterCount = pack.pack.parameters.count
        var code: [UInt32] = [], ruleStarts: [Int] = [], tipFirstRule: [Int] = [], isStraightLine: [Bool] = []
        var valueDepth = 1, collectionDepth = 1
        for rules in pack.rules {
            tipFirstRule.append(ruleStarts.count)
            for rule in rules {
                ruleStarts.append(code.count)
                var fused = rule.code
                StraightLineRules.fuse(&fused)
                code.append(contentsOf: fused)
                isStraightLine.append(StraightLineRules.accepts(fused, valueDepth: rule.shape.maximumValueDepth))
                valueDepth = max(valueDepth, rule.shape.maximumValueDepth)
                collectionDepth = max(collectionDepth, rule.shape.maximumCollectionDepth)
            }
        }
        tipFirstRule.append(ruleStarts.count)
        self.code = code
        self.ruleStarts = ruleStarts
        self.tipFirstRule = tipFirstRule
        self.isStraightLine = isStraightLine
        tipIsStraightLine = (0..<tipFirstRule.count - 1).map { isStraightLine[tipFirstRule[$0]..<tipFirstRule[$0 + 1]].allSatisfy { $0 } }
        self.valueDepth = valueDepth
        self.collectionDepth = collectionDepth
        collectionOffset = (valueDepth * MemoryLayout<Int64>.stride + 15) & ~15
        memberOffset = (collectionOffset + collectionDepth * MemoryLayout<CollectionValue>.stride + 15) & ~15
        stackBytes = memberOffset + Self.initialMemberCapacity * MemoryLayout<Int>.stride
    }

    private func checkInputs(_ parameters: ParameterValues) {
        precondition(parameters.types.count == parameterCount, "parameter values made for another rule pack")
    }

    /// The index in `ruleStarts` of rule `rule` of tip `tip`.
    private func ruleIndex(tip: Int, rule: Int) -> Int {
        precondition(tip >= 0 && tip < tipFirstRule.count - 1, "no tip \(tip)")
        let index = tipFirstRule[tip] + rule
        precondition(rule >= 0 && index < tipFirstRule[tip + 1], "tip \(tip) has no rule \(rule)")
        return index
    }

    // The entry points are specialised for the in-memory store (the generic body dispatches to
    // the specialisation), so the VM reads it with direct calls and no generic metadata.

    /// Calls `body` with a machine over this pack's code and the given inputs, all borrowed for
    /// the call: nothing is copied and the stacks live on the call stack. The runtime's own
    /// in-memory store is read in place; any other store through a table of per-event snapshots
    /// (see `StoreReader`), all unread, or all inconsistent when the store does not have the
    /// pack's number of events.
    @inline(__always)
    private func withMachine<Store: DonationStore, Result>(_ parameters: ParameterValues, _ store: Store, _ now: Int64,
                                                            _ instance: RuleInstance, _ body: (inout Machine<Store>) -> Result) -> Result {
        let eventCount = eventFieldTypes.count
        if StoreReader.readsInPlace(store, eventCount: eventCount) {
            return withMachine(parameters, store, now, instance, snapshots: nil, body)
        }
        let fits = store.events.count == eventCount
        return withUnsafeTemporaryAllocation(of: EventSnapshot.self, capacity: max(1, eventCount)) { snapshots in
            let base = snapshots.baseAddress.unsafelyUnwrapped
            base.initialize(repeating: fits ? .unread : .inconsistent, count: eventCount)
            defer { base.deinitialize(count: eventCount) }
            return withMachine(parameters, store, now, instance, snapshots: base, body)
        }
    }

    @inline(__always)
    private func withMachine<Store: DonationStore, Result>(_ parameters: ParameterValues, _ store: Store, _ now: Int64,
                                                            _ instance: RuleInstance, snapshots: UnsafeMutablePointer<EventSnapshot>?,
                                                            _ body: (inout Machine<Store>) -> Result) -> Result {
        checkInputs(parameters)
        return code.withUnsafeBufferPointer { code in
            strings.withUnsafeBufferPointer { strings in
                eventFieldTypes.withUnsafeBufferPointer { eventFieldTypes in
                  tipKeyTypes.withUnsafeBufferPointer { tipKeyTypes in
                    parameters.slots.withUnsafeBufferPointer { parameterSlots in
                        parameters.values.withUnsafeBufferPointer { parameterValues in
                            withUnsafePointer(to: store) { store in
                                withStacks { stack, collections, members in
                                  withUnsafeTemporaryAllocation(of: DonationColumns.self, capacity: Self.initialTipColumnCapacity) { tipColumns in
                                    let reader = StoreReader(store: store, snapshots: snapshots, eventFieldTypes: eventFieldTypes)
                                    var machine = Machine(code: code, strings: strings, parameterSlots: parameterSlots,
                                                          parameterValues: parameterValues, reader: reader, now: now,
                                                          stack: stack, collections: collections, members: MemberStack(initial: members),
                                                          tipKeyTypes: tipKeyTypes, key: Machine<Store>.keySlot(instance.key),
                                                          tipCollections: TipColumnStack(initial: tipColumns))
                                    let result = body(&machine)
                                    machine.members.deallocate()
                                    machine.tipCollections.deallocate()
                                    return result
                                  }
                                }
                            }
                        }
                    }
                  }
                }
            }
        }
    }

    /// Bytes of the usual stacks' allocation: a constant size within the standard library's
    /// limit for stack allocation, so it is a plain stack frame.
    private static let usualStackBytes = 1024
    /// Room for tips' record columns on the call stack (a constant, so that it is a plain frame).
    private static let initialTipColumnCapacity = 4
    /// Room for member lists at the end of the stacks' allocation, in indices.
    private static let initialMemberCapacity = 64

    /// Calls `body` with the value and collection stacks and the first room for member lists,
    /// all in one temporary allocation.
    @inline(__always)
    private func withStacks<Result>(
        _ body: (UnsafeMutablePointer<Int64>, UnsafeMutablePointer<CollectionValue>, UnsafeMutableBufferPointer<Int>) -> Result
    ) -> Result {
        let collectionOffset = self.collectionOffset, memberOffset = self.memberOffset
        func split(_ buffer: UnsafeMutableRawBufferPointer) -> Result {
            let base = buffer.baseAddress.unsafelyUnwrapped
            let members = (base + memberOffset).bindMemory(to: Int.self, capacity: Self.initialMemberCapacity)
            return body(base.bindMemory(to: Int64.self, capacity: valueDepth),
                        (base + collectionOffset).bindMemory(to: CollectionValue.self, capacity: collectionDepth),
                        UnsafeMutableBufferPointer(start: members, count: Self.initialMemberCapacity))
        }
        if stackBytes <= Self.usualStackBytes {
            return withUnsafeTemporaryAllocation(byteCount: Self.usualStackBytes, alignment: 16, split)
        }
        return withUnsafeTemporaryAllocation(byteCount: stackBytes, alignment: 16, split)
    }

    /// The value of rule `rule` of tip `tip` at instant `now` (milliseconds since 1970), for a
    /// tip without a key, reading no other tip's records.
    ///
    /// An overload, not a default argument: a package declaration's default argument is not
    /// inlined into another module, which then made and destroyed an empty `RuleInstance` through
    /// its type's metadata at every call (a sixth of a rule's instructions in the VM benchmark).
    @_specialize(where Store == InMemoryDonationStore)
    package func evaluateRule<Store: DonationStore>(tip: Int, rule: Int, parameters: ParameterValues, store: Store, now: Int64) -> RuleOutcome {
        evaluateRule(tip: tip, rule: rule, parameters: parameters, store: store, now: now, instance: RuleInstance())
    }

    /// The value of rule `rule` of tip `tip` at instant `now` (milliseconds since 1970), for
    /// `instance`.
    @_specialize(where Store == InMemoryDonationStore)
    package func evaluateRule<Store: DonationStore>(tip: Int, rule: Int, parameters: ParameterValues, store: Store, now: Int64,
                                                   instance: RuleInstance) -> RuleOutcome {
        let index = ruleIndex(tip: tip, rule: rule)
        if isStraightLine[index], StoreReader.readsInPlace(store, eventCount: eventFieldTypes.count),
           let holds = runStraightLine(ruleAt: ruleStarts[index], parameters, store, now, instance) {
            return .value(holds)
        }
        return evaluateOnMachine(ruleAt: ruleStarts[index], parameters, store, now, instance)
    }

    /// The value of the straight-line rule starting at `start`, on the fast path without a
    /// machine, over `store`, which must be read in place (`StoreReader.readsInPlace`); nil when
    /// the store's data does not fit the pack (the machine then runs the rule and says where).
    @inline(__always)
    private func runStraightLine<Store: DonationStore>(ruleAt start: Int, _ parameters: ParameterValues, _ store: Store, _ now: Int64,
                                                       _ instance: RuleInstance) -> Bool? {
        checkInputs(parameters)
        return withUnsafeTemporaryAllocation(of: Int64.self, capacity: StraightLineRules.maximumValueDepth) { stack in
            withUnsafePointer(to: store) { store in
                code.withUnsafeBufferPointer { code in
                    eventFieldTypes.withUnsafeBufferPointer { eventFieldTypes in
                        parameters.slots.withUnsafeBufferPointer { parameterSlots in
                            StraightLineRules.run(code, from: start, parameterSlots: parameterSlots,
                                                  store: UnsafeRawPointer(store).assumingMemoryBound(to: InMemoryDonationStore.self),
                                                  eventFieldTypes: eventFieldTypes, records: instance.records,
                                                  keySlot: Machine<Store>.slot(of: instance.key), now: now,
                                                  stack: stack.baseAddress.unsafelyUnwrapped)
                        }
                    }
                }
            }
        }
    }

    /// `evaluateRule` for a rule that needs the machine, kept out of line so that the
    /// straight-line path stays a small frame.
    @inline(never)
    private func evaluateOnMachine<Store: DonationStore>(ruleAt start: Int, _ parameters: ParameterValues, _ store: Store, _ now: Int64,
                                                         _ instance: RuleInstance) -> RuleOutcome {
        withMachine(parameters, store, now, instance) { $0.evaluate(ruleAt: start, records: instance.records) }
    }

    /// Evaluates a tip's rules in order, stopping at the first that does not hold unless
    /// `allRules` is set. `instance` gives a keyed tip's key and where `tip(X)` reads records.
    @_specialize(where Store == InMemoryDonationStore)
    package func evaluateTip<Store: DonationStore>(_ tip: Int, parameters: ParameterValues, store: Store, now: Int64, allRules: Bool = false,
                                                  instance: RuleInstance = RuleInstance()) -> TipEvaluation {
        precondition(tip >= 0 && tip < tipFirstRule.count - 1, "no tip \(tip)")
        if tipIsStraightLine[tip], StoreReader.readsInPlace(store, eventCount: eventFieldTypes.count) {
            // Every rule on the fast path, without setting up a machine (unless the store's data
            // does not fit the pack: then all on the machine, which says where).
            let rules = tipFirstRule[tip]..<tipFirstRule[tip + 1]
            var outcomes: [RuleOutcome] = []
            outcomes.reserveCapacity(rules.count)
            for index in rules {
                guard let holds = runStraightLine(ruleAt: ruleStarts[index], parameters, store, now, instance) else { break }
                outcomes.append(.value(holds))
                if !allRules && !holds { return TipEvaluation(tip: tip, rules: outcomes) }
            }
            if outcomes.count == rules.count { return TipEvaluation(tip: tip, rules: outcomes) }
        }
        return withMachine(parameters, store, now, instance) { evaluate(tip, machine: &$0, allRules: allRules, records: instance.records) }
    }

    /// Evaluates every tip of the pack (each stopping at its first rule that does not hold);
    /// a keyed tip as its instance without stored state would be, with its key's zero value.
    @_specialize(where Store == InMemoryDonationStore)
    package func evaluateAllTips<Store: DonationStore>(parameters: ParameterValues, store: Store, now: Int64,
                                                      records: (any TipRecordReader)? = nil) -> [TipEvaluation] {
        withMachine(parameters, store, now, RuleInstance(records: records)) { machine in
            (0..<tipFirstRule.count - 1).map { evaluate($0, machine: &machine, allRules: false, records: records) }
        }
    }

    /// For every tip of the pack, whether all its rules hold: `evaluateAllTips` without the
    /// per-rule outcomes, for a caller that only needs to know which tips may show. A keyed
    /// tip has no status of its own (each instance has one): false.
    @_specialize(where Store == InMemoryDonationStore)
    package func satisfiedTips<Store: DonationStore>(parameters: ParameterValues, store: Store, now: Int64,
                                                    records: (any TipRecordReader)? = nil) -> [Bool] {
        withMachine(parameters, store, now, RuleInstance(records: records)) { machine in
            // Written through the buffer: the optimizer cannot see that the interpreter's loop,
            // inlined here, leaves an array alone, and checked its uniqueness at every write.
            let tipCount = tipFirstRule.count - 1
            return [Bool](unsafeUninitializedCapacity: tipCount) { satisfied, initialized in
                for tip in 0..<tipCount {
                    var holds = tipKeyTypes[tip] == nil
                    if holds {
                        for index in tipFirstRule[tip]..<tipFirstRule[tip + 1] where !evaluate(index, machine: &machine, records: records).holds {
                            holds = false
                            break
                        }
                    }
                    satisfied.initializeElement(at: tip, to: holds)
                }
                initialized = tipCount
            }
        }
    }

    private func evaluate<Store>(_ tip: Int, machine: inout Machine<Store>, allRules: Bool, records: (any TipRecordReader)?) -> TipEvaluation {
        let rules = tipFirstRule[tip]..<tipFirstRule[tip + 1]
        var outcomes: [RuleOutcome] = []
        outcomes.reserveCapacity(rules.count)
        for index in rules {
            let outcome = evaluate(index, machine: &machine, records: records)
            outcomes.append(outcome)
            if !allRules && !outcome.holds { break }
        }
        return TipEvaluation(tip: tip, rules: outcomes)
    }

    /// The outcome of the rule at `index` of `ruleStarts`, on the fast path when it can take it
    /// (a straight-line rule over the in-memory store, read in place), else (or when the store's
    /// data does not fit the pack) on the machine.
    @inline(__always)
    private func evaluate<Store>(_ index: Int, machine: inout Machine<Store>, records: (any TipRecordReader)?) -> RuleOutcome {
        if isStraightLine[index], machine.reader.snapshots == nil {
            if let holds = StraightLineRules.run(machine.code, from: ruleStarts[index], parameterSlots: machine.parameterSlots,
                                                 store: machine.reader.inMemoryStore, eventFieldTypes: machine.reader.eventFieldTypes,
                                                 records: records, keySlot: machine.keySlot, now: machine.now, stack: machine.stack) {
                return .value(holds)
            }
        }
        return machine.evaluate(ruleAt: ruleStarts[index], records: records)
    }

    /// Evaluates one rule recording every value an instruction computes, in execution order
    /// (for `explain`; map `pc` to source with the rule's `sourceMap`).
    package func trace(tip: Int, rule: Int, parameters: ParameterValues, store: some DonationStore, now: Int64,
                      instance: RuleInstance = RuleInstance()) -> (outcome: RuleOutcome, trace: [TraceEntry]) {
        let index = ruleIndex(tip: tip, rule: rule)
        let verified = pack.rules[tip][rule]
        let types: [BytecodeVerifier.SlotType?]
        do {
            types = try BytecodeVerifier.resultTypes(verified.code, context: BytecodeContext(pack: pack.pack, tip: tip))
        } catch {
            preconditionFailure("verified code no longer verifies: \(error)")
        }
        return withMachine(parameters, store, now, instance) { machine in
            let recorder = TraceRecorder(resultTypes: types)
            return withExtendedLifetime(recorder) {
                machine.recorder = recorder
                let outcome = machine.evaluate(ruleAt: ruleStarts[index], records: instance.records)
                return (outcome, recorder.entries)
            }
        }
    }
}
