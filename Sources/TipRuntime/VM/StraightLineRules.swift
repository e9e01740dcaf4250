/// The evaluator's fast path for rules made only of instructions that read parameters, the
/// clock and window counts and compare them: nothing in them can fail, and they touch no
/// collection, string or payload, so they run in a small loop over registers and a value
/// stack on the call stack, without setting up a `Machine`. Taken only over the runtime's own
/// in-memory store, read in place (any other store is read, and checked, by the machine).
/// Which opcodes it takes is the opcode table's `isStraightLine`; its `run` repeats the
/// machine's cases for them, because running these rules on the machine instead made the first
/// benchmark rule 3× slower (docs/decisions.md, "One opcode table"). `StraightLineRuleTests`
/// holds the two to the same answers.
///
/// Also the evaluator's one rewrite of verified code: `COUNT_EVENT_WITHIN` directly followed by
/// `CMP_INT_K` becomes an internal superinstruction that does both. Only the first word's opcode
/// byte changes, so every word (and every pc reported or traced) stays where it was, and a jump
/// landing on the `CMP_INT_K` still finds it intact.
enum StraightLineRules {
    /// The internal opcode `COUNT_EVENT_WITHIN_CMP_K`: never valid in a pack (the verifier knows
    /// no opcode 0xF0), only made by `fuse` from verified code. Operands: those of the
    /// `COUNT_EVENT_WITHIN` it replaces, then the whole `CMP_INT_K` instruction.
    static let countEventWithinCompareImmediate: UInt8 = 0xF0

    /// The internal opcode `JUMP_IF_PARAM_FALSE` (0xF1, made only by `fuse`): `LOAD_PARAM`
    /// directly followed by `JUMP_IF_FALSE`, in one dispatch; the jump's word stays in place.
    static let jumpIfParameterFalse: UInt8 = 0xF1

    /// The deepest value stack a straight-line rule may need.
    static let maximumValueDepth = 16

    /// Rewrites, in verified `code`, each `COUNT_EVENT_WITHIN` that `CMP_INT_K` directly follows
    /// and each `LOAD_PARAM` that `JUMP_IF_FALSE` directly follows.
    static func fuse(_ code: inout [UInt32]) {
        var pc = 0
        while pc < code.count, let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: code[pc])) {
            let next = pc + 1 + opcode.extraWords(operand: code[pc] >> 8)
            let following = next < code.count ? UInt8(truncatingIfNeeded: code[next]) : 0
            if opcode == .countEventWithin, following == Opcode.compareIntImmediate.rawValue {
                code[pc] = code[pc] & ~0xFF | UInt32(countEventWithinCompareImmediate)
            } else if opcode == .loadParameter, following == Opcode.jumpIfFalse.rawValue {
                code[pc] = code[pc] & ~0xFF | UInt32(jumpIfParameterFalse)
            }
            pc = next
        }
    }

    /// Whether verified `code` (with its value stack depth) can take the fast path.
    static func accepts(_ code: [UInt32], valueDepth: Int) -> Bool {
        guard valueDepth <= maximumValueDepth else { return false }
        var pc = 0
        while pc < code.count {
            guard let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: code[pc])), opcode.info.isStraightLine else { return false }
            pc += 1 + opcode.extraWords(operand: code[pc] >> 8)
        }
        return true
    }

    /// Runs the straight-line rule starting at `start` of `code` (fused, verified and accepted)
    /// on `stack`, which has room for the rule's value depth.
    @inline(__always)
    static func run(_ code: UnsafeBufferPointer<UInt32>, from start: Int, parameterSlots: UnsafeBufferPointer<Int64>,
                    store: UnsafePointer<InMemoryDonationStore>, now: Int64, stack: UnsafeMutablePointer<Int64>) -> Bool {
        var pc = start
        var sp = 0
        while true {
            let word = code[pc]
            let a = Int(word >> 8)
            switch UInt8(truncatingIfNeeded: word) {
            case Opcode.ret.rawValue:
                return stack[sp &- 1] != 0
            case countEventWithinCompareImmediate:
                let window = Instruction.immediate(code[pc &+ 1], code[pc &+ 2])
                let count = Int64(store.pointee.withTimestamps(ofEvent: a) { Window.bounds($0, now: now, window: window) }.count)
                let comparison = Int(code[pc &+ 3] >> 8)
                stack[sp] = ComparisonCode(verified: comparison).holds(count, Instruction.immediate(code[pc &+ 4], code[pc &+ 5])) ? 1 : 0
                sp &+= 1; pc &+= 6
            case jumpIfParameterFalse:
                if parameterSlots[a] == 0 {
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
            case Opcode.countEvent.rawValue:
                stack[sp] = Int64(store.pointee.withTimestamps(ofEvent: a) { $0.count }); sp &+= 1; pc &+= 1
            case Opcode.countEventWithin.rawValue:
                let window = Instruction.immediate(code[pc &+ 1], code[pc &+ 2])
                stack[sp] = Int64(store.pointee.withTimestamps(ofEvent: a) { Window.bounds($0, now: now, window: window) }.count)
                sp &+= 1; pc &+= 3
            default:
                preconditionFailure("opcode \(UInt8(truncatingIfNeeded: word)) outside a straight-line rule")
            }
        }
    }
}
