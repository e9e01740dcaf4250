/// The interpreter for one verified rule. State lives in this struct and in locals of the
/// `mutating` run loop; code is read through an `UnsafeBufferPointer` because the verifier has
/// proven every operand, jump and stack access in bounds.
struct Machine {
    let strings: [String]
    let parameters: ParameterValues
    let store: any DonationStore
    let eventFieldTypes: [[ValueType]]
    let now: Int64
    /// Per instruction, the type it leaves on the stack (tracing only).
    let resultTypes: [BytecodeVerifier.SlotType?]
    /// Records every computed value (for `explain`) when set.
    let tracing: Bool
    var trace: [TraceEntry] = []

    var collections: [CollectionValue] = []
    /// The donation a `WHERE` predicate is testing.
    var currentEvent = -1
    var currentColumns = DonationColumns()
    var currentIndex = 0
    var failure: (EvaluationFailure, Int)?

    init(strings: [String], parameters: ParameterValues, store: any DonationStore, eventFieldTypes: [[ValueType]], now: Int64,
         resultTypes: [BytecodeVerifier.SlotType?] = [], tracing: Bool = false) {
        self.strings = strings
        self.parameters = parameters
        self.store = store
        self.eventFieldTypes = eventFieldTypes
        self.now = now
        self.resultTypes = resultTypes
        self.tracing = tracing
    }

    /// Evaluates a whole rule.
    mutating func evaluate(_ rule: VerifiedRule) -> RuleOutcome {
        let depth = max(1, rule.shape.maximumValueDepth)
        return rule.code.withUnsafeBufferPointer { code in
            withUnsafeTemporaryAllocation(of: Int64.self, capacity: depth) { stack in
                if let result = run(code, from: 0, stack: stack.baseAddress.unsafelyUnwrapped, sp: 0) {
                    return .value(result)
                }
                let (reason, pc) = failure ?? (.integerOverflow, 0)
                return .failed(reason, pc: pc)
            }
        }
    }

    /// The donations of `event`, checked to have the shape the pack declares (a store for
    /// another pack is a programming error).
    func fetch(_ event: Int) -> DonationColumns {
        let columns = store.donations(ofEvent: event)
        let types = eventFieldTypes[event]
        precondition(columns.fields.count == types.count, "the donation store does not match the rule pack")
        for (column, type) in zip(columns.fields, types) {
            precondition(column.type == type && column.slots.count == columns.timestamps.count,
                         "the donation store does not match the rule pack")
        }
        return columns
    }

    func resolve(_ reference: Int64) -> String {
        let bits = UInt64(bitPattern: reference)
        let index = Int(bits & 0xFFFF_FFFF)
        switch bits >> 62 {
        case 0:
            return strings[index]
        case 1:
            if case .string(let text) = parameters.values[index] { return text }
            return ""
        default:
            let event = Int((bits >> 42) & 0xF_FFFF), field = Int((bits >> 32) & 0x3FF)
            let column = event == currentEvent ? currentColumns.fields[field] : fetch(event).fields[field]
            return index < column.strings.count ? column.strings[index] : ""
        }
    }

    @inline(__always)
    static func double(_ slot: Int64) -> Double { Double(bitPattern: UInt64(bitPattern: slot)) }
    @inline(__always)
    static func slot(_ value: Double) -> Int64 { Int64(bitPattern: value.bitPattern) }

    /// A grouping key for a payload slot: equal values, equal keys (−0.0 and 0.0 alike).
    @inline(__always)
    static func key(_ slot: Int64, _ type: ValueType) -> Int64 {
        if type == .double && double(slot) == 0 { return 0 }
        return slot
    }

    private mutating func fail(_ reason: EvaluationFailure, _ pc: Int) -> Bool? {
        failure = (reason, pc)
        return nil
    }

