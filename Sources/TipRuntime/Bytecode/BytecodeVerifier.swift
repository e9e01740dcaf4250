/// What the verifier needs to know about the pack around one rule's code.
public struct BytecodeContext: Sendable {
    public var stringCount: Int
    public var parameterTypes: [ValueType]
    /// Field types of each event's payload.
    public var eventFields: [[ValueType]]

    public init(stringCount: Int, parameterTypes: [ValueType], eventFields: [[ValueType]]) {
        self.stringCount = stringCount
        self.parameterTypes = parameterTypes
        self.eventFields = eventFields
    }

    public init(pack: RulePack) {
        self.init(stringCount: pack.strings.count, parameterTypes: pack.parameters.map(\.type),
                  eventFields: pack.events.map { $0.fields.map(\.type) })
    }
}

/// What verification proved about a rule's code: the VM sizes its stacks from it.
public struct VerifiedCodeShape: Sendable, Hashable {
    public var maximumValueDepth: Int
    public var maximumCollectionDepth: Int
}

/// Proves a rule's bytecode well formed and well typed in one linear pass with a type stack
/// (WebAssembly-style): every opcode known, every operand in bounds, every jump forward to an
/// instruction boundary inside its block with the same stack types as the fall-through path,
/// every `WHERE` predicate a nested block that yields one Bool, and the program ending in
/// `RETURN` with exactly one Bool on the stack. After this the VM needs no per-instruction checks.
public struct BytecodeVerifier {
    enum SlotType: Hashable {
        case value(ValueType)
        case collection(event: Int)
    }

    let code: [UInt32]
    let context: BytecodeContext
    /// Byte offset of word 0, for error messages.
    let baseOffset: Int

    /// Verifies `code`; `baseOffset` is the byte offset of its first word in the pack.
    public static func verify(_ code: [UInt32], context: BytecodeContext, baseOffset: Int = 0) throws(RulePackError) -> VerifiedCodeShape {
        var ignored: [SlotType?] = []
        return try verify(code, context: context, baseOffset: baseOffset, resultTypes: &ignored, recording: false)
    }

    /// The type each instruction leaves on top of the stack (nil for jumps and RETURN), for
    /// turning a trace's raw slots back into values.
    static func resultTypes(_ code: [UInt32], context: BytecodeContext) throws(RulePackError) -> [SlotType?] {
        var types = [SlotType?](repeating: nil, count: code.count)
        _ = try verify(code, context: context, baseOffset: 0, resultTypes: &types, recording: true)
        return types
    }

    private static func verify(_ code: [UInt32], context: BytecodeContext, baseOffset: Int,
                               resultTypes: inout [SlotType?], recording: Bool) throws(RulePackError) -> VerifiedCodeShape {
        let verifier = BytecodeVerifier(code: code, context: context, baseOffset: baseOffset)
        if code.isEmpty { throw RulePackError(.invalidBytecode, "a rule has no code", offset: baseOffset) }
        let shape = try verifier.verifyBlock(start: 0, end: code.count, fieldEvent: nil, nesting: 0,
                                             resultTypes: &resultTypes, recording: recording)
        return VerifiedCodeShape(maximumValueDepth: shape.values, maximumCollectionDepth: shape.collections)
    }

    private func fail(_ pc: Int, _ message: String) -> RulePackError {
        RulePackError(.invalidBytecode, "instruction at word \(pc): \(message)", offset: baseOffset + 4 * pc)
    }

