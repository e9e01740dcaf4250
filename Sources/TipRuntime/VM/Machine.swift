/// The interpreter for verified rules. State lives in this struct and in locals of the
/// `mutating` run loop. Everything it reads — code, strings, parameters, the store — is borrowed
/// through pointers the evaluator sets up for the machine's lifetime, so an evaluation copies
/// nothing reference-counted; code is read through an `UnsafeBufferPointer` because the verifier
/// has proven every operand, jump and stack access in bounds. One machine serves every rule a
/// call evaluates, reusing its stacks and member list.
///
/// The store is the one input the verifier cannot vouch for: the machine reads it only through
/// a `StoreReader`, and an event whose data does not fit the pack makes the rule fail with
/// `inconsistentStore`.
struct Machine<Store: DonationStore> {
    /// Every rule's code, concatenated (jumps are relative, so a rule runs where it lies).
    let code: UnsafeBufferPointer<UInt32>
    let strings: UnsafeBufferPointer<String>
    let parameterSlots: UnsafeBufferPointer<Int64>
    let parameterValues: UnsafeBufferPointer<RuntimeValue>
    /// The donation store, read only through this (see `StoreReader`).
    let reader: StoreReader<Store>
    let now: Int64
    /// The value stack, as deep as the deepest rule needs.
    let stack: UnsafeMutablePointer<Int64>
    /// The collection stack, as deep as the deepest rule needs.
    let collections: UnsafeMutablePointer<CollectionValue>
    var collectionCount = 0
    /// Donation indices of list collections (freed by the machine's owner).
    var members: MemberStack
    /// Where the rule being evaluated starts in `code` (failures and traces are relative to it).
    var ruleStart = 0

    /// Records every computed value (for `explain`) when set; kept alive by the caller.
    unowned(unsafe) var recorder: TraceRecorder? {
        didSet { tracing = recorder != nil }
    }
    private var tracing = false

    /// The donation a `WHERE` predicate is testing: its event, that event's payload columns
    /// (nil outside predicates) and its index.
    var currentEvent = -1
    var currentFields = UnsafeBufferPointer<PayloadColumn>(start: nil, count: 0)
    var currentIndex = 0
    var failure: (EvaluationFailure, Int)?

    /// The number of the pack's events: a collection whose `event` is at least this is a tip's
    /// records, at `tipCollections[event - eventCount]`.
    let eventCount: Int
    /// The instance being evaluated: its key's slot for `LOAD_KEY` (a String key is
    /// `StringReference.instanceKey`, resolved to `keyText`).
    let keySlot: Int64
    let keyText: String
    /// Per tip of the pack, its key's type (nil without a key).
    let tipKeyTypes: UnsafeBufferPointer<ValueType?>
    /// The tips' records this evaluation has read, as collections (freed by the machine's owner).
    var tipCollections: TipColumnStack

    init(code: UnsafeBufferPointer<UInt32>, strings: UnsafeBufferPointer<String>, parameterSlots: UnsafeBufferPointer<Int64>,
         parameterValues: UnsafeBufferPointer<RuntimeValue>, reader: StoreReader<Store>, now: Int64,
         stack: UnsafeMutablePointer<Int64>, collections: UnsafeMutablePointer<CollectionValue>, members: MemberStack,
         tipKeyTypes: UnsafeBufferPointer<ValueType?>, key: (slot: Int64, text: String), tipCollections: TipColumnStack) {
        self.tipKeyTypes = tipKeyTypes
        self.tipCollections = tipCollections
        eventCount = reader.eventFieldTypes.count
        (keySlot, keyText) = key
        self.code = code
        self.strings = strings
        self.parameterSlots = parameterSlots
        self.parameterValues = parameterValues
        self.reader = reader
        self.now = now
        self.stack = stack
        self.collections = collections
        self.members = members
    }

    /// The slot `LOAD_KEY` pushes for an instance's key, and the text of a String key. (A plain
    /// function: it borrows the key, where the machine's initializer would take a copy of it.)
    static func keySlot(_ key: TipKey?) -> (slot: Int64, text: String) {
        switch key {
        case .string(let text)?: return (StringReference.instanceKey, text)
        default: return (slot(of: key), "")
        }
    }

    /// The slot `LOAD_KEY` pushes for an instance's key (without the text of a String key).
    static func slot(of key: TipKey?) -> Int64 {
        switch key {
        case .int(let number)?: return number
        case .string?: return StringReference.instanceKey
        case nil: return 0
        }
    }

