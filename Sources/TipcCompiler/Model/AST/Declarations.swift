import TipRuntime

/// How the front ends spell the pack's value types.
extension ValueType {
    /// The spelling in a YAML manifest (`bool`, `int`, …).
    public var manifestSpelling: String {
        switch self {
        case .bool: return "bool"
        case .int: return "int"
        case .double: return "double"
        case .string: return "string"
        case .date: return "date"
        case .duration: return "duration"
        }
    }

    /// The type a YAML manifest spells `spelling`, if any.
    public init?(manifestSpelling spelling: String) {
        guard let type = ValueType.allCases.first(where: { $0.manifestSpelling == spelling }) else { return nil }
        self = type
    }

    /// The spelling in the rule language (`Bool`, `Int`, …): the runtime's own.
    public var tipsSpelling: String { description }

    /// The type another language's name for it means (`boolean`, `integer`, `float`, `str`,
    /// any case), for a did-you-mean; nil for any other word.
    public init?(commonName name: String) {
        switch name.lowercased() {
        case "boolean", "bool", "flag": self = .bool
        case "integer", "int", "long", "int64", "number": self = .int
        case "float", "double", "real", "decimal": self = .double
        case "str", "string", "text": self = .string
        case "datetime", "timestamp", "instant", "date": self = .date
        case "interval", "timeinterval", "timespan", "duration": self = .duration
        default: return nil
        }
    }
}

/// How both front ends spell a group's priority.
extension PackGroupPriority {
    /// `ordered` or `firstAvailable`.
    public var spelling: String {
        switch self {
        case .ordered: return "ordered"
        case .firstAvailable: return "firstAvailable"
        }
    }

    /// The priority spelled `spelling`, if any.
    public init?(spelling: String) {
        guard let priority = PackGroupPriority.allCases.first(where: { $0.spelling == spelling }) else { return nil }
        self = priority
    }
}

/// The global display frequency: the minimum gap between tips.
public enum DisplayFrequencySpec: Sendable, Hashable {
    case immediate, hourly, daily, weekly, monthly
    /// A custom gap in whole seconds (`5d`, `12h`).
    case custom(seconds: Int)

    /// The gap in seconds (`immediate` is 0).
    public var seconds: Int {
        switch self {
        case .immediate: return 0
        case .hourly: return 3_600
        case .daily: return 86_400
        case .weekly: return 7 * 86_400
        case .monthly: return 30 * 86_400
        case .custom(let seconds): return seconds
        }
    }

    /// The names of the named frequencies, shortest gap first.
    public static let names = ["immediate", "hourly", "daily", "weekly", "monthly"]

    /// The named frequencies, by their manifest spelling.
    public static let named: [String: DisplayFrequencySpec] = [
        "immediate": .immediate, "hourly": .hourly, "daily": .daily, "weekly": .weekly, "monthly": .monthly,
    ]
}

public struct ParameterDecl: Sendable, Hashable {
    public var name: Identifier
    /// Nil when missing or not a known type (the front end has reported it).
    public var type: Located<ValueType>?
    public var defaultValue: Located<Literal>?
    /// The closed set of values of an enum-like String parameter.
    public var values: [Located<String>]?
    /// Resets to its default in every new runtime.
    public var isTransient: Bool
    public var comments: [String]
    /// The whole declaration (for `missing-key`, which points at the declaration).
    public var range: SourceRange
    /// A type was written but is not one (the front end has reported it): `type` is nil, and
    /// the type is not "missing" too.
    public var hasUnknownType = false

    public init(name: Identifier, type: Located<ValueType>?, defaultValue: Located<Literal>?,
                values: [Located<String>]? = nil, isTransient: Bool = false, comments: [String] = [], range: SourceRange) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.values = values
        self.isTransient = isTransient
        self.comments = comments
        self.range = range
    }
}

public struct FieldDecl: Sendable, Hashable {
    public var name: Identifier
    public var type: Located<ValueType>?
    /// A type was written but is not one (reported by the front end), as for parameters.
    public var hasUnknownType = false

    public init(name: Identifier, type: Located<ValueType>?) {
        self.name = name
        self.type = type
    }
}

