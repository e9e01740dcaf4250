/// The instructions of rule bytecode. An instruction is one 32-bit word — opcode in the low
/// 8 bits, operand `A` in the high 24 bits — followed by the extra words its opcode takes
/// (64-bit immediates as two words, low half first). docs/bytecode.md documents each one.
///
/// Values live on a stack of 64-bit slots typed by the verifier: Bool as 0/1; Int, Date and
/// Duration as Int64 (milliseconds for the last two); Double as its IEEE-754 bits; String as a
/// reference. Event collections live on a second stack.
package enum Opcode: UInt8, Sendable, Hashable, CaseIterable {
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
    /// Format 2: the key of the tip instance being evaluated.
    case loadKey = 0x0B

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

    // Format 2, tips about tips: another tip's recorded state (never its rules).
    case tipInvalidated = 0x50
    case tipDisplays = 0x51
    case tipInvalidations = 0x52
    case tipInvalidatedKeyed = 0x53
    case tipDisplaysKeyed = 0x54
    case tipInvalidationsKeyed = 0x55

    // Fused instructions: never in a pack (the verifier rejects them); made when a pack is
    // loaded by rewriting the opcode byte of a sequence's first word (`StraightLineRules.fuse`),
    // every other word staying in place. Each runs its sequence in one dispatch; traced, it runs
    // as the word it rewrote (`info.fusedFrom`). docs/bytecode.md describes each sequence.
    case countEventWithinCompareImmediate = 0xF0
    case jumpIfParameterFalse = 0xF1
    case filterThenCount = 0xF2
    case countTipDisplays = 0xF3
    case countTipInvalidations = 0xF4
    case countEventWhere = 0xF5

    /// Everything about this opcode except what it does, in the manner of Lua's `lopcodes.h`:
    /// the disassembler, the verifier, the evaluator's fast path, `WindowAnalysis`,
    /// `DatedWakeups` and the compiler read it here; what the instruction does is its case in the
    /// one interpreter loop (`InterpreterContext.interpret`). docs/bytecode.md documents each one.
    package var info: OpcodeInfo {
        switch self {
        //                                  mnemonic               A                 extra       pops  popped          result          straight-line
        case .ret:                    .init("RETURN",              .none,            .none,      0,    nil,            .own,           true)
        case .pushBool:               .init("PUSH_BOOL",           .flag,            .none,      0,    nil,            .value(.bool),  true)
        case .pushInt:                .init("PUSH_INT",            .none,            .int,       0,    nil,            .value(.int),   true)
        case .pushDouble:             .init("PUSH_DOUBLE",         .none,            .double,    0,    nil,            .value(.double), false)
        case .pushString:             .init("PUSH_STRING",         .string,          .none,      0,    nil,            .value(.string), false)
        case .pushDate:               .init("PUSH_DATE",           .none,            .date,      0,    nil,            .value(.date),  true)
        case .pushDuration:           .init("PUSH_DURATION",       .none,            .duration,  0,    nil,            .value(.duration), true)
        case .loadNow:                .init("LOAD_NOW",            .none,            .none,      0,    nil,            .value(.date),  true)
        case .loadParameter:          .init("LOAD_PARAM",          .parameter,       .none,      0,    nil,            .parameterType, true)
        case .loadField:              .init("LOAD_FIELD",          .field,           .none,      0,    nil,            .fieldType,     false)
        case .not:                    .init("NOT",                 .none,            .none,      1,    .bool,          .value(.bool),  true)
        case .jumpIfFalse:            .init("JUMP_IF_FALSE",       .jump,            .none,      1,    .bool,          .own,           true)
        case .jumpIfTrue:             .init("JUMP_IF_TRUE",        .jump,            .none,      1,    .bool,          .own,           true)
        case .compareInt:             .init("CMP_INT",             .comparison,      .none,      2,    .number,        .value(.bool),  true)
        case .compareDouble:          .init("CMP_DOUBLE",          .comparison,      .none,      2,    .double,        .value(.bool),  false)
        case .compareString:          .init("CMP_STRING",          .comparison,      .none,      2,    .string,        .value(.bool),  false)
        case .compareBool:            .init("CMP_BOOL",            .equality,        .none,      2,    .bool,          .value(.bool),  true)
        case .compareIntImmediate:    .init("CMP_INT_K",           .comparison,      .int,       1,    .number,        .value(.bool),  true)
        case .compareDoubleImmediate: .init("CMP_DOUBLE_K",        .comparison,      .double,    1,    .double,        .value(.bool),  false)
        case .compareStringImmediate: .init("CMP_STRING_K",        .comparison,      .string,    1,    .string,        .value(.bool),  false)
        case .inInts:                 .init("IN_INTS",             .listLength,      .ints,      1,    .number,        .value(.bool),  false)
        case .inDoubles:              .init("IN_DOUBLES",          .listLength,      .doubles,   1,    .double,        .value(.bool),  false)
        case .inStrings:              .init("IN_STRINGS",          .listLength,      .strings,   1,    .string,        .value(.bool),  false)
        case .inBools:                .init("IN_BOOLS",            .boolMask,        .none,      1,    .bool,          .value(.bool),  false)
        case .add:                    .init("ADD",                 .none,            .none,      2,    .anyValue,      .own,           false)
        case .subtract:               .init("SUB",                 .none,            .none,      2,    .anyValue,      .own,           false)
        case .multiply:               .init("MUL",                 .none,            .none,      2,    .int,           .value(.int),   false)
        case .divide:                 .init("DIV",                 .none,            .none,      2,    .int,           .value(.int),   false)
        case .remainder:              .init("REM",                 .none,            .none,      2,    .int,           .value(.int),   false)
        case .negate:                 .init("NEG",                 .none,            .none,      1,    .intOrDuration, .operandType,   false)
        case .addDouble:              .init("ADD_D",               .none,            .none,      2,    .double,        .value(.double), false)
        case .subtractDouble:         .init("SUB_D",               .none,            .none,      2,    .double,        .value(.double), false)
        case .multiplyDouble:         .init("MUL_D",               .none,            .none,      2,    .double,        .value(.double), false)
        case .divideDouble:           .init("DIV_D",               .none,            .none,      2,    .double,        .value(.double), false)
        case .remainderDouble:        .init("REM_D",               .none,            .none,      2,    .double,        .value(.double), false)
        case .negateDouble:           .init("NEG_D",               .none,            .none,      1,    .double,        .value(.double), false)
        case .intToDouble:            .init("I2D",                 .none,            .none,      1,    .int,           .value(.double), false)
        case .event:                  .init("EVENT",               .event,           .none,      0,    nil,            .eventCollection, false)
        case .within:                 .init("WITHIN",              .none,            .window,    1,    .collection,    .operandType,   false)
        case .filter:                 .init("WHERE",               .blockLength,     .none,      1,    .collection,    .operandType,   false)
        case .largestSubset:          .init("LARGEST_SUBSET",      .collectionField, .none,      1,    .collection,    .operandType,   false)
        case .smallestSubset:         .init("SMALLEST_SUBSET",     .collectionField, .none,      1,    .collection,    .operandType,   false)
        case .count:                  .init("COUNT",               .none,            .none,      1,    .collection,    .value(.int),   false)
        case .distinct:               .init("DISTINCT",            .collectionField, .none,      1,    .collection,    .value(.int),   false)
        case .countEvent:             .init("COUNT_EVENT",         .event,           .none,      0,    nil,            .value(.int),   true)
        case .countEventWithin:       .init("COUNT_EVENT_WITHIN",  .event,           .window,    0,    nil,            .value(.int),   true)
        case .loadKey:                .init("LOAD_KEY",            .none,            .none,      0,    nil,            .keyType,       false)
        case .tipInvalidated:         .init("TIP_INVALIDATED",     .tip,             .none,      0,    nil,            .value(.bool),  true)
        case .tipDisplays:            .init("TIP_DISPLAYS",        .tip,             .none,      0,    nil,            .tipDisplays,   false)
        case .tipInvalidations:       .init("TIP_INVALIDATIONS",   .tip,             .none,      0,    nil,            .tipInvalidations, false)
        case .tipInvalidatedKeyed:    .init("TIP_INVALIDATED_KEYED", .keyedTip,      .none,      1,    .anyValue,      .value(.bool),  false)
        case .tipDisplaysKeyed:       .init("TIP_DISPLAYS_KEYED",  .keyedTip,        .none,      1,    .anyValue,      .tipDisplays,   false)
        case .tipInvalidationsKeyed:  .init("TIP_INVALIDATIONS_KEYED", .keyedTip,    .none,      1,    .anyValue,      .tipInvalidations, false)
        // A fused row has the layout and stack effect of the word it rewrites (the sequence's
        // other words follow in place), so whatever steps through code word by word reads it alike.
        case .countEventWithinCompareImmediate: .fused("COUNT_EVENT_WITHIN_CMP_K", from: .countEventWithin, straightLine: true)
        case .jumpIfParameterFalse:   .fused("JUMP_IF_PARAM_FALSE",  from: .loadParameter,   straightLine: true)
        case .filterThenCount:        .fused("WHERE_COUNT",          from: .filter,          straightLine: false)
        case .countTipDisplays:       .fused("TIP_DISPLAYS_COUNT",   from: .tipDisplays,     straightLine: true)
        case .countTipInvalidations:  .fused("TIP_INVALIDATIONS_COUNT", from: .tipInvalidations, straightLine: true)
        case .countEventWhere:        .fused("COUNT_EVENT_WHERE",    from: .event,           straightLine: true)
        }
    }

    /// The opcodes a pack may hold: every row but the fused ones.
    package static let packOpcodes = allCases.filter { $0.info.fusedFrom == nil }

    /// The instruction a traced evaluation runs for this opcode: a fused one runs unfused (the
    /// instruction whose word it rewrote; the rest of its sequence then runs, and is traced, on
    /// its own), any other as itself.
    @inline(__always)
    static func unfused(_ byte: UInt8) -> UInt8 {
        guard byte >= Opcode.countEventWithinCompareImmediate.rawValue, let opcode = Opcode(rawValue: byte),
              let base = opcode.info.fusedFrom else { return byte }
        return base.rawValue
    }

    /// The assembler name shown by the disassembler.
    package var mnemonic: String { info.mnemonic }

    /// How many words follow the instruction word, given its operand `A`.
    @inline(__always)
    package func extraWords(operand a: UInt32) -> Int { info.extra.count(operand: a) }
}

