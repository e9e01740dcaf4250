/// The instructions of rule bytecode. An instruction is one 32-bit word — opcode in the low
/// 8 bits, operand `A` in the high 24 bits — followed by the extra words its opcode takes
/// (64-bit immediates as two words, low half first). docs/bytecode.md documents each one.
///
/// Values live on a stack of 64-bit slots typed by the verifier: Bool as 0/1; Int, Date and
/// Duration as Int64 (milliseconds for the last two); Double as its IEEE-754 bits; String as a
/// reference. Event collections live on a second stack.
public enum Opcode: UInt8, Sendable, Hashable, CaseIterable {
    /// Ends the program (or a `where` predicate) with the Bool on top of the stack.
    case ret = 0x01
    case pushBool = 0x02
    case pushInt = 0x03
    case pushDouble = 0x04
    case pushString = 0x05
    case pushDate = 0x06
    case pushDuration = 0x07
    case loadNow = 0x08
    case loadParameter = 0x09
    case loadField = 0x0A

    case not = 0x10
    case jumpIfFalse = 0x11
    case jumpIfTrue = 0x12

    case compareInt = 0x20
    case compareDouble = 0x21
    case compareString = 0x22
    case compareBool = 0x23
    case compareIntImmediate = 0x24
    case compareDoubleImmediate = 0x25
    case compareStringImmediate = 0x26
    case inInts = 0x28
    case inDoubles = 0x29
    case inStrings = 0x2A
    case inBools = 0x2B

    case add = 0x30
    case subtract = 0x31
    case multiply = 0x32
    case divide = 0x33
    case remainder = 0x34
    case negate = 0x35
    case addDouble = 0x38
    case subtractDouble = 0x39
    case multiplyDouble = 0x3A
    case divideDouble = 0x3B
    case remainderDouble = 0x3C
    case negateDouble = 0x3D
    case intToDouble = 0x3E

    case event = 0x40
    case within = 0x41
    case filter = 0x42
    case largestSubset = 0x43
    case smallestSubset = 0x44
    case count = 0x45
    case distinct = 0x46
    case countEvent = 0x47
    case countEventWithin = 0x48

    /// The assembler name shown by the disassembler.
    public var mnemonic: String {
        switch self {
        case .ret: return "RETURN"
        case .pushBool: return "PUSH_BOOL"
        case .pushInt: return "PUSH_INT"
        case .pushDouble: return "PUSH_DOUBLE"
        case .pushString: return "PUSH_STRING"
        case .pushDate: return "PUSH_DATE"
        case .pushDuration: return "PUSH_DURATION"
        case .loadNow: return "LOAD_NOW"
        case .loadParameter: return "LOAD_PARAM"
        case .loadField: return "LOAD_FIELD"
        case .not: return "NOT"
        case .jumpIfFalse: return "JUMP_IF_FALSE"
        case .jumpIfTrue: return "JUMP_IF_TRUE"
        case .compareInt: return "CMP_INT"
        case .compareDouble: return "CMP_DOUBLE"
        case .compareString: return "CMP_STRING"
        case .compareBool: return "CMP_BOOL"
        case .compareIntImmediate: return "CMP_INT_K"
        case .compareDoubleImmediate: return "CMP_DOUBLE_K"
        case .compareStringImmediate: return "CMP_STRING_K"
        case .inInts: return "IN_INTS"
        case .inDoubles: return "IN_DOUBLES"
        case .inStrings: return "IN_STRINGS"
        case .inBools: return "IN_BOOLS"
        case .add: return "ADD"
        case .subtract: return "SUB"
        case .multiply: return "MUL"
        case .divide: return "DIV"
        case .remainder: return "REM"
        case .negate: return "NEG"
        case .addDouble: return "ADD_D"
        case .subtractDouble: return "SUB_D"
        case .multiplyDouble: return "MUL_D"
        case .divideDouble: return "DIV_D"
        case .remainderDouble: return "REM_D"
        case .negateDouble: return "NEG_D"
        case .intToDouble: return "I2D"
        case .event: return "EVENT"
        case .within: return "WITHIN"
        case .filter: return "WHERE"
        case .largestSubset: return "LARGEST_SUBSET"
        case .smallestSubset: return "SMALLEST_SUBSET"
        case .count: return "COUNT"
        case .distinct: return "DISTINCT"
        case .countEvent: return "COUNT_EVENT"
        case .countEventWithin: return "COUNT_EVENT_WITHIN"
        }
    }

    /// How many words follow the instruction word, given its operand `A`.
    public func extraWords(operand a: UInt32) -> Int {
        switch self {
        case .pushInt, .pushDouble, .pushDate, .pushDuration, .compareIntImmediate, .compareDoubleImmediate,
             .within, .countEventWithin:
            return 2
        case .compareStringImmediate:
            return 1
        case .inInts, .inDoubles:
            return 2 * Int(a)
        case .inStrings:
            return Int(a)
        default:
            return 0
        }
    }
}

/// The comparison selected by operand `A` of the `CMP_*` instructions.
public enum ComparisonCode: UInt32, Sendable, Hashable, CaseIterable {
    case equal = 0, notEqual = 1, less = 2, lessOrEqual = 3, greater = 4, greaterOrEqual = 5

    public var symbol: String {
        switch self {
        case .equal: return "=="
        case .notEqual: return "!="
        case .less: return "<"
        case .lessOrEqual: return "<="
        case .greater: return ">"
        case .greaterOrEqual: return ">="
        }
    }

    /// The comparison with its operands swapped (`3 < x` is `x > 3`).
    public var mirrored: ComparisonCode {
        switch self {
        case .equal, .notEqual: return self
        case .less: return .greater
        case .lessOrEqual: return .greaterOrEqual
        case .greater: return .less
        case .greaterOrEqual: return .lessOrEqual
        }
    }

    /// The comparison of operand `A` of a verified `CMP_*` instruction (the verifier proved it
    /// one of the six; anything else reads as `>=`, so the interpreter's switch has no trap).
    @inline(__always)
    init(verified operand: Int) {
        self = ComparisonCode(rawValue: UInt32(truncatingIfNeeded: operand)) ?? .greaterOrEqual
    }

    /// Whether `a` compared with `b` this way holds: the one comparison of the VM, the constant
    /// folder, the checker and the linter.
    @inlinable @inline(__always)
    public func holds<T: Comparable>(_ a: T, _ b: T) -> Bool {
        switch self {
        case .equal: return a == b
        case .notEqual: return a != b
        case .less: return a < b
        case .lessOrEqual: return a <= b
        case .greater: return a > b
        case .greaterOrEqual: return a >= b
        }
    }
}

/// Encoding helpers for instruction words.
public enum Instruction {
    /// The largest value of operand `A`.
    public static let maximumOperand: UInt32 = (1 << 24) - 1

    /// The instruction word for `opcode` with operand `a` (which must fit in 24 bits).
    public static func word(_ opcode: Opcode, _ a: UInt32 = 0) -> UInt32 {
        precondition(a <= maximumOperand, "operand does not fit in 24 bits")
        return UInt32(opcode.rawValue) | a << 8
    }

    /// Two words holding `value`, low half first.
    public static func immediate(_ value: Int64) -> [UInt32] {
        let bits = UInt64(bitPattern: value)
        return [UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32)]
    }

    @inline(__always)
    static func immediate(_ low: UInt32, _ high: UInt32) -> Int64 {
        Int64(bitPattern: UInt64(low) | UInt64(high) << 32)
    }
}
