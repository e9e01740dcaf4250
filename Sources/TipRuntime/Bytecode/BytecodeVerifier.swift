/// What the verifier needs to know about the pack around one rule's code.
package struct BytecodeContext: Sendable {
    package var stringCount: Int
    package var parameterTypes: [ValueType]
    /// Field types of each event's payload.
    package var eventFields: [[ValueType]]
    /// Per tip of the pack, the type of its key (nil for a tip without one).
    package var tipKeyTypes: [ValueType?]
    /// The key type of the tip whose rule this is (`LOAD_KEY`), nil when it has no key.
    package var keyType: ValueType?

    package init(stringCount: Int, parameterTypes: [ValueType], eventFields: [[ValueType]],
                tipKeyTypes: [ValueType?] = [], keyType: ValueType? = nil) {
        self.stringCount = stringCount
        self.parameterTypes = parameterTypes
        self.eventFields = eventFields
        self.tipKeyTypes = tipKeyTypes
        self.keyType = keyType
    }

    /// The context of the rules of tip `tip` (nil: of no tip in particular, so without a key).
    package init(pack: RulePack, tip: Int? = nil) {
        self.init(stringCount: pack.strings.count, parameterTypes: pack.parameters.map(\.type),
                  eventFields: pack.events.map { $0.fields.map(\.type) },
                  tipKeyTypes: pack.tips.map { $0.key?.type }, keyType: tip.flatMap { pack.tips[$0].key?.type })
    }

    /// The collection kind of a tip's displays, after the events: no fields.
    package var displaysCollection: Int { eventFields.count }
    /// The collection kind of a tip's invalidations, after the displays: one field, `reason`.
    package var invalidationsCollection: Int { eventFields.count + 1 }

    /// The field types of a collection kind: an event's payload, or a tip's records' fields.
    func fields(ofCollection collection: Int) -> [ValueType] {
        if collection < eventFields.count { return eventFields[collection] }
        return collection == invalidationsCollection ? [.string] : []
    }
}

/// What verification proved about a rule's code: the VM sizes its stacks from it.
package struct VerifiedCodeShape: Sendable, Hashable {
    package var maximumValueDepth: Int
    package var maximumCollectionDepth: Int
}