    /// Evaluates the whole rule whose code starts at `start`. `records` is where `TIP_*`
    /// instructions read other tips' records (nil: every tip never displayed nor invalidated);
    /// it is passed down as a borrowed argument rather than kept in the machine, so that neither
    /// making the machine nor a read retains it (a reference kept in the machine is copied in
    /// and destroyed with it; an `unowned(unsafe)` one is retained around every call).
    mutating func evaluate(ruleAt start: Int, records: (any TipRecordReader)?) -> RuleOutcome {
        ruleStart = start
        collectionCount = 0
        currentEvent = -1
        failure = nil
        members.removeAll()
        if tipCollections.count > 0 { tipCollections.removeAll() }
        if let result = run(from: start, sp: 0, records: records) {
            return .value(result)
        }
        let (reason, pc) = failure ?? (.integerOverflow, 0)
        return .failed(reason, pc: pc)
    }

    func resolve(_ reference: Int64) -> String {
        let bits = UInt64(bitPattern: reference)
        let index = Int(bits & 0xFFFF_FFFF)
        switch bits >> 62 {
        case 0:
            return strings[index]
        case 1:
            if reference == StringReference.instanceKey { return keyText }
            if case .string(let text) = parameterValues[index] { return text }
            return ""
        default:
            let event = Int((bits >> 42) & 0xF_FFFF), field = Int((bits >> 32) & 0x3FF)
            guard let column = event == currentEvent ? currentFields[field] : columns(event)?.fields[field] else { return "" }
            return index < column.strings.count ? column.strings[index] : ""
        }
    }

    @inline(__always)
    static func double(_ slot: Int64) -> Double { ValueSlot.double(slot) }
    @inline(__always)
    static func slot(_ value: Double) -> Int64 { ValueSlot.slot(value) }

    /// A grouping key for a payload slot: equal values, equal keys (−0.0 and 0.0 alike, for a
    /// store that wrote its own slots).
    @inline(__always)
    static func key(_ slot: Int64, _ type: ValueType) -> Int64 {
        type == .double ? ValueSlot.slot(ValueSlot.double(slot)) : slot
    }

    private mutating func fail(_ reason: EvaluationFailure, _ pc: Int) -> Bool? {
        failure = (reason, pc - ruleStart)
        return nil
    }

    /// The index range of `event`'s donations inside the window of `window` ms ending at `now`;
    /// nil when the store's data for the event does not fit the pack.
    @inline(__always)
    func windowRange(_ event: Int, _ window: Int64) -> Range<Int>? {
        let now = self.now
        if event >= eventCount {
            return tipCollections.withTimestamps(at: event &- eventCount) { Window.bounds($0, now: now, window: window) }
        }
        return reader.withTimestamps(event) { Window.bounds($0, now: now, window: window) }
    }

    /// The columns of a collection's source: an event's donations (nil when the store's data
    /// does not fit the pack), or a tip's records read by this evaluation.
    func columns(_ event: Int) -> DonationColumns? {
        event < eventCount ? reader.columns(event) : tipCollections[event - eventCount]
    }

    /// Calls `body` with the slots of payload field `field` of a collection's source, read in
    /// place; nil when the source's data does not fit the pack.
    @inline(__always)
    func withSlots<Result>(_ event: Int, field: Int, _ body: (UnsafeBufferPointer<Int64>) -> Result) -> Result? {
        if event >= eventCount { return tipCollections.withSlots(at: event &- eventCount, field: field, body) }
        return reader.withSlots(event, field: field, body)
    }

    /// `TIP_INVALIDATED*`: whether `tip` (its instance `key`) is invalidated now.
    @inline(never)
    private func isInvalidated(_ tip: Int, key: TipKey?, _ records: (any TipRecordReader)?) -> Bool {
        records?.isInvalidated(tip: tip, key: key) ?? false
    }

    /// `TIP_DISPLAYS*` / `TIP_INVALIDATIONS*`: the records of `tip` (its instance `key`).
    @inline(never)
    private func tipColumns(_ tip: Int, key: TipKey?, displays: Bool, _ records: (any TipRecordReader)?) -> DonationColumns {
        // Optional chaining, not `if let`: a binding would copy (retain) the reader.
        if displays { return records?.displays(ofTip: tip, key: key) ?? DonationColumns() }
        return records?.invalidations(ofTip: tip, key: key) ?? DonationColumns(fields: [PayloadColumn(type: .string)])
    }