/// Retention of an event's donations: the oldest beyond `maximumCount`, and those older
/// than `maximumAge`, are trimmed.
public struct DonationLimitDecl: Sendable, Hashable {
    public var maximumCount: Located<Int>?
    public var maximumAgeSeconds: Located<Int>?

    public init(maximumCount: Located<Int>? = nil, maximumAgeSeconds: Located<Int>? = nil) {
        self.maximumCount = maximumCount
        self.maximumAgeSeconds = maximumAgeSeconds
    }
}

public struct EventDecl: Sendable, Hashable {
    public var name: Identifier
    /// The typed donation payload (empty: donations carry no value).
    public var fields: [FieldDecl]
    public var donationLimit: DonationLimitDecl?
    public var comments: [String]
    public var range: SourceRange

    public init(name: Identifier, fields: [FieldDecl] = [], donationLimit: DonationLimitDecl? = nil,
                comments: [String] = [], range: SourceRange) {
        self.name = name
        self.fields = fields
        self.donationLimit = donationLimit
        self.comments = comments
        self.range = range
    }
}

public struct ActionDecl: Sendable, Hashable {
    public var id: Identifier
    public var title: TextDecl?

    public init(id: Identifier, title: TextDecl?) {
        self.id = id
        self.title = title
    }
}

/// The key of a keyed tip: `key: { name: trailID, type: int }`, `tip t[trailID: Int]`.
public struct TipKeyDecl: Sendable, Hashable {
    public var name: Identifier
    /// Int or String; nil when missing or not a type (the front end or checker reports it).
    public var type: Located<ValueType>?
    public var range: SourceRange

    public init(name: Identifier, type: Located<ValueType>?, range: SourceRange) {
        self.name = name
        self.type = type
        self.range = range
    }
}

/// `EVENT within DURATION`: a donation of the event within the window counts (a tip's `goal`).
public struct EventWindowDecl: Sendable, Hashable {
    public var event: Identifier
    public var windowSeconds: Located<Int>
    /// The whole `EVENT within DURATION`.
    public var range: SourceRange

    public init(event: Identifier, windowSeconds: Located<Int>, range: SourceRange) {
        self.event = event
        self.windowSeconds = windowSeconds
        self.range = range
    }
}

public struct TipDecl: Sendable, Hashable {
    public var name: Identifier
    /// Format 2: each value of the key is its own instance of the tip.
    public var key: TipKeyDecl?
    public var title: TextDecl?
    public var message: TextDecl?
    public var image: Located<PackImage>?
    public var actions: [ActionDecl]
    public var maxDisplayCount: Located<Int>?
    /// Total seconds on screen after which the tip is invalidated.
    public var maxDisplayDurationSeconds: Located<Int>?
    public var ignoresDisplayFrequency: Located<Bool>?
    /// The event whose donation within the window after the user's first sight of the tip
    /// counts as the tip having worked (tip analytics).
    public var goal: EventWindowDecl?
    /// All must hold (AND).
    public var rules: [Expression]
    /// The rules of a YAML manifest read without parsing them (`ManifestDecoder.decode(_:diagnostics:parsingRules:)`):
    /// the checker parses each right before checking it. Empty when `rules` holds them. Only the
    /// checker reads them: a printer, formatter or generator given such a file would see a tip
    /// without rules, so whatever reads syntax trees decodes with rules parsed (the default).
    public var unparsedRules: [UnparsedRule] = []
    /// The values the app passes for the texts' `{name}`s.
    public var placeholders: [PlaceholderDecl] = []
    public var comments: [String]
    public var range: SourceRange

    public init(name: Identifier, key: TipKeyDecl? = nil, title: TextDecl? = nil, message: TextDecl? = nil,
                image: Located<PackImage>? = nil, actions: [ActionDecl] = [], maxDisplayCount: Located<Int>? = nil,
                maxDisplayDurationSeconds: Located<Int>? = nil, ignoresDisplayFrequency: Located<Bool>? = nil,
                rules: [Expression] = [], unparsedRules: [UnparsedRule] = [], placeholders: [PlaceholderDecl] = [],
                comments: [String] = [], range: SourceRange) {
        self.name = name
        self.key = key
        self.placeholders = placeholders
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
        self.maxDisplayCount = maxDisplayCount
        self.maxDisplayDurationSeconds = maxDisplayDurationSeconds
        self.ignoresDisplayFrequency = ignoresDisplayFrequency
        self.rules = rules
        self.unparsedRules = unparsedRules
        self.comments = comments
        self.range = range
    }
}

