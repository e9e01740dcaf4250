import TipRuntime

/// Emits the bytecode of one folded rule: event queries as dedicated instructions (fused
/// `COUNT_EVENT_WITHIN` for `e.count … within D`), comparisons against constants with
/// immediate operands, `and`/`or` as forward conditional jumps.
struct RuleLowering {
    var strings: ConstantStrings
    var code: [UInt32] = []
    var sourceMap: [SourceMapEntry] = []
    var diagnostics: [Diagnostic] = []

    init(strings: ConstantStrings) { self.strings = strings }

    mutating func emit(_ opcode: Opcode, _ a: Int = 0, at range: SourceRange, immediates: [Int64] = [], words: [UInt32] = []) {
        guard a >= 0 && a <= Int(Instruction.maximumOperand) else {
            diagnostics.append(Diagnostic(.limit, "this expression exceeds a limit of the rule pack format (operand \(a))", at: range))
            return
        }
        assert(opcode.info.fusedFrom == nil, "\(opcode.mnemonic) is made when a pack is loaded, never written to one")
        assert(2 * immediates.count + words.count == opcode.extraWords(operand: UInt32(a)),
               "\(opcode.mnemonic) takes \(opcode.extraWords(operand: UInt32(a))) extra words (Opcode.info)")
        sourceMap.append(SourceMapEntry(pc: UInt32(code.count), range: RulePackCompiler.packRange(range)))
        code.append(Instruction.word(opcode, UInt32(a)))
        for value in immediates { code.append(contentsOf: Instruction.immediate(value)) }
        code.append(contentsOf: words)
    }

    /// The 64-bit slot of a constant (strings: index into the constant strings).
    mutating func slot(_ constant: RuntimeValue) -> Int64 {
        ValueSlot.slot(constant) { Int64(strings.index($0)) }
    }