    /// Pushes a tip's displays or invalidations as a collection (the columns move in, uncopied).
    @inline(never)
    private mutating func pushTipCollection(_ columns: consuming DonationColumns) {
        let count = columns.count
        tipCollections.append(columns)
        collections[collectionCount] = CollectionValue(event: eventCount + tipCollections.count - 1, low: 0, high: count, isList: false)
        collectionCount += 1
    }

    /// The key a keyed `TIP_*` instruction popped, of the tip's key type.
    @inline(never)
    private func poppedKey(_ slot: Int64, tip: Int) -> TipKey {
        tipKeyTypes[tip] == .string ? .string(resolve(slot)) : .int(slot)
    }

    /// Turns the top collection into a list collection (its indices appended to `members`).
    private mutating func materialize(_ top: inout CollectionValue) {
        guard !top.isList else { return }
        let start = members.count
        members.append(contentsOf: top.low..<top.high)
        top = CollectionValue(event: top.event, low: start, high: members.count, isList: true)
    }

    /// Pops the top collection, releasing its member list.
    private mutating func popCollection() -> CollectionValue {
        collectionCount -= 1
        let top = collections[collectionCount]
        if top.isList { members.truncate(to: top.low) }
        return top
    }

    /// Shrinks the list of the top collection to `high` after an in-place filter.
    private mutating func truncate(_ top: inout CollectionValue, to high: Int) {
        top.high = high
        members.truncate(to: high)
    }