    /// Runs the block starting at `start` until its RETURN; nil when evaluation failed.
    mutating func run(_ code: UnsafeBufferPointer<UInt32>, from start: Int, stack: UnsafeMutablePointer<Int64>, sp base: Int) -> Bool? {
        var pc = start
        var sp = base
        while true {
            let word = code[pc]
            let a = Int(word >> 8)
            let at = pc
            switch Opcode(rawValue: UInt8(truncatingIfNeeded: word)).unsafelyUnwrapped {
            case .ret:
                return stack[sp - 1] != 0
            case .pushBool, .pushString:
                stack[sp] = Int64(a); sp += 1; pc += 1
            case .pushInt, .pushDouble, .pushDate, .pushDuration:
                stack[sp] = Instruction.immediate(code[pc + 1], code[pc + 2]); sp += 1; pc += 3
            case .loadNow:
                stack[sp] = now; sp += 1; pc += 1
            case .loadParameter:
                stack[sp] = parameters.slots[a]; sp += 1; pc += 1
            case .loadField:
                let column = currentColumns.fields[a]
                let slot = column.slots[currentIndex]
                stack[sp] = column.type == .string ? StringReference.field(event: currentEvent, field: a, code: slot) : slot
                sp += 1; pc += 1
            case .not:
                stack[sp - 1] ^= 1; pc += 1
            case .jumpIfFalse:
                if stack[sp - 1] == 0 { pc += 1 + a } else { sp -= 1; pc += 1 }
            case .jumpIfTrue:
                if stack[sp - 1] != 0 { pc += 1 + a } else { sp -= 1; pc += 1 }
            case .compareInt, .compareBool:
                let holds = ComparisonCode(rawValue: UInt32(a)).unsafelyUnwrapped.holds(stack[sp - 2], stack[sp - 1])
                sp -= 1; stack[sp - 1] = holds ? 1 : 0; pc += 1
            case .compareDouble:
                let holds = ComparisonCode(rawValue: UInt32(a)).unsafelyUnwrapped.holds(Self.double(stack[sp - 2]), Self.double(stack[sp - 1]))
                sp -= 1; stack[sp - 1] = holds ? 1 : 0; pc += 1
            case .compareString:
                let holds = ComparisonCode(rawValue: UInt32(a)).unsafelyUnwrapped.holds(resolve(stack[sp - 2]), resolve(stack[sp - 1]))
                sp -= 1; stack[sp - 1] = holds ? 1 : 0; pc += 1
            case .compareIntImmediate:
                let holds = ComparisonCode(rawValue: UInt32(a)).unsafelyUnwrapped.holds(stack[sp - 1], Instruction.immediate(code[pc + 1], code[pc + 2]))
                stack[sp - 1] = holds ? 1 : 0; pc += 3
            case .compareDoubleImmediate:
                let constant = Self.double(Instruction.immediate(code[pc + 1], code[pc + 2]))
                let holds = ComparisonCode(rawValue: UInt32(a)).unsafelyUnwrapped.holds(Self.double(stack[sp - 1]), constant)
                stack[sp - 1] = holds ? 1 : 0; pc += 3
            case .compareStringImmediate:
                let holds = ComparisonCode(rawValue: UInt32(a)).unsafelyUnwrapped.holds(resolve(stack[sp - 1]), strings[Int(code[pc + 1])])
                stack[sp - 1] = holds ? 1 : 0; pc += 2
            case .inInts:
                let value = stack[sp - 1]
                var found = false
                for index in 0..<a where Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index]) == value {
                    found = true; break
                }
                stack[sp - 1] = found ? 1 : 0; pc += 1 + 2 * a
            case .inDoubles:
                let value = Self.double(stack[sp - 1])
                var found = false
                for index in 0..<a where Self.double(Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index])) == value {
                    found = true; break
                }
                stack[sp - 1] = found ? 1 : 0; pc += 1 + 2 * a
            case .inStrings:
                let value = resolve(stack[sp - 1])
                var found = false
                for index in 0..<a where strings[Int(code[pc + 1 + index])] == value {
                    found = true; break
                }
                stack[sp - 1] = found ? 1 : 0; pc += 1 + a
            case .inBools:
                stack[sp - 1] = (a >> Int(stack[sp - 1])) & 1 == 1 ? 1 : 0; pc += 1
            case .add, .subtract, .multiply:
                let left = stack[sp - 2], right = stack[sp - 1]
                let (result, overflow) = switch Opcode(rawValue: UInt8(truncatingIfNeeded: word)).unsafelyUnwrapped {
                case .add: left.addingReportingOverflow(right)
                case .subtract: left.subtractingReportingOverflow(right)
                default: left.multipliedReportingOverflow(by: right)
                }
                if overflow { return fail(.integerOverflow, at) }
                sp -= 1; stack[sp - 1] = result; pc += 1
            case .divide, .remainder:
                let left = stack[sp - 2], right = stack[sp - 1]
                if right == 0 { return fail(.divisionByZero, at) }
                let (result, overflow) = word & 0xFF == UInt32(Opcode.divide.rawValue)
                    ? left.dividedReportingOverflow(by: right) : left.remainderReportingOverflow(dividingBy: right)
                if overflow { return fail(.integerOverflow, at) }
                sp -= 1; stack[sp - 1] = result; pc += 1
            case .negate:
                let (result, overflow) = Int64(0).subtractingReportingOverflow(stack[sp - 1])
                if overflow { return fail(.integerOverflow, at) }
                stack[sp - 1] = result; pc += 1
            case .addDouble, .subtractDouble, .multiplyDouble, .divideDouble, .remainderDouble:
                let left = Self.double(stack[sp - 2]), right = Self.double(stack[sp - 1])
                let result: Double = switch Opcode(rawValue: UInt8(truncatingIfNeeded: word)).unsafelyUnwrapped {
                case .addDouble: left + right
                case .subtractDouble: left - right
                case .multiplyDouble: left * right
                case .divideDouble: left / right
                default: left.truncatingRemainder(dividingBy: right)
                }
                if !result.isFinite { return fail(.nonFiniteDouble, at) }
                sp -= 1; stack[sp - 1] = Self.slot(result); pc += 1
            case .negateDouble:
                let result = -Self.double(stack[sp - 1])
                if !result.isFinite { return fail(.nonFiniteDouble, at) }
                stack[sp - 1] = Self.slot(result); pc += 1
            case .intToDouble:
                stack[sp - 1] = Self.slot(Double(stack[sp - 1])); pc += 1
            case .countEvent:
                stack[sp] = Int64(store.donations(ofEvent: a).timestamps.count); sp += 1; pc += 1
            case .countEventWithin:
                let window = Instruction.immediate(code[pc + 1], code[pc + 2])
                let timestamps = store.donations(ofEvent: a).timestamps
                let range = timestamps.withUnsafeBufferPointer { Window.bounds($0, now: now, window: window) }
                stack[sp] = Int64(range.count); sp += 1; pc += 3
            case .event:
                collections.append(CollectionValue(event: a, low: 0, high: fetch(a).count, members: nil)); pc += 1
            case .within:
                let window = Instruction.immediate(code[pc + 1], code[pc + 2])
                var top = collections[collections.count - 1]
                let timestamps = fetch(top.event).timestamps
                if let members = top.members {
                    top.members = members.filter { Window.contains(timestamps[$0], now: now, window: window) }
                } else {
                    let range = timestamps.withUnsafeBufferPointer { Window.bounds($0, now: now, window: window) }
                    top.low = max(top.low, range.lowerBound)
                    top.high = max(top.low, min(top.high, range.upperBound))
                }
                collections[collections.count - 1] = top
                pc += 3
            case .filter:
                var top = collections[collections.count - 1]
                let columns = fetch(top.event)
                let candidates = top.members ?? Array(top.low..<top.high)
                let saved = (currentEvent, currentColumns, currentIndex)
                currentEvent = top.event
                currentColumns = columns
                var kept: [Int] = []
                for index in candidates {
                    currentIndex = index
                    guard let matches = run(code, from: pc + 1, stack: stack, sp: sp) else { return nil }
                    if matches { kept.append(index) }
                }
                (currentEvent, currentColumns, currentIndex) = saved
                top.members = kept
                collections[collections.count - 1] = top
                pc += 1 + a
            case .largestSubset, .smallestSubset:
                var top = collections[collections.count - 1]
                let column = fetch(top.event).fields[a]
                let candidates = top.members ?? Array(top.low..<top.high)
                var groups: [Int64: (count: Int, first: Int)] = [:]
                for index in candidates {
                    groups[Self.key(column.slots[index], column.type), default: (0, index)].count += 1
                }
                let largest = word & 0xFF == UInt32(Opcode.largestSubset.rawValue)
                var chosen: (key: Int64, count: Int, first: Int)?
                for (key, group) in groups {
                    guard let best = chosen else { chosen = (key, group.count, group.first); continue }
                    let better = group.count == best.count ? group.first < best.first
                        : (largest ? group.count > best.count : group.count < best.count)
                    if better { chosen = (key, group.count, group.first) }
                }
                if let chosen {
                    top.members = candidates.filter { Self.key(column.slots[$0], column.type) == chosen.key }
                } else {
                    top.members = []
                }
                collections[collections.count - 1] = top
                pc += 1
            case .count:
                stack[sp] = Int64(collections.removeLast().count); sp += 1; pc += 1
            case .distinct:
                let top = collections.removeLast()
                let column = fetch(top.event).fields[a]
                var seen = Set<Int64>()
                if let members = top.members {
                    for index in members { seen.insert(Self.key(column.slots[index], column.type)) }
                } else {
                    for index in top.low..<top.high { seen.insert(Self.key(column.slots[index], column.type)) }
                }
                stack[sp] = Int64(seen.count); sp += 1; pc += 1
            }
            if tracing, let type = resultTypes[at] {
                let value: TraceValue
                switch type {
                case .collection: value = .collection(count: collections[collections.count - 1].count)
                case .value(let valueType): value = .value(runtimeValue(stack[sp - 1], valueType))
                }
                trace.append(TraceEntry(pc: at, value: value, donation: currentEvent >= 0 ? currentIndex : nil))
            }
        }
    }

    func runtimeValue(_ slot: Int64, _ type: ValueType) -> RuntimeValue {
        switch type {
        case .bool: return .bool(slot != 0)
        case .int: return .int(slot)
        case .double: return .double(Self.double(slot))
        case .string: return .string(resolve(slot))
        case .date: return .date(milliseconds: slot)
        case .duration: return .duration(milliseconds: slot)
        }
    }
}