/// One row of the opcode table (`Opcode.info`).
package struct OpcodeInfo: Sendable, Hashable {
    /// The assembler name shown by the disassembler.
    package let mnemonic: String
    /// What operand `A` means.
    package let operand: OperandMeaning
    /// What follows the instruction word.
    package let extra: ExtraWords
    /// How many slots the instruction pops (values, or one collection), each `popped`.
    package let pops: Int
    package let popped: StackOperand?
    /// What it pushes.
    package let result: StackResult
    /// Whether a rule made only of such instructions may take the evaluator's fast path
    /// (`StraightLineRules`): nothing in it can fail, and it touches no collection, string or
    /// payload. (`LOAD_PARAM` of a String parameter too: its slot is a reference only the full
    /// machine resolves, but verified code only compares it with `CMP_STRING*`, which is not.)
    package let isStraightLine: Bool
    /// For a fused instruction (never in a pack), the pack instruction whose word it rewrites;
    /// nil for the instructions of the pack format.
    package let fusedFrom: Opcode?

    init(_ mnemonic: String, _ operand: OperandMeaning, _ extra: ExtraWords, _ pops: Int, _ popped: StackOperand?,
         _ result: StackResult, _ isStraightLine: Bool, fusedFrom: Opcode? = nil) {
        self.mnemonic = mnemonic
        self.operand = operand
        self.extra = extra
        self.pops = pops
        self.popped = popped
        self.result = result
        self.isStraightLine = isStraightLine
        self.fusedFrom = fusedFrom
    }

    /// The row of a fused instruction: `base`'s layout and stack effect under its own name.
    static func fused(_ mnemonic: String, from base: Opcode, straightLine: Bool) -> OpcodeInfo {
        let info = base.info
        return OpcodeInfo(mnemonic, info.operand, info.extra, info.pops, info.popped, info.result, straightLine, fusedFrom: base)
    }

    /// Whether the instruction pushes a new collection (of event `A`, or of tip `A`'s records).
    package var opensCollection: Bool { result == .eventCollection || result == .tipDisplays || result == .tipInvalidations }
    /// Whether it pops a collection and leaves a value in its place.
    package var closesCollection: Bool { popped == .collection && result != .operandType }
}