    /// Runs the block starting at `start` until its RETURN; nil when evaluation failed.
    mutating func run(from start: Int, sp base: Int, records: (any TipRecordReader)?) -> Bool? {
        let code = self.code, stack = self.stack, now = self.now, parameterSlots = self.parameterSlots, tracing = self.tracing
        let reader = self.reader
        var pc = start
        var sp = base
        while true {
            let word = code[pc]
            let a = Int(word >> 8)
            let at = pc
            let opcode = UInt8(truncatingIfNeeded: word)
            // The straight-line instructions (and the fused ones) are `StraightLineRules.step`'s,
            // in `default`; the others are here.
            switch opcode {
            case Opcode.pushString.rawValue:
                stack[sp] = Int64(a); sp &+= 1; pc &+= 1
            case Opcode.pushDouble.rawValue:
                stack[sp] = Instruction.immediate(code[pc &+ 1], code[pc &+ 2]); sp &+= 1; pc &+= 3
            case Opcode.loadKey.rawValue:
                stack[sp] = keySlot; sp &+= 1; pc &+= 1
            case Opcode.tipInvalidatedKeyed.rawValue:
                stack[sp &- 1] = isInvalidated(a, key: poppedKey(stack[sp &- 1], tip: a), records) ? 1 : 0; pc &+= 1
            case Opcode.tipDisplays.rawValue, Opcode.tipInvalidations.rawValue,
                 StraightLineRules.countTipDisplays where tracing, StraightLineRules.countTipInvalidations where tracing:
                // A fused tip count runs unfused when traced, so that its collection is traced.
                let displays = opcode == Opcode.tipDisplays.rawValue || opcode == StraightLineRules.countTipDisplays
                pushTipCollection(tipColumns(a, key: nil, displays: displays, records))
                pc &+= 1
            case Opcode.tipDisplaysKeyed.rawValue, Opcode.tipInvalidationsKeyed.rawValue:
                let key = poppedKey(stack[sp &- 1], tip: a)
                sp &-= 1
                pushTipCollection(tipColumns(a, key: key, displays: opcode == Opcode.tipDisplaysKeyed.rawValue, records))
                pc &+= 1
            case Opcode.loadField.rawValue:
                let fields = currentFields
                let slot = fields[a].slots[currentIndex]
                stack[sp] = fields[a].type == .string ? StringReference.field(event: currentEvent, field: a, code: slot) : slot
                sp &+= 1; pc &+= 1
            case Opcode.compareDouble.rawValue:
                let holds = ComparisonCode(verified: a).holds(Self.double(stack[sp &- 2]), Self.double(stack[sp &- 1]))
                sp &-= 1; stack[sp &- 1] = holds ? 1 : 0; pc &+= 1
            case Opcode.compareString.rawValue:
                let holds = compareStrings(a, stack[sp &- 2], stack[sp &- 1])
                sp &-= 1; stack[sp &- 1] = holds ? 1 : 0; pc &+= 1
            case Opcode.compareDoubleImmediate.rawValue:
                let constant = Self.double(Instruction.immediate(code[pc &+ 1], code[pc &+ 2]))
                let holds = ComparisonCode(verified: a).holds(Self.double(stack[sp &- 1]), constant)
                stack[sp &- 1] = holds ? 1 : 0; pc &+= 3
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
            case StraightLineRules.countEventWhere where tracing, Opcode.event.rawValue:
                // A fused field-test count runs unfused when traced, so that each step is traced.
                guard let count = reader.withTimestamps(a, { $0.count }) else { return fail(.inconsistentStore, at) }
                collections[collectionCount] = CollectionValue(event: a, low: 0, high: count, isList: false)
                collectionCount += 1; pc &+= 1
            case Opcode.within.rawValue:
                guard narrowTopToWindow(Instruction.immediate(code[pc &+ 1], code[pc &+ 2])) else { return fail(.inconsistentStore, at) }
                pc &+= 3
            case StraightLineRules.filterThenCount:
                // WHERE then the COUNT right after its block: a `fieldTest` predicate counts in one
                // loop over the column (nothing is listed); any other, or traced, runs as WHERE.
                if !tracing, let test = fieldTest(at: pc &+ 1) {
                    guard let count = popCount(matching: test) else { return fail(.inconsistentStore, at) }
                    stack[sp] = Int64(count); sp &+= 1; pc &+= 2 &+ a
                } else {
                    guard filterTop(predicateAt: pc &+ 1, sp: sp, at: at, records: records) else { return nil }
                    pc &+= 1 &+ a
                }
            case Opcode.filter.rawValue:
                guard filterTop(predicateAt: pc &+ 1, sp: sp, at: at, records: records) else { return nil }
                pc &+= 1 &+ a
            case Opcode.largestSubset.rawValue, Opcode.smallestSubset.rawValue:
                guard narrowTopToSubset(field: a, largest: opcode == Opcode.largestSubset.rawValue) else { return fail(.inconsistentStore, at) }
                pc &+= 1
            case Opcode.count.rawValue:
                stack[sp] = Int64(popCollection().count); sp &+= 1; pc &+= 1
            case Opcode.distinct.rawValue:
                guard let distinct = popDistinctCount(field: a) else { return fail(.inconsistentStore, at) }
                stack[sp] = Int64(distinct); sp &+= 1; pc &+= 1
            default:
                let step = StraightLineRules.step(code, pc: &pc, sp: &sp, stack: stack, parameterSlots: parameterSlots, now: now,
                                                  fused: !tracing, records: records, keySlot: keySlot) { event, window, test in
                    // COUNT_EVENT* and COUNT_EVENT_WHERE read the pack's events only (never a tip's records).
                    reader.count(event, within: window, now: now, where: test)
                }
                switch step {
                case .next: break
                case .returned(let holds): return holds
                case .inconsistentStore: return fail(.inconsistentStore, pc)
                }
            }
            if tracing { record(at, sp) }
        }
    }

    // String comparisons build Strings; kept out of the run loop like the collection loops.

    @inline(never)
    private func compareStrings(_ comparison: Int, _ left: Int64, _ right: Int64) -> Bool {
        ComparisonCode(verified: comparison).holds(resolve(left), resolve(right))
    }

    @inline(never)
    private func compareString(_ comparison: Int, _ left: Int64, toConstant constant: Int) -> Bool {
        ComparisonCode(verified: comparison).holds(resolve(left), strings[constant])
    }

    /// Whether the string `reference` is one of the `count` string-table entries listed at `start`.
    @inline(never)
    private func string(_ reference: Int64, isInConstantsAt start: Int, count: Int) -> Bool {
        let value = resolve(reference)
        return (0..<count).contains { strings[Int(code[start + $0])] == value }
    }

    // The collection instructions below loop over donations; kept out of the run loop so its
    // hot path keeps its registers.

