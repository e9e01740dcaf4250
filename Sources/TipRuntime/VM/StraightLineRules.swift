/// The evaluator's fast path for rules made only of instructions that read parameters, the
/// clock, counts of donations (in a window, passing a field test) and other tips' records
/// (whether one is invalidated, how many of its displays or invalidations lie in a window) and
/// compare them: they make no collection and touch no string, and nothing in them can fail but
/// a field test's payload read over a store made for another pack (the machine then runs the
/// rule), so they run in a small loop over registers and a value stack on the call stack,
/// without setting up a `Machine`. Taken only over the
/// runtime's own in-memory store, read in place (any other store is read, and checked, by the
/// machine). Which opcodes it takes is the opcode table's `isStraightLine`, and the fused ones
/// below; what each of them does is written once, in `step`, which both this fast path's loop
/// and the machine's run (running these rules on the machine instead made the first benchmark
/// rule 3× slower: docs/decisions.md, "One opcode table"). `StraightLineRuleTests` holds the
/// two to the reference's answers.
///
/// Also the evaluator's one rewrite of verified code: instruction sequences that one step can do
/// become internal superinstructions (`fuse`). Only the first word's opcode byte changes, so
/// every word (and every pc reported or traced) stays where it was, and a jump landing on a
/// later word of the sequence still finds it intact.
enum StraightLineRules {
    /// The internal opcode `COUNT_EVENT_WITHIN_CMP_K`: never valid in a pack (the verifier knows
    /// no opcode 0xF0), only made by `fuse` from verified code. Operands: those of the
    /// `COUNT_EVENT_WITHIN` it replaces, then the whole `CMP_INT_K` instruction.
    static let countEventWithinCompareImmediate: UInt8 = 0xF0

    /// The internal opcode `JUMP_IF_PARAM_FALSE` (0xF1, made only by `fuse`): `LOAD_PARAM`
    /// directly followed by `JUMP_IF_FALSE`, in one dispatch; the jump's word stays in place.
    static let jumpIfParameterFalse: UInt8 = 0xF1

    /// The internal opcode `WHERE_COUNT` (0xF2, made only by `fuse`): a `WHERE` whose block
    /// `COUNT` directly follows; the machine counts a simple predicate's matches without listing
    /// them (and runs any other as `WHERE`). Operand: the `WHERE`'s block length.
    static let filterThenCount: UInt8 = 0xF2

    /// The internal opcodes `TIP_DISPLAYS_COUNT` (0xF3) and `TIP_INVALIDATIONS_COUNT` (0xF4),
    /// made only by `fuse`: `TIP_DISPLAYS` or `TIP_INVALIDATIONS` (of a tip without a key) whose
    /// collection is counted at once, whole (`COUNT` directly follows) or in a window (`WITHIN`
    /// then `COUNT`): the count of the tip's dates, counted by the record reader where they lie
    /// (`TipRecordReader.countDates`), without making the collection (`tip(welcome).invalidations.within(1d).count`). The words of the `WITHIN`
    /// and `COUNT` stay in place.
    static let countTipDisplays: UInt8 = 0xF3
    static let countTipInvalidations: UInt8 = 0xF4

    /// The internal opcode `COUNT_EVENT_WHERE` (0xF5, made only by `fuse`): `EVENT`, optionally
    /// `WITHIN`, then a `WHERE` whose block is a `FieldTest` and whose result `COUNT` directly
    /// follows: the number of the event's donations (in the window) whose field passes, counted
    /// in one loop over the payload column without making the collection
    /// (`trailViewed.where(trailID == key).count`). The other words stay in place.
    static let countEventWhere: UInt8 = 0xF5

    /// The deepest value stack a straight-line rule may need.
    static let maximumValueDepth = 16