/// What operand `A` of an instruction means.
package enum OperandMeaning: Sendable, Hashable {
    /// Nothing: it must be 0.
    case none
    /// A Bool, 0 or 1 (`PUSH_BOOL`).
    case flag
    /// Which Bools a list holds: bit 0 `false`, bit 1 `true` (`IN_BOOLS`).
    case boolMask
    /// A `ComparisonCode`.
    case comparison
    /// `==` or `!=` only.
    case equality
    /// An index into the pack's strings.
    case string
    /// An index into the pack's parameters.
    case parameter
    /// An index into the pack's events.
    case event
    /// A payload field of the donation a `WHERE` predicate is testing.
    case field
    /// A payload field of the event of the collection the instruction pops.
    case collectionField
    /// How many words to jump forward, counted from the next instruction (more than 0).
    case jump
    /// The length in words of the `WHERE` predicate block that follows (more than 0).
    case blockLength
    /// How many constants follow (`IN_*`).
    case listLength
    /// An index into the pack's tips, of a tip without a key.
    case tip
    /// An index into the pack's tips, of a tip with a key: the instruction pops a key of its type.
    case keyedTip
}

/// What follows an instruction word: 64-bit immediates `K` take two words, low half first.
package enum ExtraWords: Sendable, Hashable {
    case none
    /// One immediate: an Int, a Double's bits, a Date or a Duration in milliseconds.
    case int, double, date, duration
    /// One immediate: a window in milliseconds over the instruction's event or collection.
    case window
    /// One word: an index into the pack's strings.
    case string
    /// `A` immediates (Ints or Doubles' bits).
    case ints, doubles
    /// `A` words, each an index into the pack's strings.
    case strings

    /// How many words these are, given operand `A`.
    @inline(__always)
    package func count(operand a: UInt32) -> Int {
        switch self {
        case .none: return 0
        case .int, .double, .date, .duration, .window: return 2
        case .string: return 1
        case .ints, .doubles: return 2 * Int(a)
        case .strings: return Int(a)
        }
    }
}