    /// WITHIN: keeps the top collection's donations inside the window ending at `now`; false
    /// when the store's data for the event does not fit the pack.
    @inline(never)
    private mutating func narrowTopToWindow(_ window: Int64) -> Bool {
        var top = collections[collectionCount &- 1]
        if top.isList {
            var kept = top.low
            let now = self.now
            let reader = self.reader
            let own = top.event >= eventCount ? tipCollections[top.event - eventCount].timestamps : nil
            func keep(_ timestamps: UnsafeBufferPointer<Int64>) {
                for position in top.low..<top.high where Window.contains(timestamps[members[position]], now: now, window: window) {
                    members[kept] = members[position]
                    kept += 1
                }
            }
            let read: Void? = if let own { own.withUnsafeBufferPointer(keep) } else { reader.withTimestamps(top.event, keep) }
            guard read != nil else { return false }
            truncate(&top, to: kept)
        } else {
            guard let range = windowRange(top.event, window) else { return false }
            top.low = max(top.low, range.lowerBound)
            top.high = max(top.low, min(top.high, range.upperBound))
        }
        collections[collectionCount &- 1] = top
        return true
    }

    /// WHERE (at `at`): keeps the top collection's donations for which the predicate block at
    /// `start` holds; false when the predicate failed or the store's data does not fit the pack.
    @inline(never)
    private mutating func filterTop(predicateAt start: Int, sp: Int, at: Int, records: (any TipRecordReader)?) -> Bool {
        var top = collections[collectionCount &- 1]
        if !tracing, let test = fieldTest(at: start) {
            guard filterTop(&top, test) else { return fail(.inconsistentStore, at) ?? false }
            return true
        }
        guard let columns = columns(top.event) else { return fail(.inconsistentStore, at) ?? false }
        materialize(&top)
        collections[collectionCount &- 1] = top
        var kept = top.low
        let completed = columns.fields.withUnsafeBufferPointer { fields in
            let saved = (currentEvent, currentFields, currentIndex)
            defer { (currentEvent, currentFields, currentIndex) = saved }
            currentEvent = top.event
            currentFields = fields
            for position in top.low..<top.high {
                let index = members[position]
                currentIndex = index
                guard let matches = run(from: start, sp: sp, records: records) else { return false }
                if matches {
                    members[kept] = index
                    kept += 1
                }
            }
            return true
        }
        guard completed else { return false }
        truncate(&top, to: kept)
        collections[collectionCount &- 1] = top
        return true
    }

    /// The `FieldTest` of the predicate block at `start`, nil for any other predicate.
    private func fieldTest(at start: Int) -> FieldTest? {
        FieldTest(code, at: start, parameterSlots: parameterSlots, keySlot: keySlot)
    }

    /// WHERE by a `fieldTest`: keeps the donations of the top collection whose slot of the field
    /// compares with the test's value as it says; false when the source's data does not fit.
    private mutating func filterTop(_ top: inout CollectionValue, _ test: FieldTest) -> Bool {
        let low = top.low, high = top.high, isList = top.isList
        // A list is filtered where it lies; a range's matching indices are appended as a list.
        let start = isList ? low : members.count
        if !isList { members.reserve(start + top.count) }
        let storage = members.storage
        let end: Int?? = withSlots(top.event, field: test.field) { slots -> Int? in
            if isList {
                var kept = low
                for position in low..<high where test.comparison.holds(slots[storage[position]], test.value) {
                    storage[kept] = storage[position]
                    kept += 1
                }
                return kept
            }
            guard high <= slots.count else { return nil }
            return Self.list(low..<high, of: slots, test, into: storage + start) + start
        }
        guard let end = end ?? nil else { return false }
        if isList {
            truncate(&top, to: end)
        } else {
            members.extend(to: end)
            top = CollectionValue(event: top.event, low: start, high: end, isList: true)
        }
        collections[collectionCount &- 1] = top
        return true
    }

    /// WHERE by a `fieldTest` whose result COUNT directly follows: pops the top collection and
    /// gives the number of its donations that pass (nil when the source's data does not fit).
    @inline(never)
    private mutating func popCount(matching test: FieldTest) -> Int? {
        let top = collections[collectionCount &- 1]
        let storage = members.storage
        let counted: Int?? = withSlots(top.event, field: test.field) { slots -> Int? in
            if top.isList {
                var count = 0
                for position in top.low..<top.high where test.comparison.holds(slots[storage[position]], test.value) { count += 1 }
                return count
            }
            guard top.high <= slots.count else { return nil }
            return test.count(top.low..<top.high, of: slots)
        }
        guard let counted = counted ?? nil else { return nil }
        _ = popCollection()
        return counted
    }

