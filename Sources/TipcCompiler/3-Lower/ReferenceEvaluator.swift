import TipRuntime

/// A plain tree-walking interpreter over checked expressions: the definition of what a rule
/// means, kept simple so it is obviously right. Tests use it as the oracle for the VM; the
/// lowering uses it to fold constants.
public struct ReferenceEvaluator {
    /// One donation: when, and its payload in field order.
    public struct Donation: Sendable, Hashable {
        public var date: Int64
        public var values: [RuntimeValue]
    }

    /// A sub-expression's value.
    public enum Value: Sendable, Hashable {
        case value(RuntimeValue)
        case collection([Donation])
    }

    /// What a rule reads of one tip or instance (format 2): whether it is invalidated, its
    /// displays' dates and its invalidations' dates and reasons since its latest reset.
    public struct TipState: Sendable, Hashable {
        public var invalidated: Bool
        public var displays: [Int64]
        public var invalidations: [(date: Int64, reason: String)]

        public init(invalidated: Bool = false, displays: [Int64] = [], invalidations: [(date: Int64, reason: String)] = []) {
            self.invalidated = invalidated
            self.displays = displays
            self.invalidations = invalidations
        }

        public static func == (a: TipState, b: TipState) -> Bool {
            a.invalidated == b.invalidated && a.displays == b.displays
                && a.invalidations.map(\.date) == b.invalidations.map(\.date) && a.invalidations.map(\.reason) == b.invalidations.map(\.reason)
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(invalidated)
            hasher.combine(displays)
        }
    }

    /// A tip (index into the program's tips) or an instance of a keyed one.
    public struct TipSlot: Sendable, Hashable {
        public var tip: Int
        public var key: TipKey?

        public init(tip: Int, key: TipKey? = nil) {
            self.tip = tip
            self.key = key
        }
    }

    public let parameters: [RuntimeValue]
    /// Each event's donations in time order.
    public let donations: [[Donation]]
    public let now: Int64
    /// The key of the instance being evaluated (a keyed tip's rules).
    public let key: TipKey?
    /// Other tips' recorded state; a tip or instance absent here was never displayed nor
    /// invalidated.
    public let tipStates: [TipSlot: TipState]

    public init(parameters: [RuntimeValue], donations: [[Donation]], now: Int64, key: TipKey? = nil, tipStates: [TipSlot: TipState] = [:]) {
        self.parameters = parameters
        self.donations = donations
        self.now = now
        self.key = key
        self.tipStates = tipStates
    }

    /// Reads every donation out of `store`.
    package init(parameters: [RuntimeValue], store: some DonationStore, now: Int64, key: TipKey? = nil, tipStates: [TipSlot: TipState] = [:]) {
        let donations = store.events.indices.map { event -> [Donation] in
            let columns = store.donations(ofEvent: event)
            return columns.timestamps.indices.map { index in
                Donation(date: columns.timestamps[index], values: columns.fields.map { $0.value(at: index) })
            }
        }
        self.init(parameters: parameters, donations: donations, now: now, key: key, tipStates: tipStates)
    }

    /// The value of a rule: true, false, or the failure that makes it false.
    public func evaluateRule(_ rule: CheckedExpression) -> Result<Bool, EvaluationFailure> {
        do {
            guard case .value(.bool(let result)) = try evaluate(rule, donation: nil) else {
                preconditionFailure("a rule is not Bool")
            }
            return .success(result)
        } catch {
            return .failure(error)
        }
    }

    /// The value of `expression`; `donation` is the one a `where` predicate is testing.
    public func evaluate(_ expression: CheckedExpression, donation: Donation?) throws(EvaluationFailure) -> Value {
        switch expression.kind {
        case .constant(let constant):
            return .value(constant)
        case .now:
            return .value(.date(milliseconds: now))
        case .parameter(let index):
            return .value(parameters[index])
        case .field(let index):
            return .value(donation!.values[index])
        case .event(let index):
            return .collection(donations[index])
        case .instanceKey:
            return .value(key?.value ?? .int(0))
        case .tipState(let query):
            var slotKey: TipKey?
            if let keyExpression = query.key {
                switch try value(keyExpression, donation) {
                case .int(let number): slotKey = .int(number)
                case .string(let text): slotKey = .string(text)
                default: preconditionFailure("a tip key is Int or String")
                }
            }
            let state = tipStates[TipSlot(tip: query.tip, key: slotKey)] ?? TipState()
            switch query.member {
            case .invalidated: return .value(.bool(state.invalidated))
            case .displays: return .collection(state.displays.map { Donation(date: $0, values: []) })
            case .invalidations: return .collection(state.invalidations.map { Donation(date: $0.date, values: [.string($0.reason)]) })
            }
        case .within(let inner, let window):
            let all = try collection(inner, donation)
            guard window > 0 else { return .collection([]) }
            let (start, overflow) = now.subtractingReportingOverflow(Int64(window))
            return .collection(all.filter { $0.date <= now && (overflow || $0.date > start) })
        case .filter(let inner, let predicate):
            var kept: [Donation] = []
            for candidate in try collection(inner, donation) where try bool(predicate, candidate) {
                kept.append(candidate)
            }
            return .collection(kept)
        case .largestSubset(let inner, let field):
            return .collection(Self.subset(try collection(inner, donation), field: field, largest: true))
        case .smallestSubset(let inner, let field):
            return .collection(Self.subset(try collection(inner, donation), field: field, largest: false))
        case .count(let inner):
            return .value(.int(Int64(try collection(inner, donation).count)))
        case .distinct(let inner, let field):
            return .value(.int(Int64(Set(try collection(inner, donation).map { $0.values[field] }).count)))
        case .not(let inner):
            return .value(.bool(!(try bool(inner, donation))))
        case .negate(let inner):
            return .value(try Self.negate(try value(inner, donation)))
        case .logical(let op, let left, let right):
            let first = try bool(left, donation)
            switch op {
            case .and: return .value(.bool(first ? try bool(right, donation) : false))
            case .or: return .value(.bool(first ? true : try bool(right, donation)))
            }
        case .compare(let op, let left, let right):
            return .value(.bool(Self.compare(op, try value(left, donation), try value(right, donation))))
        case .arithmetic(let op, let left, let right):
            return .value(try Self.arithmetic(op, try value(left, donation), try value(right, donation)))
        case .intToDouble(let inner):
            guard case .int(let number) = try value(inner, donation) else { preconditionFailure("intToDouble of a non-Int") }
            return .value(.double(Double(number)))
        case .inList(let inner, let list):
            let subject = try value(inner, donation)
            return .value(.bool(list.contains { Self.compare(.equal, subject, $0) }))
        }
    }