/// What an instruction requires of each slot it pops.
package enum StackOperand: Sendable, Hashable {
    case bool, int, double, string
    /// An Int, Date or Duration; when an instruction pops two, they must be alike.
    case number
    /// An Int or a Duration.
    case intOrDuration
    /// Any value (the verifier's own case then decides).
    case anyValue
    /// An event collection.
    case collection

    /// Whether a value of `type` is allowed (never, for a collection).
    package func allows(_ type: ValueType) -> Bool {
        switch self {
        case .bool: return type == .bool
        case .int: return type == .int
        case .double: return type == .double
        case .string: return type == .string
        case .number: return type == .int || type == .date || type == .duration
        case .intOrDuration: return type == .int || type == .duration
        case .anyValue: return true
        case .collection: return false
        }
    }
}

/// What an instruction pushes.
package enum StackResult: Sendable, Hashable {
    /// A value of this type.
    case value(ValueType)
    /// A value of parameter `A`'s type.
    case parameterType
    /// A value of payload field `A`'s type.
    case fieldType
    /// What it popped, of the same type (or the same event's collection).
    case operandType
    /// The collection of all donations of event `A`.
    case eventCollection
    /// A value of the type of the key of the tip whose rule this is.
    case keyType
    /// The displays of tip `A` (of the instance whose key it pops) since its latest reset: a
    /// collection without fields, dated by each display.
    case tipDisplays
    /// The invalidations of tip `A` (of the instance whose key it pops) since its latest reset:
    /// a collection with one field, `reason` (String).
    case tipInvalidations
    /// The verifier's own case decides (`RETURN`, the jumps, `ADD` and `SUB`).
    case own
}

/// The comparison selected by operand `A` of the `CMP_*` instructions.
package enum ComparisonCode: UInt32, Sendable, Hashable, CaseIterable {
    case equal = 0, notEqual = 1, less = 2, lessOrEqual = 3, greater = 4, greaterOrEqual = 5

    package var symbol: String {
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
    package var mirrored: ComparisonCode {
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
    package func holds<T: Comparable>(_ a: T, _ b: T) -> Bool {
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
package enum Instruction {
    /// The largest value of operand `A`.
    package static let maximumOperand: UInt32 = (1 << 24) - 1

    /// The instruction word for `opcode` with operand `a` (which must fit in 24 bits).
    package static func word(_ opcode: Opcode, _ a: UInt32 = 0) -> UInt32 {
        precondition(a <= maximumOperand, "operand does not fit in 24 bits")
        return UInt32(opcode.rawValue) | a << 8
    }

    /// The opcode byte of `word`.
    @inline(__always)
    static func opcodeByte(_ word: UInt32) -> UInt8 { UInt8(truncatingIfNeeded: word) }

    /// Whether `word` is an instruction of `opcode`.
    @inline(__always)
    static func word(_ word: UInt32, is opcode: Opcode) -> Bool { opcodeByte(word) == opcode.rawValue }

    /// Two words holding `value`, low half first.
    package static func immediate(_ value: Int64) -> [UInt32] {
        let bits = UInt64(bitPattern: value)
        return [UInt32(truncatingIfNeeded: bits), UInt32(truncatingIfNeeded: bits >> 32)]
    }

    @inline(__always)
    static func immediate(_ low: UInt32, _ high: UInt32) -> Int64 {
        Int64(bitPattern: UInt64(low) | UInt64(high) << 32)
    }
}