    /// Writes the indices in `range` whose slot passes `test` from `destination` on (there is
    /// room for all); how many it wrote. Each index is written and the end moves on only past
    /// those that pass, one loop per comparison, so the loop has no branch on the data.
    @inline(__always)
    private static func list(_ range: Range<Int>, of slots: UnsafeBufferPointer<Int64>, _ test: FieldTest,
                             into destination: UnsafeMutablePointer<Int>) -> Int {
        @inline(__always)
        func write(_ passes: (Int64) -> Bool) -> Int {
            var position = 0
            for index in range {
                destination[position] = index
                position &+= passes(slots[index]) ? 1 : 0
            }
            return position
        }
        let value = test.value
        switch test.comparison {
        case .equal: return write { $0 == value }
        case .notEqual: return write { $0 != value }
        case .less: return write { $0 < value }
        case .lessOrEqual: return write { $0 <= value }
        case .greater: return write { $0 > value }
        case .greaterOrEqual: return write { $0 >= value }
        }
    }

    /// LARGEST_SUBSET / SMALLEST_SUBSET: keeps the donations of the largest (smallest) group by
    /// `field`; among equal groups, the one whose first donation is earliest. False when the
    /// store's data for the event does not fit the pack.
    @inline(never)
    private mutating func narrowTopToSubset(field: Int, largest: Bool) -> Bool {
        var top = collections[collectionCount &- 1]
        guard let column = columns(top.event)?.fields[field] else { return false }
        materialize(&top)
        let type = column.type
        var kept = top.low
        column.slots.withUnsafeBufferPointer { slots in
            // Groups are numbered in order of first appearance, so among groups of equal size
            // the lowest number is the one whose first donation is earliest.
            var groupOfKey: [Int64: Int] = [:]
            groupOfKey.reserveCapacity(top.count)
            var groupKeys: [Int64] = [], groupSizes: [Int] = []
            for position in top.low..<top.high {
                let key = Self.key(slots[members[position]], type)
                if let group = groupOfKey[key] {
                    groupSizes[group] += 1
                } else {
                    groupOfKey[key] = groupKeys.count
                    groupKeys.append(key)
                    groupSizes.append(1)
                }
            }
            guard !groupKeys.isEmpty else { return }
            var chosen = 0
            for group in groupSizes.indices.dropFirst()
            where largest ? groupSizes[group] > groupSizes[chosen] : groupSizes[group] < groupSizes[chosen] {
                chosen = group
            }
            let chosenKey = groupKeys[chosen]
            for position in top.low..<top.high where Self.key(slots[members[position]], type) == chosenKey {
                members[kept] = members[position]
                kept += 1
            }
        }
        truncate(&top, to: kept)
        collections[collectionCount &- 1] = top
        return true
    }

    /// DISTINCT: pops the top collection; the number of distinct values of `field` in it (nil
    /// when the store's data for the event does not fit the pack).
    @inline(never)
    private mutating func popDistinctCount(field: Int) -> Int? {
        let top = collections[collectionCount &- 1]
        guard let column = columns(top.event)?.fields[field] else { return nil }
        var seen = Set<Int64>(minimumCapacity: top.count)
        if top.isList {
            for position in top.low..<top.high { seen.insert(Self.key(column.slots[members[position]], column.type)) }
        } else {
            for index in top.low..<top.high { seen.insert(Self.key(column.slots[index], column.type)) }
        }
        _ = popCollection()
        return seen.count
    }

    /// Records the value instruction `at` left on the stack, if it leaves one.
    @inline(never)
    private func record(_ at: Int, _ sp: Int) {
        guard let recorder, let type = recorder.resultTypes[at - ruleStart] else { return }
        let value: TraceValue
        switch type {
        case .collection(let event):
            // The pseudo-events after the pack's events are a tip's displays, then its invalidations.
            let count = collections[collectionCount - 1].count
            value = switch event - eventCount {
            case 0: .displays(count: count)
            case 1: .invalidations(count: count)
            default: .collection(count: count)
            }
        case .value(let valueType): value = .value(runtimeValue(stack[sp - 1], valueType))
        }
        recorder.entries.append(TraceEntry(pc: at - ruleStart, value: value, donation: currentEvent >= 0 ? currentIndex : nil))
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

/// What a traced evaluation records: per instruction of the rule, the type it leaves on the
/// stack, and the values seen so far.
final class TraceRecorder {
    let resultTypes: [BytecodeVerifier.SlotType?]
    var entries: [TraceEntry] = []

    init(resultTypes: [BytecodeVerifier.SlotType?]) {
        self.resultTypes = resultTypes
    }
}