public struct GroupDecl: Sendable, Hashable {
    public var name: Identifier
    public var priority: Located<PackGroupPriority>?
    public var tips: [Identifier]
    public var comments: [String]
    public var range: SourceRange

    public init(name: Identifier, priority: Located<PackGroupPriority>?, tips: [Identifier], comments: [String] = [], range: SourceRange) {
        self.name = name
        self.priority = priority
        self.tips = tips
        self.comments = comments
        self.range = range
    }
}

/// An experiment on a tip: users are divided among its arms, each showing the tip with some
/// of its texts replaced (or not at all: a hidden arm), and judged by the goal.
public struct ExperimentDecl: Sendable, Hashable {
    public var name: Identifier
    /// The tip it varies; nil when missing (the checker reports `missing-key`).
    public var tip: Identifier?
    /// The arms in declared order; the first is the baseline.
    public var arms: [ArmDecl]
    public var goal: EventWindowDecl?
    /// What users are hashed with; the experiment's name when absent.
    public var salt: Located<String>?
    public var comments: [String]
    public var range: SourceRange

    public init(name: Identifier, tip: Identifier? = nil, arms: [ArmDecl] = [], goal: EventWindowDecl? = nil,
                salt: Located<String>? = nil, comments: [String] = [], range: SourceRange) {
        self.name = name
        self.tip = tip
        self.arms = arms
        self.goal = goal
        self.salt = salt
        self.comments = comments
        self.range = range
    }
}

/// An arm of an experiment: its weight, whether it is hidden, and what it shows instead of the
/// tip's own texts, image and actions (nil: the tip's).
public struct ArmDecl: Sendable, Hashable {
    public var name: Identifier
    /// Nil when missing (the checker reports `missing-key`).
    public var weight: Located<Int>?
    public var hidden: Located<Bool>?
    public var title: TextDecl?
    public var message: TextDecl?
    public var image: Located<PackImage>?
    /// The arm's buttons instead of the tip's; nil when the arm shows the tip's.
    public var actions: [ActionDecl]?
    public var comments: [String]
    public var range: SourceRange

    public init(name: Identifier, weight: Located<Int>? = nil, hidden: Located<Bool>? = nil, title: TextDecl? = nil,
                message: TextDecl? = nil, image: Located<PackImage>? = nil, actions: [ActionDecl]? = nil,
                comments: [String] = [], range: SourceRange) {
        self.name = name
        self.weight = weight
        self.hidden = hidden
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
        self.comments = comments
        self.range = range
    }
}

/// Which front end a file came through.
public enum SourceFormat: String, Sendable, Hashable {
    case yaml
    case tips
}

/// The declarations of one source file. Several files form one program.
public struct ManifestFile: Sendable, Hashable {
    public var path: String
    public var format: SourceFormat
    /// `tipkit: 1` / `tipkit 1`; nil when absent (the checker reports `missing-key`).
    public var version: Located<Int>?
    public var displayFrequency: Located<DisplayFrequencySpec>?
    /// The locale of texts when none matches the one asked for; required once a text
    /// is localized.
    public var defaultLocale: Located<String>?
    public var parameters: [ParameterDecl]
    public var events: [EventDecl]
    public var tips: [TipDecl]
    public var groups: [GroupDecl]
    public var experiments: [ExperimentDecl]
    /// Where to point a diagnostic about the file as a whole (its first line).
    public var headRange: SourceRange

    public init(path: String, format: SourceFormat, version: Located<Int>? = nil,
                displayFrequency: Located<DisplayFrequencySpec>? = nil, parameters: [ParameterDecl] = [],
                events: [EventDecl] = [], tips: [TipDecl] = [], groups: [GroupDecl] = [], experiments: [ExperimentDecl] = [],
                headRange: SourceRange) {
        self.experiments = experiments
        self.path = path
        self.format = format
        self.version = version
        self.displayFrequency = displayFrequency
        self.parameters = parameters
        self.events = events
        self.tips = tips
        self.groups = groups
        self.headRange = headRange
    }
}
