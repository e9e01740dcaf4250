/// What the one interpreter loop (`interpret`) reads and calls. Two modes conform, and each gets
/// its own specialised copy of the same loop: `Machine`, which runs every instruction, and
/// `StraightLineRules.Registers`, the fast path, which runs only rules that
/// `StraightLineRules.accepts` (no collection, no string, nothing that can fail but a read of
/// a store made for another pack) without setting up a machine. The fast path's conformance
/// answers the machine-only requirements with a trap: it is never given code that reaches them.
///
/// Every opcode's meaning is its case in `interpret`, written once, the way Lua's `luaV_execute`
/// runs its specialised instructions in the same loop as the rest; what the loop needs from its
/// mode is named here, not done here.
protocol InterpreterContext {
    /// Every rule's code, concatenated and fused (verified: every operand, jump and stack
    /// access is in bounds).
    var code: UnsafeBufferPointer<UInt32> { get }
    /// The value stack, as deep as the deepest rule needs.
    var stack: UnsafeMutablePointer<Int64> { get }
    var parameterSlots: UnsafeBufferPointer<Int64> { get }
    var now: Int64 { get }
    /// The slot `LOAD_KEY` pushes for the instance being evaluated.
    var keySlot: Int64 { get }
    /// Whether every computed value is recorded (`record`); fused instructions then run unfused.
    var tracing: Bool { get }
    /// Whether this mode runs only straight-line code (the fast path): its copy of the loop then
    /// has only the straight-line cases.
    static var runsOnlyStraightLine: Bool { get }

    /// Evaluation failed at `pc` (absolute); always nil, the loop's result for a failure.
    mutating func fail(_ reason: EvaluationFailure, _ pc: Int) -> Bool?
    /// Records the value the instruction at `pc` left on the stack (only when `tracing`).
    mutating func record(_ pc: Int, _ sp: Int)
    /// The number of `event`'s donations (inside the window ending at `now` when `window` is
    /// given, passing `test` when it is given); nil when the store's data does not fit the pack.
    func countDonations(_ event: Int, within window: Int64?, where test: FieldTest?) -> Int?

    // The machine's alone (payload fields, strings, collections, keyed tips); each is the
    // instruction of the same name's work, documented where the machine does it.
    func loadField(_ field: Int) -> Int64
    func compareStrings(_ comparison: Int, _ left: Int64, _ right: Int64) -> Bool
    func compareString(_ comparison: Int, _ left: Int64, toConstant constant: Int) -> Bool
    func string(_ reference: Int64, isInConstantsAt start: Int, count: Int) -> Bool
    func isInvalidated(tip: Int, keySlot: Int64, _ records: (any TipRecordReader)?) -> Bool
    mutating func pushTipRecords(tip: Int, keySlot: Int64?, displays: Bool, _ records: (any TipRecordReader)?)
    mutating func pushEventCollection(_ event: Int) -> Bool
    mutating func narrowTopToWindow(_ window: Int64) -> Bool
    mutating func filterTop(predicateAt start: Int, sp: Int, at: Int, records: (any TipRecordReader)?) -> Bool
    mutating func popCount(matching test: FieldTest) -> Int?
    mutating func narrowTopToSubset(field: Int, largest: Bool) -> Bool
    mutating func popCollectionCount() -> Int
    mutating func popDistinctCount(field: Int) -> Int?
}

extension InterpreterContext {
    /// `interpret`, out of line: the machine's entry (from `evaluate` and from `filterTop`), so
    /// its mode has one copy of the loop.
    @inline(never)
    mutating func run(from start: Int, sp base: Int, records: (any TipRecordReader)?) -> Bool? {
        interpret(from: start, sp: base, records: records)
    }