    private func verifyBlock(start: Int, end: Int, fieldEvent: Int?, nesting: Int,
                             resultTypes: inout [SlotType?], recording: Bool) throws(RulePackError) -> (values: Int, collections: Int) {
        var stack: [SlotType] = []
        var valueDepth = 0, collectionDepth = 0
        var maxValues = 0, maxCollections = 0
        var pending: [Int: [SlotType]] = [:]
        var pc = start

        func pop(_ pc: Int, _ what: String) throws(RulePackError) -> SlotType {
            guard let top = stack.popLast() else { throw fail(pc, "\(what) needs an operand but the stack is empty") }
            if case .collection = top { collectionDepth -= 1 } else { valueDepth -= 1 }
            return top
        }
        func popValue(_ pc: Int, _ what: String) throws(RulePackError) -> ValueType {
            guard case .value(let type) = try pop(pc, what) else { throw fail(pc, "\(what) needs a value, found an event collection") }
            return type
        }
        func popValue(_ pc: Int, _ what: String, _ allowed: Set<ValueType>) throws(RulePackError) -> ValueType {
            let type = try popValue(pc, what)
            if !allowed.contains(type) { throw fail(pc, "\(what) cannot take a \(type)") }
            return type
        }
        func popCollection(_ pc: Int, _ what: String) throws(RulePackError) -> Int {
            guard case .collection(let event) = try pop(pc, what) else { throw fail(pc, "\(what) needs an event collection") }
            return event
        }
        func push(_ slot: SlotType) throws(RulePackError) {
            if recording { resultTypes[pc] = slot }
            stack.append(slot)
            if case .collection = slot { collectionDepth += 1 } else { valueDepth += 1 }
            maxValues = max(maxValues, valueDepth)
            maxCollections = max(maxCollections, collectionDepth)
            if stack.count > PackFormat.maximumStackDepth {
                throw RulePackError(.limitExceeded, "the stack grows deeper than \(PackFormat.maximumStackDepth)", offset: baseOffset + 4 * pc)
            }
        }
        func field(_ pc: Int, event: Int, _ a: UInt32) throws(RulePackError) -> ValueType {
            let fields = context.eventFields[event]
            guard Int(a) < fields.count else { throw fail(pc, "field \(a) out of bounds (event \(event) has \(fields.count))") }
            return fields[Int(a)]
        }
        let numbers: Set<ValueType> = [.int, .date, .duration]

        while pc < end {
            if let expected = pending.removeValue(forKey: pc), expected != stack {
                throw fail(pc, "a jump arrives here with a different stack than the fall-through path")
            }
            let word = code[pc]
            guard let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: word)) else {
                throw fail(pc, "unknown opcode 0x\(String(word & 0xFF, radix: 16))")
            }
            let a = word >> 8
            let extra = opcode.extraWords(operand: a)
            guard extra <= end - pc - 1 else { throw fail(pc, "\(opcode.mnemonic) runs past the end of its block") }
            let next = pc + 1 + extra
            func immediate(_ index: Int) -> Int64 { Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index]) }
            func requireZeroOperand() throws(RulePackError) {
                if a != 0 { throw fail(pc, "\(opcode.mnemonic) takes no operand but has \(a)") }
            }
            func comparison(_ limit: UInt32) throws(RulePackError) {
                if a >= limit { throw fail(pc, "unknown comparison \(a)") }
            }

            switch opcode {
            case .ret:
                try requireZeroOperand()
                guard stack == [.value(.bool)] else { throw fail(pc, "RETURN needs exactly one Bool on the stack") }
                guard next == end else { throw fail(pc, "RETURN before the end of its block") }
                guard pending.isEmpty else { throw fail(pc, "a jump does not land on an instruction boundary") }
                return (maxValues, maxCollections)
            case .pushBool:
                if a > 1 { throw fail(pc, "PUSH_BOOL operand must be 0 or 1") }
                try push(.value(.bool))
            case .pushInt: try requireZeroOperand(); try push(.value(.int))
            case .pushDouble: try requireZeroOperand(); try push(.value(.double))
            case .pushDate: try requireZeroOperand(); try push(.value(.date))
            case .pushDuration: try requireZeroOperand(); try push(.value(.duration))
            case .pushString:
                guard Int(a) < context.stringCount else { throw fail(pc, "string \(a) out of bounds") }
                try push(.value(.string))
            case .loadNow: try requireZeroOperand(); try push(.value(.date))
            case .loadParameter:
                guard Int(a) < context.parameterTypes.count else { throw fail(pc, "parameter \(a) out of bounds") }
                try push(.value(context.parameterTypes[Int(a)]))
            case .loadField:
                guard let event = fieldEvent else { throw fail(pc, "LOAD_FIELD outside a WHERE predicate") }
                try push(.value(try field(pc, event: event, a)))
            case .not:
                try requireZeroOperand()
                _ = try popValue(pc, "NOT", [.bool]); try push(.value(.bool))
            case .jumpIfFalse, .jumpIfTrue:
                _ = try popValue(pc, opcode.mnemonic, [.bool])
                let target = next + Int(a)
                guard a > 0, target < end else { throw fail(pc, "jump target \(target) is outside its block") }
                var arriving = stack
                arriving.append(.value(.bool))
                if let other = pending[target], other != arriving { throw fail(pc, "two jumps reach word \(target) with different stacks") }
                pending[target] = arriving
            case .compareInt:
                try comparison(6)
                let right = try popValue(pc, "CMP_INT", numbers)
                let left = try popValue(pc, "CMP_INT", numbers)
                if left != right { throw fail(pc, "CMP_INT compares a \(left) with a \(right)") }
                try push(.value(.bool))
            case .compareDouble, .compareString, .compareBool:
                let type: ValueType = opcode == .compareDouble ? .double : opcode == .compareString ? .string : .bool
                try comparison(type == .bool ? 2 : 6)
                _ = try popValue(pc, opcode.mnemonic, [type]); _ = try popValue(pc, opcode.mnemonic, [type])
                try push(.value(.bool))
            case .compareIntImmediate:
                try comparison(6); _ = try popValue(pc, "CMP_INT_K", numbers); try push(.value(.bool))
            case .compareDoubleImmediate:
                try comparison(6); _ = try popValue(pc, "CMP_DOUBLE_K", [.double]); try push(.value(.bool))
            case .compareStringImmediate:
                try comparison(6)
                guard Int(code[pc + 1]) < context.stringCount else { throw fail(pc, "string \(code[pc + 1]) out of bounds") }
                _ = try popValue(pc, "CMP_STRING_K", [.string]); try push(.value(.bool))
            case .inInts: _ = try popValue(pc, "IN_INTS", numbers); try push(.value(.bool))
            case .inDoubles: _ = try popValue(pc, "IN_DOUBLES", [.double]); try push(.value(.bool))
            case .inStrings:
                for index in 0..<Int(a) where Int(code[pc + 1 + index]) >= context.stringCount {
                    throw fail(pc, "string \(code[pc + 1 + index]) out of bounds")
                }
                _ = try popValue(pc, "IN_STRINGS", [.string]); try push(.value(.bool))
            case .inBools:
                if a > 3 { throw fail(pc, "IN_BOOLS mask must be at most 3") }
                _ = try popValue(pc, "IN_BOOLS", [.bool]); try push(.value(.bool))
            case .add, .subtract:
                try requireZeroOperand()
                let right = try popValue(pc, opcode.mnemonic), left = try popValue(pc, opcode.mnemonic)
                let result: ValueType?
                switch (left, right) {
                case (.int, .int): result = .int
                case (.date, .duration): result = .date
                case (.duration, .date): result = opcode == .add ? .date : nil
                case (.duration, .duration): result = .duration
                case (.date, .date): result = opcode == .subtract ? .duration : nil
                default: result = nil
                }
                guard let result else { throw fail(pc, "\(opcode.mnemonic) cannot take a \(left) and a \(right)") }
                try push(.value(result))
            case .multiply, .divide, .remainder:
                try requireZeroOperand()
                _ = try popValue(pc, opcode.mnemonic, [.int]); _ = try popValue(pc, opcode.mnemonic, [.int])
                try push(.value(.int))
            case .negate:
                try requireZeroOperand()
                try push(.value(try popValue(pc, "NEG", [.int, .duration])))
            case .addDouble, .subtractDouble, .multiplyDouble, .divideDouble, .remainderDouble:
                try requireZeroOperand()
                _ = try popValue(pc, opcode.mnemonic, [.double]); _ = try popValue(pc, opcode.mnemonic, [.double])
                try push(.value(.double))
            case .negateDouble:
                try requireZeroOperand(); _ = try popValue(pc, "NEG_D", [.double]); try push(.value(.double))
            case .intToDouble:
                try requireZeroOperand(); _ = try popValue(pc, "I2D", [.int]); try push(.value(.double))
            case .event, .countEvent, .countEventWithin:
                guard Int(a) < context.eventFields.count else { throw fail(pc, "event \(a) out of bounds") }
                try push(opcode == .event ? .collection(event: Int(a)) : .value(.int))
            case .within:
                try requireZeroOperand()
                try push(.collection(event: try popCollection(pc, "WITHIN")))
            case .filter:
                let event = try popCollection(pc, "WHERE")
                guard nesting + 1 <= PackFormat.maximumPredicateNesting else {
                    throw RulePackError(.limitExceeded, "WHERE predicates nest deeper than \(PackFormat.maximumPredicateNesting)", offset: baseOffset + 4 * pc)
                }
                let blockEnd = pc + 1 + Int(a)
                guard a > 0, blockEnd <= end else { throw fail(pc, "WHERE predicate runs past the end of its block") }
                let inner = try verifyBlock(start: pc + 1, end: blockEnd, fieldEvent: event, nesting: nesting + 1,
                                            resultTypes: &resultTypes, recording: recording)
                maxValues = max(maxValues, valueDepth + inner.values)
                maxCollections = max(maxCollections, collectionDepth + 1 + inner.collections)
                try push(.collection(event: event))
                pc = blockEnd
                continue
            case .largestSubset, .smallestSubset:
                let event = try popCollection(pc, opcode.mnemonic)
                _ = try field(pc, event: event, a)
                try push(.collection(event: event))
            case .count:
                try requireZeroOperand()
                _ = try popCollection(pc, "COUNT"); try push(.value(.int))
            case .distinct:
                let event = try popCollection(pc, "DISTINCT")
                _ = try field(pc, event: event, a)
                try push(.value(.int))
            }
            pc = next
        }
        throw fail(max(start, end - 1), "the block does not end with RETURN")
    }
}