    /// Rewrites, in verified `code`, each `COUNT_EVENT_WITHIN` that `CMP_INT_K` directly follows,
    /// each `LOAD_PARAM` that `JUMP_IF_FALSE` directly follows, each `WHERE` whose block
    /// `COUNT` directly follows, and each `TIP_DISPLAYS` or `TIP_INVALIDATIONS` that `COUNT`
    /// directly follows, or `WITHIN` then `COUNT`, and each `EVENT` that a counted field test
    /// follows (`countedWhereExtent`).
    static func fuse(_ code: inout [UInt32]) {
        var pc = 0
        while pc < code.count, let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: code[pc])) {
            let next = pc + 1 + opcode.extraWords(operand: code[pc] >> 8)
            let following = next < code.count ? UInt8(truncatingIfNeeded: code[next]) : 0
            if opcode == .countEventWithin, following == Opcode.compareIntImmediate.rawValue {
                code[pc] = code[pc] & ~0xFF | UInt32(countEventWithinCompareImmediate)
            } else if opcode == .loadParameter, following == Opcode.jumpIfFalse.rawValue {
                code[pc] = code[pc] & ~0xFF | UInt32(jumpIfParameterFalse)
            } else if opcode == .filter, case let end = next + Int(code[pc] >> 8), end < code.count,
                      UInt8(truncatingIfNeeded: code[end]) == Opcode.count.rawValue {
                code[pc] = code[pc] & ~0xFF | UInt32(filterThenCount)
            } else if opcode == .event, let extent = code.withUnsafeBufferPointer({ countedWhereExtent($0, at: pc) }),
                      code.withUnsafeBufferPointer({ FieldTest.shape($0, at: extent.predicate) }) != nil {
                code[pc] = code[pc] & ~0xFF | UInt32(countEventWhere)
            } else if opcode == .tipDisplays || opcode == .tipInvalidations, countFollows(code, at: next) {
                code[pc] = code[pc] & ~0xFF | UInt32(opcode == .tipDisplays ? countTipDisplays : countTipInvalidations)
            }
            pc = next
        }
    }

    /// Whether `COUNT`, or `WITHIN` then `COUNT`, starts at `pc` of `code`.
    private static func countFollows(_ code: [UInt32], at pc: Int) -> Bool {
        guard pc < code.count else { return false }
        if UInt8(truncatingIfNeeded: code[pc]) == Opcode.count.rawValue { return true }
        return UInt8(truncatingIfNeeded: code[pc]) == Opcode.within.rawValue && pc + 3 < code.count
            && UInt8(truncatingIfNeeded: code[pc + 3]) == Opcode.count.rawValue
    }

    /// The window of a fused tip count whose `TIP_*` word is at `pc`, and where the instruction
    /// after its `COUNT` starts; no window when `COUNT` directly follows.
    @inline(__always)
    static func tipCountExtent(_ code: UnsafeBufferPointer<UInt32>, at pc: Int) -> (window: Int64?, next: Int) {
        guard UInt8(truncatingIfNeeded: code[pc &+ 1]) == Opcode.within.rawValue else { return (nil, pc &+ 2) }
        return (Instruction.immediate(code[pc &+ 2], code[pc &+ 3]), pc &+ 5)
    }

    /// For the `EVENT` at `pc` of verified `code`: when `WITHIN` (optionally) then `WHERE` (or
    /// the fused `WHERE_COUNT`) follow it, and `COUNT` directly follows the `WHERE`'s block, the
    /// window, where the predicate block starts and where the instruction after the `COUNT`
    /// starts; nil otherwise.
    @inline(__always)
    static func countedWhereExtent(_ code: UnsafeBufferPointer<UInt32>, at pc: Int) -> (window: Int64?, predicate: Int, next: Int)? {
        var filter = pc &+ 1, window: Int64?
        guard filter < code.count else { return nil }
        if UInt8(truncatingIfNeeded: code[filter]) == Opcode.within.rawValue {
            guard filter &+ 3 < code.count else { return nil }
            window = Instruction.immediate(code[filter &+ 1], code[filter &+ 2])
            filter &+= 3
        }
        let byte = UInt8(truncatingIfNeeded: code[filter])
        guard byte == Opcode.filter.rawValue || byte == filterThenCount else { return nil }
        let count = filter &+ 1 &+ Int(code[filter] >> 8)
        guard count < code.count, UInt8(truncatingIfNeeded: code[count]) == Opcode.count.rawValue else { return nil }
        return (window, filter &+ 1, count &+ 1)
    }

    /// Whether verified `code`, fused or not (with its value stack depth), can take the fast
    /// path: every instruction straight-line (or a fused one made of such, or a fused count of a
    /// tip's records or of a field test), and every jump landing on an instruction that the walk
    /// of the fast path reaches.
    static func accepts(_ code: [UInt32], valueDepth: Int) -> Bool {
        guard valueDepth <= maximumValueDepth else { return false }
        var starts: [Int] = [], jumpTargets: [Int] = []
        var pc = 0
        while pc < code.count {
            starts.append(pc)
            let byte = UInt8(truncatingIfNeeded: code[pc])
            switch byte {
            case countTipDisplays, countTipInvalidations:
                pc = code.withUnsafeBufferPointer { tipCountExtent($0, at: pc).next }
                continue
            case countEventWhere:
                guard let extent = code.withUnsafeBufferPointer({ countedWhereExtent($0, at: pc) }) else { return false }
                pc = extent.next
                continue
            case countEventWithinCompareImmediate:
                pc += 1 + Opcode.countEventWithin.extraWords(operand: code[pc] >> 8)
                continue
            case jumpIfParameterFalse:
                pc += 1
                continue
            default:
                guard let opcode = Opcode(rawValue: byte), opcode.info.isStraightLine else { return false }
                if opcode.info.operand == .jump { jumpTargets.append(pc + 1 + Int(code[pc] >> 8)) }
                pc += 1 + opcode.extraWords(operand: code[pc] >> 8)
            }
        }
        // A rule is a few dozen instructions: a linear search is the cheap one.
        return jumpTargets.allSatisfy { $0 == code.count || starts.contains($0) }
    }

    /// What `step` did.
    enum Step {
        /// Ran the instruction: `pc` and `sp` moved on.
        case next
        /// `RETURN`: the value of the rule (or predicate block).
        case returned(Bool)
        /// A count found the store's data for the event not fitting the pack (a checked store's
        /// reader says so, or an in-memory store made for another pack): `pc` is at the
        /// instruction that read it.
        case inconsistentStore
    }

    /// The one definition of the straight-line instructions and of the fused ones: runs the
    /// instruction at `pc` (verified code: the operands, jumps and stack are in bounds). Both the
    /// fast path's loop and the machine's call it, so an instruction behaves the same on both.
    /// `count(event, window, test)` counts an event's donations, inside the window ending at
    /// `now` when `window` is given, passing `test` when it is given, nil when the store's data
    /// does not fit the pack; `records` is where `TIP_INVALIDATED` and the fused tip counts read
    /// other tips (nil: no tip has records); `keySlot` is the instance's key for a field test
    /// by `key`. With `fused` false (the machine, tracing), a fused instruction runs only its
    /// first part, so that the rest runs, and is traced, on its own (a fused count whose first
    /// part makes a collection never comes here then: the machine runs that part itself).
    @inline(__always)
    static func step(_ code: UnsafeBufferPointer<UInt32>, pc: inout Int, sp: inout Int, stack: UnsafeMutablePointer<Int64>,
                     parameterSlots: UnsafeBufferPointer<Int64>, now: Int64, fused: Bool, records: (any TipRecordReader)?,
                     keySlot: Int64, count countEvent: (_ event: Int, _ window: Int64?, _ test: FieldTest?) -> Int?) -> Step {
        let word = code[pc]
        let a = Int(word >> 8)
        switch UInt8(truncatingIfNeeded: word) {
        case Opcode.ret.rawValue:
            return .returned(stack[sp &- 1] != 0)
        case countEventWithinCompareImmediate:
            guard let count = countEvent(a, Instruction.immediate(code[pc &+ 1], code[pc &+ 2]), nil) else { return .inconsistentStore }
            if fused {
                let comparison = ComparisonCode(verified: Int(code[pc &+ 3] >> 8))
                stack[sp] = comparison.holds(Int64(count), Instruction.immediate(code[pc &+ 4], code[pc &+ 5])) ? 1 : 0
                sp &+= 1; pc &+= 6
            } else {
                stack[sp] = Int64(count); sp &+= 1; pc &+= 3
            }
        case jumpIfParameterFalse:
            let value = parameterSlots[a]
            if !fused {
                stack[sp] = value; sp &+= 1; pc &+= 1
            } else if value == 0 {
                stack[sp] = 0; sp &+= 1; pc &+= 2 &+ Int(code[pc &+ 1] >> 8)
            } else {
                pc &+= 2
            }
        case Opcode.loadParameter.rawValue:
            stack[sp] = parameterSlots[a]; sp &+= 1; pc &+= 1
        case Opcode.jumpIfFalse.rawValue:
            if stack[sp &- 1] == 0 { pc &+= 1 &+ a } else { sp &-= 1; pc &+= 1 }
        case Opcode.jumpIfTrue.rawValue:
            if stack[sp &- 1] != 0 { pc &+= 1 &+ a } else { sp &-= 1; pc &+= 1 }
        case Opcode.pushBool.rawValue:
            stack[sp] = Int64(a); sp &+= 1; pc &+= 1
        case Opcode.pushInt.rawValue, Opcode.pushDate.rawValue, Opcode.pushDuration.rawValue:
            stack[sp] = Instruction.immediate(code[pc &+ 1], code[pc &+ 2]); sp &+= 1; pc &+= 3
        case Opcode.loadNow.rawValue:
            stack[sp] = now; sp &+= 1; pc &+= 1
        case Opcode.not.rawValue:
            stack[sp &- 1] ^= 1; pc &+= 1
        case Opcode.compareInt.rawValue, Opcode.compareBool.rawValue:
            let holds = ComparisonCode(verified: a).holds(stack[sp &- 2], stack[sp &- 1])
            sp &-= 1; stack[sp &- 1] = holds ? 1 : 0; pc &+= 1
        case Opcode.compareIntImmediate.rawValue:
            let holds = ComparisonCode(verified: a).holds(stack[sp &- 1], Instruction.immediate(code[pc &+ 1], code[pc &+ 2]))
            stack[sp &- 1] = holds ? 1 : 0; pc &+= 3
        case Opcode.tipInvalidated.rawValue:
            // Optional chaining, not `if let`: a binding would copy (retain) the reader.
            stack[sp] = records?.isInvalidated(tip: a, key: nil) == true ? 1 : 0; sp &+= 1; pc &+= 1
        case countTipDisplays, countTipInvalidations:
            let (window, next) = tipCountExtent(code, at: pc)
            let invalidations = UInt8(truncatingIfNeeded: word) == countTipInvalidations
            let count = records?.countDates(ofTip: a, key: nil, invalidations: invalidations, within: window, endingAt: now) ?? 0
            stack[sp] = Int64(count); sp &+= 1; pc = next
        case countEventWhere:
            guard let extent = countedWhereExtent(code, at: pc),
                  let test = FieldTest(code, at: extent.predicate, parameterSlots: parameterSlots, keySlot: keySlot) else {
                preconditionFailure("COUNT_EVENT_WHERE is fused only before a counted field test")
            }
            guard let count = countEvent(a, extent.window, test) else {
                // Where the unfused sequence fails: at the `EVENT` when the event's timestamps do
                // not fit (a store read through snapshots), else at the `WHERE` that reads the payload.
                if countEvent(a, nil, nil) != nil { pc = extent.predicate &- 1 }
                return .inconsistentStore
            }
            stack[sp] = Int64(count); sp &+= 1; pc = extent.next
        case Opcode.countEvent.rawValue:
            guard let count = countEvent(a, nil, nil) else { return .inconsistentStore }
            stack[sp] = Int64(count); sp &+= 1; pc &+= 1
        case Opcode.countEventWithin.rawValue:
            guard let count = countEvent(a, Instruction.immediate(code[pc &+ 1], code[pc &+ 2]), nil) else { return .inconsistentStore }
            stack[sp] = Int64(count); sp &+= 1; pc &+= 3
        default:
            preconditionFailure("unverified opcode \(UInt8(truncatingIfNeeded: word))")
        }
        return .next
    }

    /// Runs the straight-line rule starting at `start` of `code` (fused, verified and accepted)
    /// on `stack`, which has room for the rule's value depth: `step` in a loop, over the
    /// in-memory store read in place and the tips' records in `records`. Nil when the store's
    /// data for an event whose payload the rule reads does not fit the pack (a store made for
    /// another pack): the machine then runs the rule, and says where it failed.
    @inline(__always)
    static func run(_ code: UnsafeBufferPointer<UInt32>, from start: Int, parameterSlots: UnsafeBufferPointer<Int64>,
                    store: StoreReader<InMemoryDonationStore>, records: (any TipRecordReader)?, keySlot: Int64, now: Int64,
                    stack: UnsafeMutablePointer<Int64>) -> Bool? {
        var pc = start
        var sp = 0
        while true {
            let step = step(code, pc: &pc, sp: &sp, stack: stack, parameterSlots: parameterSlots, now: now, fused: true,
                            records: records, keySlot: keySlot) { event, window, test in
                store.count(event, within: window, now: now, where: test)
            }
            switch step {
            case .next: continue
            case .returned(let holds): return holds
            case .inconsistentStore: return nil
            }
        }
    }
}