/// Proves a rule's bytecode well formed and well typed in one linear pass with a type stack
/// (WebAssembly-style): every opcode known, every operand in bounds, every jump forward to an
/// instruction boundary inside its block with the same stack types as the fall-through path,
/// every `WHERE` predicate a nested block that yields one Bool, and the program ending in
/// `RETURN` with exactly one Bool on the stack. After this the VM needs no per-instruction checks.
package struct BytecodeVerifier {
    enum SlotType: Hashable {
        case value(ValueType)
        case collection(event: Int)
    }

    let code: [UInt32]
    let context: BytecodeContext
    /// Byte offset of word 0, for error messages.
    let baseOffset: Int

    /// Verifies `code`; `baseOffset` is the byte offset of its first word in the pack.
    package static func verify(_ code: [UInt32], context: BytecodeContext, baseOffset: Int = 0) throws(RulePackError) -> VerifiedCodeShape {
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
        func popValue(_ pc: Int, _ what: String, _ operand: StackOperand) throws(RulePackError) -> ValueType {
            guard case .value(let type) = try pop(pc, what) else { throw fail(pc, "\(what) needs a value, found an event collection") }
            if !operand.allows(type) { throw fail(pc, "\(what) cannot take a \(type)") }
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
            let fields = context.fields(ofCollection: event)
            guard Int(a) < fields.count else { throw fail(pc, "field \(a) out of bounds (event \(event) has \(fields.count))") }
            return fields[Int(a)]
        }
        func string(_ pc: Int, _ index: UInt32) throws(RulePackError) {
            guard Int(index) < context.stringCount else { throw fail(pc, "string \(index) out of bounds") }
        }

        while pc < end {
            if let expected = pending.removeValue(forKey: pc), expected != stack {
                throw fail(pc, "a jump arrives here with a different stack than the fall-through path")
            }
            let word = code[pc]
            // The fused rows are made when a pack is loaded, never read from one.
            guard let opcode = Opcode(rawValue: Instruction.opcodeByte(word)), opcode.info.fusedFrom == nil else {
                throw fail(pc, "unknown opcode 0x\(String(word & 0xFF, radix: 16))")
            }
            let info = opcode.info
            let a = word >> 8
            let extra = info.extra.count(operand: a)
            guard extra <= end - pc - 1 else { throw fail(pc, "\(info.mnemonic) runs past the end of its block") }
            let next = pc + 1 + extra

            // Operand A, then the extra words, then the pops, as the table describes them.
            var typeOfA: ValueType?
            switch info.operand {
            case .none: if a != 0 { throw fail(pc, "\(info.mnemonic) takes no operand but has \(a)") }
            case .flag: if a > 1 { throw fail(pc, "\(info.mnemonic) operand must be 0 or 1") }
            case .boolMask: if a > 3 { throw fail(pc, "\(info.mnemonic) mask must be at most 3") }
            case .comparison: if a >= 6 { throw fail(pc, "unknown comparison \(a)") }
            case .equality: if a >= 2 { throw fail(pc, "unknown comparison \(a)") }
            case .string: try string(pc, a)
            case .parameter:
                guard Int(a) < context.parameterTypes.count else { throw fail(pc, "parameter \(a) out of bounds") }
                typeOfA = context.parameterTypes[Int(a)]
            case .event: guard Int(a) < context.eventFields.count else { throw fail(pc, "event \(a) out of bounds") }
            case .field:
                guard let event = fieldEvent else { throw fail(pc, "\(info.mnemonic) outside a WHERE predicate") }
                typeOfA = try field(pc, event: event, a)
            case .collectionField, .jump, .blockLength, .listLength: break
            case .tip, .keyedTip:
                guard Int(a) < context.tipKeyTypes.count else { throw fail(pc, "tip \(a) out of bounds") }
                let keyType = context.tipKeyTypes[Int(a)]
                if info.operand == .tip, keyType != nil { throw fail(pc, "\(info.mnemonic) reads tip \(a), which has a key") }
                if info.operand == .keyedTip, keyType == nil { throw fail(pc, "\(info.mnemonic) reads tip \(a), which has no key") }
                typeOfA = keyType
            }
            switch info.extra {
            case .string: try string(pc, code[pc + 1])
            case .strings: for index in 0..<Int(a) { try string(pc, code[pc + 1 + index]) }
            case .none, .int, .double, .date, .duration, .window, .ints, .doubles: break
            }
            // `first` is the slot popped first: the top, the right operand of two.
            var first: SlotType?, second: SlotType?
            if let popped = info.popped {
                for index in 0..<info.pops {
                    let slot: SlotType = popped == .collection
                        ? .collection(event: try popCollection(pc, info.mnemonic)) : .value(try popValue(pc, info.mnemonic, popped))
                    if index == 0 { first = slot } else { second = slot }
                }
            }
            if info.popped == .number, case .value(let right)? = first, case .value(let left)? = second, left != right {
                throw fail(pc, "\(info.mnemonic) compares a \(left) with a \(right)")
            }
            if info.operand == .keyedTip, case .value(let key)? = first, key != typeOfA {
                throw fail(pc, "\(info.mnemonic) pops a \(key) key for a tip whose key is \(typeOfA.map { "\($0)" } ?? "absent")")
            }
            if info.operand == .collectionField, case .collection(let event)? = first {
                _ = try field(pc, event: event, a)
            }
            if info.operand == .blockLength {
                // A WHERE predicate: the block of the next A words, over the popped collection's event.
                guard case .collection(let event)? = first else { preconditionFailure("\(info.mnemonic) pops no collection") }
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
            }

            switch info.result {
            case .value(let type): try push(.value(type))
            case .parameterType, .fieldType:
                guard let typeOfA else { preconditionFailure("\(info.mnemonic) has no typed operand") }
                try push(.value(typeOfA))
            case .eventCollection: try push(.collection(event: Int(a)))
            case .tipDisplays: try push(.collection(event: context.displaysCollection))
            case .tipInvalidations: try push(.collection(event: context.invalidationsCollection))
            case .keyType:
                guard let keyType = context.keyType else { throw fail(pc, "\(info.mnemonic) in a rule of a tip without a key") }
                try push(.value(keyType))
            case .operandType:
                guard let first else { preconditionFailure("\(info.mnemonic) pushes what it pops but pops nothing") }
                try push(first)
            case .own:
                // The instructions with rules of their own.
                switch opcode {
                case .ret:
                    guard stack == [.value(.bool)] else { throw fail(pc, "RETURN needs exactly one Bool on the stack") }
                    guard next == end else { throw fail(pc, "RETURN before the end of its block") }
                    guard pending.isEmpty else { throw fail(pc, "a jump does not land on an instruction boundary") }
                    return (maxValues, maxCollections)
                case .jumpIfFalse, .jumpIfTrue:
                    let target = next + Int(a)
                    guard a > 0, target < end else { throw fail(pc, "jump target \(target) is outside its block") }
                    var arriving = stack
                    arriving.append(.value(.bool))
                    if let other = pending[target], other != arriving { throw fail(pc, "two jumps reach word \(target) with different stacks") }
                    pending[target] = arriving
                case .add, .subtract:
                    guard case .value(let right)? = first, case .value(let left)? = second else { preconditionFailure("\(info.mnemonic) pops two values") }
                    let result: ValueType?
                    switch (left, right) {
                    case (.int, .int): result = .int
                    case (.date, .duration): result = .date
                    case (.duration, .date): result = opcode == .add ? .date : nil
                    case (.duration, .duration): result = .duration
                    case (.date, .date): result = opcode == .subtract ? .duration : nil
                    default: result = nil
                    }
                    guard let result else { throw fail(pc, "\(info.mnemonic) cannot take a \(left) and a \(right)") }
                    try push(.value(result))
                default:
                    preconditionFailure("\(info.mnemonic) has no verification rule of its own")
                }
            }
            pc = next
        }
        throw fail(max(start, end - 1), "the block does not end with RETURN")
    }
}
