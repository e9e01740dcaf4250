/// The evaluator's fast path for rules made only of instructions that read parameters, the
/// clock, counts of donations (in a window, passing a field test) and other tips' records
/// (whether one is invalidated, how many of its displays or invalidations lie in a window) and
/// compare them: they make no collection and touch no string, and nothing in them can fail but
/// a field test's payload read over a store made for another pack (the machine then runs the
/// rule), so they run over registers and a value stack on the call stack, without setting up a
/// `Machine`: the one interpreter loop (`InterpreterContext.interpret`) in its `Registers` mode. Taken
/// only over the runtime's own in-memory store, read in place (any other store is read, and
/// checked, by the machine). Which opcodes it takes is the opcode table's `isStraightLine`
/// (running these rules on the machine instead made the first benchmark rule 3× slower:
/// docs/decisions.md, "One opcode table"). `StraightLineRuleTests` holds the two modes to the
/// reference's answers.
///
/// Also the evaluator's one rewrite of verified code: instruction sequences that one dispatch
/// can do become the opcode table's fused instructions (`fuse`). Only the first word's opcode
/// byte changes, so every word (and every pc reported or traced) stays where it was, and a
/// jump landing on a later word of the sequence still finds it intact.
enum StraightLineRules {
    /// The deepest value stack a straight-line rule may need.
    static let maximumValueDepth = 16

    /// Rewrites, in verified `code`, each `COUNT_EVENT_WITHIN` that `CMP_INT_K` directly follows,
    /// each `LOAD_PARAM` that `JUMP_IF_FALSE` directly follows, each `WHERE` whose block
    /// `COUNT` directly follows, and each `TIP_DISPLAYS` or `TIP_INVALIDATIONS` that `COUNT`
    /// directly follows, or `WITHIN` then `COUNT`, and each `EVENT` that a counted field test
    /// follows (`countedWhereExtent`).
    static func fuse(_ code: inout [UInt32]) {
        var pc = 0
        while pc < code.count, let opcode = Opcode(rawValue: Instruction.opcodeByte(code[pc])) {
            let next = pc + 1 + opcode.extraWords(operand: code[pc] >> 8)
            if let fused = fusion(of: opcode, at: pc, next: next, in: code) {
                code[pc] = code[pc] & ~0xFF | UInt32(fused.rawValue)
            }
            pc = next
        }
    }

    /// The fused instruction that the `opcode` at `pc` of verified `code` (the next instruction
    /// at `next`) starts, if any.
    private static func fusion(of opcode: Opcode, at pc: Int, next: Int, in code: [UInt32]) -> Opcode? {
        func follows(_ follower: Opcode, at position: Int) -> Bool { position < code.count && Instruction.word(code[position], is: follower) }
        switch opcode {
        case .countEventWithin where follows(.compareIntImmediate, at: next): return .countEventWithinCompareImmediate
        case .loadParameter where follows(.jumpIfFalse, at: next): return .jumpIfParameterFalse
        case .filter where follows(.count, at: next + Int(code[pc] >> 8)): return .filterThenCount
        case .event:
            let counted = code.withUnsafeBufferPointer { code in
                countedWhereExtent(code, at: pc).flatMap { FieldTest.shape(code, at: $0.predicate) } != nil
            }
            return counted ? .countEventWhere : nil
        case .tipDisplays, .tipInvalidations:
            // `COUNT`, or `WITHIN` then `COUNT`, follows.
            guard follows(.count, at: next) || follows(.within, at: next) && follows(.count, at: next + 3) else { return nil }
            return opcode == .tipDisplays ? .countTipDisplays : .countTipInvalidations
        default: return nil
        }
    }

