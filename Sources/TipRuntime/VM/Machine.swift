/// The full mode of the interpreter for verified rules (`InterpreterContext.interpret` is its
/// loop, entered through `run`).
/// State lives in this struct and in locals of the `mutating` run loop. Everything it reads — code, strings, parameters, the store — is borrowed
/// through pointers the evaluator sets up for the machine's lifetime, so an evaluation copies
/// nothing reference-counted; code is read through an `UnsafeBufferPointer` because the verifier
/// has proven every operand, jump and stack access in bounds. One machine serves every rule a
/// call evaluates, reusing its stacks and member list.
///
/// The store is the one input the verifier cannot vouch for: the machine reads it only through
/// a `StoreReader`, and an event whose data does not fit the pack makes the rule fail with
/// `inconsistentStore`.
struct Machine<Store: DonationStore>: InterpreterContext {
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
    private(set) var tracing = false
    static var runsOnlyStraightLine: Bool { false }

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

    /// A grouping key for a payload slot: equal values, equal keys (−0.0 and 0.0 alike).
    @inline(__always)
    static func key(_ slot: Int64, _ type: ValueType) -> Int64 {
        type == .double ? ValueSlot.slot(ValueSlot.double(slot)) : slot
    }

    mutating func fail(_ reason: EvaluationFailure, _ pc: Int) -> Bool? {
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

    /// `TIP_INVALIDATED_KEYED`: whether the instance of `tip` whose key is the slot `keySlot` is
    /// invalidated now.
    @inline(never)
    func isInvalidated(tip: Int, keySlot: Int64, _ records: (any TipRecordReader)?) -> Bool {
        records?.isInvalidated(tip: tip, key: poppedKey(keySlot, tip: tip)) ?? false
    }

    /// `TIP_DISPLAYS*` / `TIP_INVALIDATIONS*`: pushes the records of `tip` (of the instance whose
    /// key is `keySlot`) as a collection (the columns move in, uncopied).
    @inline(never)
    mutating func pushTipRecords(tip: Int, keySlot: Int64?, displays: Bool, _ records: (any TipRecordReader)?) {
        let key = keySlot.map { poppedKey($0, tip: tip) }
        // Optional chaining, not `if let`: a binding would copy (retain) the reader.
        let columns = displays ? records?.displays(ofTip: tip, key: key) ?? DonationColumns()
            : records?.invalidations(ofTip: tip, key: key) ?? DonationColumns(fields: [PayloadColumn(type: .string)])
        let count = columns.count
        tipCollections.append(columns)
        collections[collectionCount] = CollectionValue(event: eventCount + tipCollections.count - 1, low: 0, high: count, isList: false)
        collectionCount += 1
    }

    /// The key a keyed `TIP_*` instruction popped, of the tip's key type.
    private func poppedKey(_ slot: Int64, tip: Int) -> TipKey {
        tipKeyTypes[tip] == .string ? .string(resolve(slot)) : .int(slot)
    }

    /// `COUNT_EVENT*`: read through the store reader, which checks the store's data.
    func countDonations(_ event: Int, within window: Int64?, where test: FieldTest?) -> Int? {
        // The pack's events only (never a tip's records).
        reader.count(event, within: window, now: now, where: test)
    }

    /// `LOAD_FIELD`: a String field's slot becomes a reference to its column's text.
    func loadField(_ field: Int) -> Int64 {
        let fields = currentFields
        let slot = fields[field].slots[currentIndex]
        return fields[field].type == .string ? StringReference.field(event: currentEvent, field: field, code: slot) : slot
    }

    /// `EVENT`: pushes the collection of all of `event`'s donations.
    mutating func pushEventCollection(_ event: Int) -> Bool {
        guard let count = reader.withTimestamps(event, { $0.count }) else { return false }
        collections[collectionCount] = CollectionValue(event: event, low: 0, high: count, isList: false)
        collectionCount += 1
        return true
    }

    /// `COUNT`: pops the top collection, giving its size.
    mutating func popCollectionCount() -> Int { popCollection().count }

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

    // String comparisons build Strings; kept out of the run loop like the collection loops.

    @inline(never)
    func compareStrings(_ comparison: Int, _ left: Int64, _ right: Int64) -> Bool {
        ComparisonCode(verified: comparison).holds(resolve(left), resolve(right))
    }

    @inline(never)
    func compareString(_ comparison: Int, _ left: Int64, toConstant constant: Int) -> Bool {
        ComparisonCode(verified: comparison).holds(resolve(left), strings[constant])
    }

    /// Whether the string `reference` is one of the `count` string-table entries listed at `start`.
    @inline(never)
    func string(_ reference: Int64, isInConstantsAt start: Int, count: Int) -> Bool {
        let value = resolve(reference)
        return (0..<count).contains { strings[Int(code[start + $0])] == value }
    }

    // The collection instructions below loop over donations; kept out of the run loop so its
    // hot path keeps its registers.

    /// WITHIN: keeps the top collection's donations inside the window ending at `now`; false
    /// when the store's data for the event does not fit the pack.
    @inline(never)
    mutating func narrowTopToWindow(_ window: Int64) -> Bool {
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
    mutating func filterTop(predicateAt start: Int, sp: Int, at: Int, records: (any TipRecordReader)?) -> Bool {
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
    mutating func popCount(matching test: FieldTest) -> Int? {
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
    mutating func narrowTopToSubset(field: Int, largest: Bool) -> Bool {
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
    mutating func popDistinctCount(field: Int) -> Int? {
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
    mutating func record(_ at: Int, _ sp: Int) {
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