    private func collection(_ expression: CheckedExpression, _ donation: Donation?) throws(EvaluationFailure) -> [Donation] {
        guard case .collection(let donations) = try evaluate(expression, donation: donation) else { preconditionFailure("not a collection") }
        return donations
    }

    private func value(_ expression: CheckedExpression, _ donation: Donation?) throws(EvaluationFailure) -> RuntimeValue {
        guard case .value(let value) = try evaluate(expression, donation: donation) else { preconditionFailure("not a value") }
        return value
    }

    private func bool(_ expression: CheckedExpression, _ donation: Donation?) throws(EvaluationFailure) -> Bool {
        guard case .bool(let flag) = try value(expression, donation) else { preconditionFailure("not a Bool") }
        return flag
    }

    /// The largest (smallest) group of donations sharing the field's value; among groups of
    /// equal size, the one whose first donation comes first. Empty when there are no donations.
    static func subset(_ donations: [Donation], field: Int, largest: Bool) -> [Donation] {
        var groups: [(value: RuntimeValue, members: [Donation])] = []
        for donation in donations {
            if let index = groups.firstIndex(where: { $0.value == donation.values[field] }) {
                groups[index].members.append(donation)
            } else {
                groups.append((donation.values[field], [donation]))
            }
        }
        var best: [Donation] = []
        for group in groups where best.isEmpty || (largest ? group.members.count > best.count : group.members.count < best.count) {
            best = group.members
        }
        return best
    }

    static func negate(_ value: RuntimeValue) throws(EvaluationFailure) -> RuntimeValue {
        switch value {
        case .int(let number):
            let (result, overflow) = Int64(0).subtractingReportingOverflow(number)
            if overflow { throw .integerOverflow }
            return .int(result)
        case .duration(let number):
            let (result, overflow) = Int64(0).subtractingReportingOverflow(number)
            if overflow { throw .integerOverflow }
            return .duration(milliseconds: result)
        case .double(let number):
            if !(-number).isFinite { throw .nonFiniteDouble }
            return .double(-number)
        default:
            preconditionFailure("negating a \(value.type)")
        }
    }

    static func compare(_ op: ComparisonOperator, _ left: RuntimeValue, _ right: RuntimeValue) -> Bool {
        func holds<T: Comparable>(_ a: T, _ b: T) -> Bool { op.compare(a, b) }
        switch (left, right) {
        case (.int(let a), .int(let b)), (.date(let a), .date(let b)), (.duration(let a), .duration(let b)): return holds(a, b)
        case (.double(let a), .double(let b)): return holds(a, b)
        case (.string(let a), .string(let b)): return holds(a, b)
        case (.bool(let a), .bool(let b)):
            switch op {
            case .equal: return a == b
            case .notEqual: return a != b
            default: preconditionFailure("ordering Bools")
            }
        default: preconditionFailure("comparing a \(left.type) with a \(right.type)")
        }
    }

    static func arithmetic(_ op: ArithmeticOperator, _ left: RuntimeValue, _ right: RuntimeValue) throws(EvaluationFailure) -> RuntimeValue {
        func integer(_ a: Int64, _ b: Int64) throws(EvaluationFailure) -> Int64 {
            let (result, overflow): (Int64, Bool)
            switch op {
            case .add: (result, overflow) = a.addingReportingOverflow(b)
            case .subtract: (result, overflow) = a.subtractingReportingOverflow(b)
            case .multiply: (result, overflow) = a.multipliedReportingOverflow(by: b)
            case .divide:
                if b == 0 { throw .divisionByZero }
                (result, overflow) = a.dividedReportingOverflow(by: b)
            case .remainder:
                if b == 0 { throw .divisionByZero }
                (result, overflow) = a.remainderReportingOverflow(dividingBy: b)
            }
            if overflow { throw .integerOverflow }
            return result
        }
        switch (left, right) {
        case (.int(let a), .int(let b)): return .int(try integer(a, b))
        case (.double(let a), .double(let b)):
            let result: Double
            switch op {
            case .add: result = a + b
            case .subtract: result = a - b
            case .multiply: result = a * b
            case .divide: result = a / b
            case .remainder: result = a.truncatingRemainder(dividingBy: b)
            }
            if !result.isFinite { throw .nonFiniteDouble }
            return .double(result)
        case (.date(let a), .duration(let b)), (.duration(let b), .date(let a)): return .date(milliseconds: try integer(a, b))
        case (.date(let a), .date(let b)): return .duration(milliseconds: try integer(a, b))
        case (.duration(let a), .duration(let b)): return .duration(milliseconds: try integer(a, b))
        default: preconditionFailure("arithmetic on a \(left.type) and a \(right.type)")
        }
    }
}