    /// Runs the block starting at `start` (a rule, or a `WHERE` predicate over a stack whose
    /// first `base` slots are taken) until its `RETURN`; nil when evaluation failed (`fail`).
    ///
    /// Always inlined: the fast path's copy of the loop sits in the evaluator's loop over rules,
    /// as its own small loop did before, where its mode's fields stay in registers. The `switch`
    /// puts the straight-line cases first and the machine's behind its `default`, which is a trap
    /// in the fast mode: that copy then holds only its own cases, and keeps the pc and the stack
    /// pointer in registers (with every case in it, both went through memory at every
    /// instruction). The machine enters through `run`.
    @inline(__always)
    mutating func interpret(from start: Int, sp base: Int, records: (any TipRecordReader)?) -> Bool? {
        let code = self.code, stack = self.stack, now = self.now, parameterSlots = self.parameterSlots
        let tracing = self.tracing, keySlot = self.keySlot
        var pc = start
        var sp = base
        while true {
            let word = code[pc]
            let a = Int(word >> 8)
            let at = pc
            let opcode = tracing ? Opcode.unfused(Instruction.opcodeByte(word)) : Instruction.opcodeByte(word)
            switch opcode {
            // The straight-line instructions (the opcode table's `isStraightLine`), with the two
            // pushes of constants that share their cases: the fast mode's copy holds only these.
            case Opcode.ret.rawValue:
                return stack[sp &- 1] != 0
            case Opcode.pushBool.rawValue, Opcode.pushString.rawValue:
                stack[sp] = Int64(a); sp &+= 1; pc &+= 1
            case Opcode.pushInt.rawValue, Opcode.pushDate.rawValue, Opcode.pushDuration.rawValue, Opcode.pushDouble.rawValue:
                stack[sp] = Instruction.immediate(code[pc &+ 1], code[pc &+ 2]); sp &+= 1; pc &+= 3
            case Opcode.loadNow.rawValue:
                stack[sp] = now; sp &+= 1; pc &+= 1
            case Opcode.loadParameter.rawValue:
                stack[sp] = parameterSlots[a]; sp &+= 1; pc &+= 1
            case Opcode.not.rawValue:
                stack[sp &- 1] ^= 1; pc &+= 1
            case Opcode.jumpIfFalse.rawValue:
                if stack[sp &- 1] == 0 { pc &+= 1 &+ a } else { sp &-= 1; pc &+= 1 }
            case Opcode.jumpIfTrue.rawValue:
                if stack[sp &- 1] != 0 { pc &+= 1 &+ a } else { sp &-= 1; pc &+= 1 }
            case Opcode.jumpIfParameterFalse.rawValue:
                // LOAD_PARAM then JUMP_IF_FALSE (whose word follows in place).
                if parameterSlots[a] == 0 {
                    stack[sp] = 0; sp &+= 1; pc &+= 2 &+ Int(code[pc &+ 1] >> 8)
                } else {
                    pc &+= 2
                }
            case Opcode.compareInt.rawValue, Opcode.compareBool.rawValue:
                let holds = ComparisonCode(verified: a).holds(stack[sp &- 2], stack[sp &- 1])
                sp &-= 1; stack[sp &- 1] = holds ? 1 : 0; pc &+= 1
            case Opcode.compareIntImmediate.rawValue:
                let holds = ComparisonCode(verified: a).holds(stack[sp &- 1], Instruction.immediate(code[pc &+ 1], code[pc &+ 2]))
                stack[sp &- 1] = holds ? 1 : 0; pc &+= 3
            case Opcode.countEvent.rawValue:
                guard let count = countDonations(a, within: nil, where: nil) else { return fail(.inconsistentStore, at) }
                stack[sp] = Int64(count); sp &+= 1; pc &+= 1
            case Opcode.countEventWithin.rawValue:
                guard let count = countDonations(a, within: Instruction.immediate(code[pc &+ 1], code[pc &+ 2]), where: nil) else {
                    return fail(.inconsistentStore, at)
                }
                stack[sp] = Int64(count); sp &+= 1; pc &+= 3
            case Opcode.countEventWithinCompareImmediate.rawValue:
                // COUNT_EVENT_WITHIN then the CMP_INT_K whose words follow in place.
                guard let count = countDonations(a, within: Instruction.immediate(code[pc &+ 1], code[pc &+ 2]), where: nil) else {
                    return fail(.inconsistentStore, at)
                }
                let comparison = ComparisonCode(verified: Int(code[pc &+ 3] >> 8))
                stack[sp] = comparison.holds(Int64(count), Instruction.immediate(code[pc &+ 4], code[pc &+ 5])) ? 1 : 0
                sp &+= 1; pc &+= 6
            case Opcode.countEventWhere.rawValue:
                guard let extent = StraightLineRules.countedWhereExtent(code, at: pc),
                      let test = FieldTest(code, at: extent.predicate, parameterSlots: parameterSlots, keySlot: keySlot) else {
                    preconditionFailure("COUNT_EVENT_WHERE is fused only before a counted field test")
                }
                guard let count = countDonations(a, within: extent.window, where: test) else {
                    // Where the unfused sequence fails: at the `EVENT` when the event's timestamps do
                    // not fit (a store read through snapshots), else at the `WHERE` that reads the payload.
                    return fail(.inconsistentStore, countDonations(a, within: nil, where: nil) == nil ? at : extent.predicate &- 1)
                }
                stack[sp] = Int64(count); sp &+= 1; pc = extent.next
            case Opcode.tipInvalidated.rawValue:
                // Optional chaining, not `if let`: a binding would copy (retain) the reader.
                stack[sp] = records?.isInvalidated(tip: a, key: nil) == true ? 1 : 0; sp &+= 1; pc &+= 1
            case Opcode.countTipDisplays.rawValue, Opcode.countTipInvalidations.rawValue:
                let (window, next) = StraightLineRules.tipCountExtent(code, at: pc)
                let invalidations = opcode == Opcode.countTipInvalidations.rawValue
                let count = records?.countDates(ofTip: a, key: nil, invalidations: invalidations, within: window, endingAt: now) ?? 0
                stack[sp] = Int64(count); sp &+= 1; pc = next

            // The machine's alone. In the fast mode this is a trap, and its copy of the loop holds
            // none of these cases: a smaller loop whose registers hold the pc and the stack pointer.
            default:
                guard !Self.runsOnlyStraightLine else { preconditionFailure("the fast path ran an instruction that is not straight-line") }
                switch opcode {
                case Opcode.loadKey.rawValue:
                    stack[sp] = keySlot; sp &+= 1; pc &+= 1
                case Opcode.loadField.rawValue:
                    stack[sp] = loadField(a); sp &+= 1; pc &+= 1
                case Opcode.compareDouble.rawValue:
                    let holds = ComparisonCode(verified: a).holds(Self.double(stack[sp &- 2]), Self.double(stack[sp &- 1]))
                    sp &-= 1; stack[sp &- 1] = holds ? 1 : 0; pc &+= 1
                case Opcode.compareDoubleImmediate.rawValue:
                    let constant = Self.double(Instruction.immediate(code[pc &+ 1], code[pc &+ 2]))
                    let holds = ComparisonCode(verified: a).holds(Self.double(stack[sp &- 1]), constant)
                    stack[sp &- 1] = holds ? 1 : 0; pc &+= 3
                case Opcode.compareString.rawValue:
                    let holds = compareStrings(a, stack[sp &- 2], stack[sp &- 1])
                    sp &-= 1; stack[sp &- 1] = holds ? 1 : 0; pc &+= 1
                case Opcode.compareStringImmediate.rawValue:
                    let holds = compareString(a, stack[sp &- 1], toConstant: Int(code[pc &+ 1]))
                    stack[sp &- 1] = holds ? 1 : 0; pc &+= 2
                case Opcode.inInts.rawValue:
                    let value = stack[sp &- 1]
                    var found = false
                    for index in 0..<a where Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index]) == value {
                        found = true; break
                    }
                    stack[sp &- 1] = found ? 1 : 0; pc &+= 1 &+ 2 &* a
                case Opcode.inDoubles.rawValue:
                    let value = Self.double(stack[sp &- 1])
                    var found = false
                    for index in 0..<a where Self.double(Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index])) == value {
                        found = true; break
                    }
                    stack[sp &- 1] = found ? 1 : 0; pc &+= 1 &+ 2 &* a
                case Opcode.inStrings.rawValue:
                    stack[sp &- 1] = string(stack[sp &- 1], isInConstantsAt: pc &+ 1, count: a) ? 1 : 0; pc &+= 1 &+ a
                case Opcode.inBools.rawValue:
                    stack[sp &- 1] = (a >> Int(stack[sp &- 1])) & 1 == 1 ? 1 : 0; pc &+= 1
                case Opcode.add.rawValue, Opcode.subtract.rawValue, Opcode.multiply.rawValue:
                    let left = stack[sp &- 2], right = stack[sp &- 1]
                    let (result, overflow) = switch opcode {
                    case Opcode.add.rawValue: left.addingReportingOverflow(right)
                    case Opcode.subtract.rawValue: left.subtractingReportingOverflow(right)
                    default: left.multipliedReportingOverflow(by: right)
                    }
                    if overflow { return fail(.integerOverflow, at) }
                    sp &-= 1; stack[sp &- 1] = result; pc &+= 1
                case Opcode.divide.rawValue, Opcode.remainder.rawValue:
                    let left = stack[sp &- 2], right = stack[sp &- 1]
                    if right == 0 { return fail(.divisionByZero, at) }
                    let (result, overflow) = opcode == Opcode.divide.rawValue
                        ? left.dividedReportingOverflow(by: right) : left.remainderReportingOverflow(dividingBy: right)
                    if overflow { return fail(.integerOverflow, at) }
                    sp &-= 1; stack[sp &- 1] = result; pc &+= 1
                case Opcode.negate.rawValue:
                    let (result, overflow) = Int64(0).subtractingReportingOverflow(stack[sp &- 1])
                    if overflow { return fail(.integerOverflow, at) }
                    stack[sp &- 1] = result; pc &+= 1
                case Opcode.addDouble.rawValue, Opcode.subtractDouble.rawValue, Opcode.multiplyDouble.rawValue,
                     Opcode.divideDouble.rawValue, Opcode.remainderDouble.rawValue:
                    let left = Self.double(stack[sp &- 2]), right = Self.double(stack[sp &- 1])
                    let result: Double = switch opcode {
                    case Opcode.addDouble.rawValue: left + right
                    case Opcode.subtractDouble.rawValue: left - right
                    case Opcode.multiplyDouble.rawValue: left * right
                    case Opcode.divideDouble.rawValue: left / right
                    default: left.truncatingRemainder(dividingBy: right)
                    }
                    if !result.isFinite { return fail(.nonFiniteDouble, at) }
                    sp &-= 1; stack[sp &- 1] = Self.slot(result); pc &+= 1
                case Opcode.negateDouble.rawValue:
                    let result = -Self.double(stack[sp &- 1])
                    if !result.isFinite { return fail(.nonFiniteDouble, at) }
                    stack[sp &- 1] = Self.slot(result); pc &+= 1
                case Opcode.intToDouble.rawValue:
                    stack[sp &- 1] = Self.slot(Double(stack[sp &- 1])); pc &+= 1
                case Opcode.tipInvalidatedKeyed.rawValue:
                    stack[sp &- 1] = isInvalidated(tip: a, keySlot: stack[sp &- 1], records) ? 1 : 0; pc &+= 1
                case Opcode.tipDisplays.rawValue, Opcode.tipInvalidations.rawValue:
                    pushTipRecords(tip: a, keySlot: nil, displays: opcode == Opcode.tipDisplays.rawValue, records)
                    pc &+= 1
                case Opcode.tipDisplaysKeyed.rawValue, Opcode.tipInvalidationsKeyed.rawValue:
                    sp &-= 1
                    pushTipRecords(tip: a, keySlot: stack[sp], displays: opcode == Opcode.tipDisplaysKeyed.rawValue, records)
                    pc &+= 1
                case Opcode.event.rawValue:
                    guard pushEventCollection(a) else { return fail(.inconsistentStore, at) }
                    pc &+= 1
                case Opcode.within.rawValue:
                    guard narrowTopToWindow(Instruction.immediate(code[pc &+ 1], code[pc &+ 2])) else { return fail(.inconsistentStore, at) }
                    pc &+= 3
                case Opcode.filter.rawValue:
                    guard filterTop(predicateAt: pc &+ 1, sp: sp, at: at, records: records) else { return nil }
                    pc &+= 1 &+ a
                case Opcode.filterThenCount.rawValue:
                    // WHERE then the COUNT right after its block: a field test counts in one loop over
                    // the column (nothing is listed); any other predicate runs as WHERE.
                    if let test = FieldTest(code, at: pc &+ 1, parameterSlots: parameterSlots, keySlot: keySlot) {
                        guard let count = popCount(matching: test) else { return fail(.inconsistentStore, at) }
                        stack[sp] = Int64(count); sp &+= 1; pc &+= 2 &+ a
                    } else {
                        guard filterTop(predicateAt: pc &+ 1, sp: sp, at: at, records: records) else { return nil }
                        pc &+= 1 &+ a
                    }
                case Opcode.largestSubset.rawValue, Opcode.smallestSubset.rawValue:
                    guard narrowTopToSubset(field: a, largest: opcode == Opcode.largestSubset.rawValue) else { return fail(.inconsistentStore, at) }
                    pc &+= 1
                case Opcode.count.rawValue:
                    stack[sp] = Int64(popCollectionCount()); sp &+= 1; pc &+= 1
                case Opcode.distinct.rawValue:
                    guard let distinct = popDistinctCount(field: a) else { return fail(.inconsistentStore, at) }
                    stack[sp] = Int64(distinct); sp &+= 1; pc &+= 1
                default:
                    preconditionFailure("unverified opcode \(opcode)")
                }
            }
            if tracing { record(at, sp) }
        }
    }

    /// A slot's number and a number's slot: the one slot encoding (`ValueSlot`).
    @inline(__always)
    static func double(_ slot: Int64) -> Double { ValueSlot.double(slot) }
    @inline(__always)
    static func slot(_ value: Double) -> Int64 { ValueSlot.slot(value) }
}
