import TipRuntime

/// The type of a checked expression: a value of one of the pack's types, or what only the
/// checker has.
public enum ExpressionType: Sendable, Hashable, CustomStringConvertible {
    case value(ValueType)
    /// An event's donations (after any filters); `event` indexes `CheckedProgram.events`.
    case collection(event: Int)
    /// The type of an expression that already has an error; suppresses follow-on errors.
    case error

    public var description: String {
        switch self {
        case .value(let type): return type.description
        case .collection: return "event collection"
        case .error: return "<error>"
        }
    }
}

public enum ArithmeticOperator: String, Sendable, Hashable {
    case add = "+", subtract = "-", multiply = "*", divide = "/", remainder = "%"
}

public enum ComparisonOperator: String, Sendable, Hashable {
    case equal = "==", notEqual = "!=", less = "<", lessOrEqual = "<=", greater = ">", greaterOrEqual = ">="

    /// The bytecode's comparison for this operator.
    var code: ComparisonCode {
        switch self {
        case .equal: return .equal
        case .notEqual: return .notEqual
        case .less: return .less
        case .lessOrEqual: return .lessOrEqual
        case .greater: return .greater
        case .greaterOrEqual: return .greaterOrEqual
        }
    }

    /// Whether `a op b` holds, as the VM decides it.
    func compare<T: Comparable>(_ a: T, _ b: T) -> Bool {
        code.holds(a, b)
    }
}

public enum LogicalOperator: String, Sendable, Hashable {
    case and, or
}

/// A checked, typed expression: names resolved to indexes, `X within D` clauses pushed down
/// onto every event they window, Int operands promoted explicitly where mixed with Double.
public struct CheckedExpression: Sendable, Hashable {
    // Only the cases that hold expressions are boxed: leaves (constants, parameters, events)
    // are stored inline, which spares an allocation for about half the nodes of a rule.
    public enum Kind: Sendable, Hashable {
        case constant(RuntimeValue)
        case now
        /// A parameter's current value; indexes `CheckedProgram.parameters`.
        case parameter(Int)
        /// Inside a `where` predicate: a payload field of the donation being tested.
        case field(Int)
        /// All donations of an event.
        case event(Int)
        /// Donations with `now - window < date <= now`.
        indirect case within(CheckedExpression, windowMilliseconds: Int)
        /// Donations whose payload satisfies the predicate.
        indirect case filter(CheckedExpression, predicate: CheckedExpression)
        /// The largest (or smallest) group of donations sharing the field's value.
        indirect case largestSubset(CheckedExpression, field: Int)
        indirect case smallestSubset(CheckedExpression, field: Int)
        /// Number of donations (Int).
        indirect case count(CheckedExpression)
        /// Number of distinct values of a field (Int).
        indirect case distinct(CheckedExpression, field: Int)
        indirect case not(CheckedExpression)
        indirect case negate(CheckedExpression)
        indirect case logical(LogicalOperator, CheckedExpression, CheckedExpression)
        /// Operands have the same type (after promotion).
        indirect case compare(ComparisonOperator, CheckedExpression, CheckedExpression)
        /// Int×Int, Double×Double, Date±Duration, Date−Date, Duration±Duration.
        indirect case arithmetic(ArithmeticOperator, CheckedExpression, CheckedExpression)
        indirect case intToDouble(CheckedExpression)
        indirect case inList(CheckedExpression, [RuntimeValue])
        /// Format 2: the key of the instance being evaluated (a keyed tip's rules only).
        case instanceKey
        /// Format 2: another tip's recorded state (`tip(X).invalidated`, `.displays`,
        /// `.invalidations`), of its instance `key` for a keyed tip.
        indirect case tipState(TipStateQuery)
    }

    public var kind: Kind
    public var type: ExpressionType
    public var range: SourceRange

    public init(_ kind: Kind, type: ExpressionType, range: SourceRange) {
        self.kind = kind
        self.type = type
        self.range = range
    }
}