    mutating func lower(_ expression: CheckedExpression) {
        let range = expression.range
        switch expression.kind {
        case .constant(let constant):
            switch constant {
            case .bool(let flag): emit(.pushBool, flag ? 1 : 0, at: range)
            case .int: emit(.pushInt, at: range, immediates: [slot(constant)])
            case .double: emit(.pushDouble, at: range, immediates: [slot(constant)])
            case .string: emit(.pushString, Int(slot(constant)), at: range)
            case .date: emit(.pushDate, at: range, immediates: [slot(constant)])
            case .duration: emit(.pushDuration, at: range, immediates: [slot(constant)])
            }
        case .now: emit(.loadNow, at: range)
        case .parameter(let index): emit(.loadParameter, index, at: range)
        case .field(let index): emit(.loadField, index, at: range)
        case .event(let index): emit(.event, index, at: range)
        case .instanceKey: emit(.loadKey, at: range)
        case .tipState(let query):
            let opcode: Opcode
            if let key = query.key {
                lower(key)
                switch query.member {
                case .invalidated: opcode = .tipInvalidatedKeyed
                case .displays: opcode = .tipDisplaysKeyed
                case .invalidations: opcode = .tipInvalidationsKeyed
                }
            } else {
                switch query.member {
                case .invalidated: opcode = .tipInvalidated
                case .displays: opcode = .tipDisplays
                case .invalidations: opcode = .tipInvalidations
                }
            }
            emit(opcode, query.tip, at: range)
        case .within(let inner, let window):
            lower(inner)
            emit(.within, at: range, immediates: [Int64(window)])
        case .filter(let inner, let predicate):
            lower(inner)
            let header = code.count
            emit(.filter, 0, at: range)
            lower(predicate)
            emit(.ret, at: predicate.range)
            let length = code.count - header - 1
            if length <= Int(Instruction.maximumOperand), header < code.count {
                code[header] = Instruction.word(.filter, UInt32(length))
            } else {
                diagnostics.append(Diagnostic(.limit, "this 'where' predicate is too long for the rule pack format", at: range))
            }
        case .largestSubset(let inner, let field):
            lower(inner)
            emit(.largestSubset, field, at: range)
        case .smallestSubset(let inner, let field):
            lower(inner)
            emit(.smallestSubset, field, at: range)
        case .count(let inner):
            switch inner.kind {
            case .event(let event):
                emit(.countEvent, event, at: range)
            case .within(let base, let window):
                if case .event(let event) = base.kind {
                    emit(.countEventWithin, event, at: range, immediates: [Int64(window)])
                } else {
                    lower(inner)
                    emit(.count, at: range)
                }
            default:
                lower(inner)
                emit(.count, at: range)
            }
        case .distinct(let inner, let field):
            lower(inner)
            emit(.distinct, field, at: range)
        case .not(let inner):
            lower(inner)
            emit(.not, at: range)
        case .negate(let inner):
            lower(inner)
            emit(inner.type == .value(.double) ? .negateDouble : .negate, at: range)
        case .intToDouble(let inner):
            lower(inner)
            emit(.intToDouble, at: range)
        case .logical(let op, let left, let right):
            lower(left)
            let jump = code.count
            emit(op == .and ? .jumpIfFalse : .jumpIfTrue, 0, at: range)
            lower(right)
            let distance = code.count - jump - 1
            if distance <= Int(Instruction.maximumOperand), jump < code.count {
                code[jump] = Instruction.word(op == .and ? .jumpIfFalse : .jumpIfTrue, UInt32(distance))
            }
        case .compare(let op, let left, let right):
            lowerComparison(op.code, left, right, range: range)
        case .arithmetic(let op, let left, let right):
            lower(left)
            lower(right)
            let isDouble = left.type == .value(.double)
            let opcode: Opcode
            switch op {
            case .add: opcode = isDouble ? .addDouble : .add
            case .subtract: opcode = isDouble ? .subtractDouble : .subtract
            case .multiply: opcode = isDouble ? .multiplyDouble : .multiply
            case .divide: opcode = isDouble ? .divideDouble : .divide
            case .remainder: opcode = isDouble ? .remainderDouble : .remainder
            }
            emit(opcode, at: range)
        case .inList(let inner, let list):
            lower(inner)
            switch inner.type {
            case .value(.double):
                let values = list.map { constant -> Int64 in
                    if case .int(let number) = constant { return ValueSlot.slot(Double(number)) }
                    return slot(constant)
                }
                emit(.inDoubles, values.count, at: range, immediates: values)
            case .value(.string):
                let words = list.map { UInt32(truncatingIfNeeded: slot($0)) }
                emit(.inStrings, words.count, at: range, words: words)
            case .value(.bool):
                var mask = 0
                for constant in list { if case .bool(let flag) = constant { mask |= flag ? 2 : 1 } }
                emit(.inBools, mask, at: range)
            default:
                let values = list.map { slot($0) }
                emit(.inInts, values.count, at: range, immediates: values)
            }
        }
    }

    private mutating func lowerComparison(_ op: ComparisonCode, _ left: CheckedExpression, _ right: CheckedExpression, range: SourceRange) {
        var subject = left, constant: RuntimeValue?, code = op
        if case .constant(let value) = right.kind {
            constant = value
        } else if case .constant(let value) = left.kind {
            subject = right
            constant = value
            code = op.mirrored
        }
        guard let constant else {
            lower(left)
            lower(right)
            let opcode: Opcode
            switch left.type {
            case .value(.double): opcode = .compareDouble
            case .value(.string): opcode = .compareString
            case .value(.bool): opcode = .compareBool
            default: opcode = .compareInt
            }
            emit(opcode, Int(op.rawValue), at: range)
            return
        }
        lower(subject)
        switch constant {
        case .bool(let flag):
            // x == true is x; x == false is not x.
            if (code == .equal) != flag { emit(.not, at: range) }
        case .double:
            emit(.compareDoubleImmediate, Int(code.rawValue), at: range, immediates: [slot(constant)])
        case .string:
            emit(.compareStringImmediate, Int(code.rawValue), at: range, words: [UInt32(truncatingIfNeeded: slot(constant))])
        case .int, .date, .duration:
            emit(.compareIntImmediate, Int(code.rawValue), at: range, immediates: [slot(constant)])
        }
    }
}

/// The strings bytecode refers to, in first-use order (deterministic).
struct ConstantStrings {
    private(set) var strings: [String] = []
    private var indexes: [[UInt8]: Int] = [:]

    mutating func index(_ text: String) -> Int {
        let key = Array(text.utf8)
        if let index = indexes[key] { return index }
        strings.append(text)
        indexes[key] = strings.count - 1
        return strings.count - 1
    }
}