    /// The window of a fused tip count whose `TIP_*` word is at `pc`, and where the instruction
    /// after its `COUNT` starts; no window when `COUNT` directly follows.
    @inline(__always)
    static func tipCountExtent(_ code: UnsafeBufferPointer<UInt32>, at pc: Int) -> (window: Int64?, next: Int) {
        guard Instruction.word(code[pc &+ 1], is: .within) else { return (nil, pc &+ 2) }
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
        if Instruction.word(code[filter], is: .within) {
            guard filter &+ 3 < code.count else { return nil }
            window = Instruction.immediate(code[filter &+ 1], code[filter &+ 2])
            filter &+= 3
        }
        guard Instruction.word(code[filter], is: .filter) || Instruction.word(code[filter], is: .filterThenCount) else { return nil }
        let count = filter &+ 1 &+ Int(code[filter] >> 8)
        guard count < code.count, Instruction.word(code[count], is: .count) else { return nil }
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
            guard let opcode = Opcode(rawValue: Instruction.opcodeByte(code[pc])), opcode.info.isStraightLine else { return false }
            if opcode.info.operand == .jump { jumpTargets.append(pc + 1 + Int(code[pc] >> 8)) }
            // A fused count's sequence runs whole in its one dispatch (its collection words are not
            // straight-line); any other fused instruction's later words are instructions of their own.
            switch opcode {
            case .countTipDisplays, .countTipInvalidations:
                pc = code.withUnsafeBufferPointer { tipCountExtent($0, at: pc).next }
            case .countEventWhere:
                guard let extent = code.withUnsafeBufferPointer({ countedWhereExtent($0, at: pc) }) else { return false }
                pc = extent.next
            default:
                pc += 1 + opcode.extraWords(operand: code[pc] >> 8)
            }
        }
        // A rule is a few dozen instructions: a linear search is the cheap one.
        return jumpTargets.allSatisfy { $0 == code.count || starts.contains($0) }
    }

    /// The fast path's mode of the interpreter: registers, the value stack on the call stack,
    /// and the in-memory store read in place. It never runs code `accepts` refuses, so the
    /// machine's requirements trap.
    struct Registers: InterpreterContext {
        let code: UnsafeBufferPointer<UInt32>
        let stack: UnsafeMutablePointer<Int64>
        let parameterSlots: UnsafeBufferPointer<Int64>
        let now: Int64
        let keySlot: Int64
        /// The in-memory store, read in place (never through snapshots: the reader this mode
        /// counts with is made with none, so its copy of the loop has no snapshot path).
        let store: UnsafePointer<InMemoryDonationStore>
        let eventFieldTypes: UnsafeBufferPointer<[ValueType]>
        var tracing: Bool { false }
        static var runsOnlyStraightLine: Bool { true }

        /// A straight-line rule fails only on a store made for another pack: the machine reruns it.
        func fail(_ reason: EvaluationFailure, _ pc: Int) -> Bool? { nil }
        func record(_ pc: Int, _ sp: Int) {}
        @inline(__always)
        func countDonations(_ event: Int, within window: Int64?, where test: FieldTest?) -> Int? {
            StoreReader(store: store, snapshots: nil, eventFieldTypes: eventFieldTypes).count(event, within: window, now: now, where: test)
        }

        func loadField(_ field: Int) -> Int64 { Self.notStraightLine() }
        func compareStrings(_ comparison: Int, _ left: Int64, _ right: Int64) -> Bool { Self.notStraightLine() }
        func compareString(_ comparison: Int, _ left: Int64, toConstant constant: Int) -> Bool { Self.notStraightLine() }
        func string(_ reference: Int64, isInConstantsAt start: Int, count: Int) -> Bool { Self.notStraightLine() }
        func isInvalidated(tip: Int, keySlot: Int64, _ records: (any TipRecordReader)?) -> Bool { Self.notStraightLine() }
        func pushTipRecords(tip: Int, keySlot: Int64?, displays: Bool, _ records: (any TipRecordReader)?) { Self.notStraightLine() }
        func pushEventCollection(_ event: Int) -> Bool { Self.notStraightLine() }
        func narrowTopToWindow(_ window: Int64) -> Bool { Self.notStraightLine() }
        func filterTop(predicateAt start: Int, sp: Int, at: Int, records: (any TipRecordReader)?) -> Bool { Self.notStraightLine() }
        func popCount(matching test: FieldTest) -> Int? { Self.notStraightLine() }
        func narrowTopToSubset(field: Int, largest: Bool) -> Bool { Self.notStraightLine() }
        func popCollectionCount() -> Int { Self.notStraightLine() }
        func popDistinctCount(field: Int) -> Int? { Self.notStraightLine() }

        private static func notStraightLine() -> Never {
            preconditionFailure("the fast path ran an instruction that is not straight-line")
        }
    }

    /// Runs the straight-line rule starting at `start` of `code` (fused, verified and accepted)
    /// on `stack`, which has room for the rule's value depth, over the in-memory store read in
    /// place and the tips' records in `records`. Nil when the store's data for an event whose
    /// payload the rule reads does not fit the pack (a store made for another pack): the machine
    /// then runs the rule, and says where it failed.
    @inline(__always)
    static func run(_ code: UnsafeBufferPointer<UInt32>, from start: Int, parameterSlots: UnsafeBufferPointer<Int64>,
                    store: UnsafePointer<InMemoryDonationStore>, eventFieldTypes: UnsafeBufferPointer<[ValueType]>,
                    records: (any TipRecordReader)?, keySlot: Int64, now: Int64, stack: UnsafeMutablePointer<Int64>) -> Bool? {
        var registers = Registers(code: code, stack: stack, parameterSlots: parameterSlots, now: now, keySlot: keySlot,
                                  store: store, eventFieldTypes: eventFieldTypes)
        return registers.interpret(from: start, sp: 0, records: records)
    }
}