/// What a rule reads of another tip.
public struct TipStateQuery: Sendable, Hashable {
    public enum Member: String, Sendable, Hashable {
        /// Bool: invalidated now, any reason.
        case invalidated
        /// Collection: one entry per display since the latest reset.
        case displays
        /// Collection: one entry per invalidation since the latest reset, field `reason`.
        case invalidations
    }

    /// Index into `CheckedProgram.tips`.
    public var tip: Int
    public var member: Member
    /// The instance of a keyed tip: the rule's own key, or a constant of the key's type. Nil
    /// for a tip without a key.
    public var key: CheckedExpression?

    public init(tip: Int, member: Member, key: CheckedExpression? = nil) {
        self.tip = tip
        self.member = member
        self.key = key
    }
}

/// A checked tip: its pack entry, and its rules as checked expressions (lowering compiles them
/// to the entry's bytecode).
public struct CheckedTip: Sendable, Hashable {
    /// The tip's entry in the pack: name, texts, image, actions, display options and key. Its
    /// `rules` stay empty; lowering fills them from `rules`.
    public var entry: PackTip
    /// Each of type Bool; all must hold.
    public var rules: [CheckedExpression] {
        didSet { rulesMayFold = true }
    }
    /// Where the tip is declared (its name).
    public var range: SourceRange
    /// The texts entry of the pack, when the tip's texts are localized or templates.
    package var texts: PackTipTexts?
    /// Whether `ConstantFolder` may find something to fold in `rules`. The checker clears it
    /// for a tip in which it built no foldable node, so that folding skips the tip unread; any
    /// change to `rules` sets it again. Not part of the tip's identity (`==`, hashing).
    var rulesMayFold = true

    /// The tip's name.
    public var name: String { entry.name }

    public static func == (a: CheckedTip, b: CheckedTip) -> Bool {
        a.entry == b.entry && a.rules == b.rules && a.range == b.range && a.texts == b.texts
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(entry)
        hasher.combine(rules)
        hasher.combine(range)
        hasher.combine(texts)
    }

    public init(name: String, title: String, message: String? = nil, image: PackImage? = nil, actions: [PackAction] = [],
                maxDisplayCount: Int64? = nil, maxDisplayDurationMilliseconds: Int64? = nil, ignoresDisplayFrequency: Bool = false,
                rules: [CheckedExpression] = [], range: SourceRange, key: PackTipKey? = nil, goal: PackTipGoal? = nil) {
        entry = PackTip(name: name, title: title, message: message, image: image, actions: actions, maxDisplayCount: maxDisplayCount,
                        maxDisplayDurationMilliseconds: maxDisplayDurationMilliseconds,
                        ignoresDisplayFrequency: ignoresDisplayFrequency, key: key, goal: goal)
        self.rules = rules
        self.range = range
    }
}

/// A whole program that passed the checker without errors: what the compiler lowers to a
/// rule pack and what the reference evaluator interprets.
public struct CheckedProgram: Sendable, Hashable {
    public var displayFrequency: DisplayFrequencySpec
    // Parameters, events and groups are the pack's own table entries: the checker's output is
    // what the pack stores. Only tips differ (checked rules instead of bytecode).
    public var parameters: [PackParameter]
    public var events: [PackEvent]
    public var tips: [CheckedTip]
    public var groups: [PackGroup]
    /// The locale of texts when none matches the one asked for (when any tip has a texts entry).
    public var defaultLocale: String?
    /// The experiments on tips, in declared order: the pack's own entries.
    public var experiments: [PackExperiment]

    public init(displayFrequency: DisplayFrequencySpec = .immediate, parameters: [PackParameter] = [], events: [PackEvent] = [],
                tips: [CheckedTip] = [], groups: [PackGroup] = [], defaultLocale: String? = nil, experiments: [PackExperiment] = []) {
        self.experiments = experiments
        self.defaultLocale = defaultLocale
        self.displayFrequency = displayFrequency
        self.parameters = parameters
        self.events = events
        self.tips = tips
        self.groups = groups
    }
}
