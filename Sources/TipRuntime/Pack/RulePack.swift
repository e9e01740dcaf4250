#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A rule pack in memory: what `tipc compile` writes and the runtime loads
/// (`RulePackLoader`), verified on load. Read-only to an app: `TipCenter.pack` gives the
/// running one.
public struct RulePack: Sendable, Hashable {
    /// The format version of the pack this was read from (`tipc compile` always writes the
    /// newest; the runtime reads every version up to the one it was built with).
    public package(set) var formatVersion: UInt32
    /// The string table. Bytecode refers to strings by index into it; names and texts are
    /// added to it by the writer (deduplicated, in first-use order).
    package var strings: [String]
    /// The minimum gap between first displays of different tips, in milliseconds (0: immediate).
    package var displayFrequencyMilliseconds: Int64
    /// The minimum time between first displays of different tips (0: immediate), in seconds.
    public var displayFrequency: TimeInterval { Milliseconds.seconds(displayFrequencyMilliseconds) }
    /// The declared parameters, in declared order; rules refer to them by index into this table.
    public package(set) var parameters: [PackParameter]
    /// The declared events, in declared order; rules and goals refer to them by index into this
    /// table.
    public package(set) var events: [PackEvent]
    /// The tips, in declared order; rules, groups and experiments refer to them by index into
    /// this table.
    public package(set) var tips: [PackTip]
    /// The tip groups, in declared order.
    public package(set) var groups: [PackGroup]
    /// The tips' localized and templated texts (table kind 8); nil when every text is plain.
    package var texts: PackTexts?
    /// The program that wrote the pack (`tipc 0.1.0`, the optional producer table); nil when the
    /// pack names none. Informational: it never changes what the pack means.
    public package(set) var producer: String?
    /// The experiments on tips, in declared order (the optional experiments table); empty when
    /// the program declares none.
    public package(set) var experiments: [PackExperiment]

    package init(formatVersion: UInt32 = PackFormat.version, strings: [String], displayFrequencyMilliseconds: Int64,
                parameters: [PackParameter], events: [PackEvent], tips: [PackTip], groups: [PackGroup], texts: PackTexts? = nil,
                producer: String? = nil, experiments: [PackExperiment] = []) {
        self.experiments = experiments
        self.formatVersion = formatVersion
        self.strings = strings
        self.displayFrequencyMilliseconds = displayFrequencyMilliseconds
        self.parameters = parameters
        self.events = events
        self.tips = tips
        self.groups = groups
        self.texts = texts
        self.producer = producer
    }

    /// The experiment on the tip at `index`, if any (a tip is in at most one).
    package func experiment(onTip index: Int) -> PackExperiment? {
        experiments.first { $0.tip == index }
    }

    /// The pack without its source positions (each rule's range and source map): what a pack
    /// file holds. Positions say where a program was written (its files' paths, its lines in
    /// YAML or in `.tips`), not what it does, so without them the same program gives the same
    /// bytes from any folder and either front end. Packs compiled in memory keep them for
    /// `explain`.
    package var withoutSourcePositions: RulePack {
        var pack = self
        for tip in pack.tips.indices {
            for rule in pack.tips[tip].rules.indices {
                pack.tips[tip].rules[rule].range = nil
                pack.tips[tip].rules[rule].sourceMap = []
            }
        }
        return pack
    }
}

/// A declared parameter: its type, default, closed set of values and whether it is transient.
public struct PackParameter: Sendable, Hashable {
    /// The parameter's name (unique among the pack's parameters).
    public package(set) var name: String
    /// The type of its values.
    public package(set) var type: ValueType
    /// Its value until one is set (and a transient parameter's value in every new runtime).
    public package(set) var defaultValue: RuntimeValue
    /// The closed set of values of an enum-like String parameter.
    public package(set) var values: [String]?
    /// Starts from its default in every new runtime.
    public package(set) var isTransient: Bool

    package init(name: String, type: ValueType, defaultValue: RuntimeValue, values: [String]? = nil, isTransient: Bool = false) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.values = values
        self.isTransient = isTransient
    }

    /// Whether the parameter can hold `value` (`refusal(of:)` says why not).
    package func accepts(_ value: RuntimeValue) -> Bool { refusal(of: value) == nil }

    /// Why the parameter cannot hold `value`, or nil when it can: a value of another type than
    /// the declared one, a Double that is not finite, a String outside an enum-like parameter's
    /// `values`.
    package func refusal(of value: RuntimeValue) -> TipError? {
        guard value.type == type else { return .wrongParameterType(parameter: name, expected: type, actual: value.type) }
        if let values, case .string(let text) = value, !values.contains(text) {
            return .valueNotAllowed(parameter: name, value: text, allowed: values)
        }
        if case .double(let number) = value, !number.isFinite { return .nonFiniteValue(parameter: name, value: number) }
        return nil
    }
}

/// A field of an event's typed payload.
public struct PackField: Sendable, Hashable {
    /// The field's name (unique among its event's fields).
    public package(set) var name: String
    /// The type of the field's values.
    public package(set) var type: ValueType

    package init(name: String, type: ValueType) {
        self.name = name
        self.type = type
    }
}

/// A declared event: its payload schema (empty: donations carry no value) and retention.
public struct PackEvent: Sendable, Hashable {
    /// The event's name (unique among the pack's events).
    public package(set) var name: String
    /// The payload's fields; empty when donations carry no value.
    public package(set) var fields: [PackField]
    /// The oldest donations beyond this count are trimmed.
    public package(set) var maximumCount: Int64?
    /// Donations older than this at the runtime's current instant (never relative to the newest
    /// donation) are trimmed.
    package var maximumAgeMilliseconds: Int64?
    /// How long a donation counts, in seconds (`nil`: for ever); older ones are trimmed.
    public var maximumAge: TimeInterval? { maximumAgeMilliseconds.map(Milliseconds.seconds) }

    package init(name: String, fields: [PackField] = [], maximumCount: Int64? = nil, maximumAgeMilliseconds: Int64? = nil) {
        self.name = name
        self.fields = fields
        self.maximumCount = maximumCount
        self.maximumAgeMilliseconds = maximumAgeMilliseconds
    }
}

/// A tip's image: an SF Symbol name or an asset-catalog name.
public enum PackImage: Sendable, Hashable {
    /// An SF Symbol, by its name (`Image(systemName:)`).
    case symbol(String)
    /// An image in the app's asset catalog, by its name (`Image(_:)`).
    case asset(String)
}

/// A button of a tip.
public struct PackAction: Sendable, Hashable {
    /// The action's id (unique among the tip's actions): what a tap on it records (`recordAction`).
    public package(set) var id: String
    /// The button's title as written; a localized or templated one holds the default locale's
    /// template (the pack's texts table holds every locale).
    public package(set) var title: String

    package init(id: String, title: String) {
        self.id = id
        self.title = title
    }
}

/// Where an instruction's value came from in the source, for `explain`.
public struct PackSourceRange: Sendable, Hashable {
    /// The source file's path, as given to the compiler.
    public package(set) var file: String
    /// The line where the range starts, counted from 1.
    public package(set) var startLine: Int32
    /// The column where the range starts, counted from 1 in Unicode scalars.
    public package(set) var startColumn: Int32
    /// The line where the range ends, counted from 1.
    public package(set) var endLine: Int32
    /// The column just after the range's last character (the end is exclusive), counted from 1
    /// in Unicode scalars.
    public package(set) var endColumn: Int32

    package init(file: String, startLine: Int32, startColumn: Int32, endLine: Int32, endColumn: Int32) {
        self.file = file
        self.startLine = startLine
        self.startColumn = startColumn
        self.endLine = endLine
        self.endColumn = endColumn
    }
}

/// One entry of a rule's source map: the instruction at `pc` computes the expression at `range`.
package struct SourceMapEntry: Sendable, Hashable {
    package var pc: UInt32
    package var range: PackSourceRange

    package init(pc: UInt32, range: PackSourceRange) {
        self.pc = pc
        self.range = range
    }
}

/// One rule: bytecode computing a Bool, and an optional source map for `explain`.
package struct RuleProgram: Sendable, Hashable {
    /// Instruction words (see docs/bytecode.md).
    package var code: [UInt32]
    /// The whole rule's source range, if known.
    package var range: PackSourceRange?
    /// Per-instruction source ranges, sorted by pc.
    package var sourceMap: [SourceMapEntry]

    package init(code: [UInt32], range: PackSourceRange? = nil, sourceMap: [SourceMapEntry] = []) {
        self.code = code
        self.range = range
        self.sourceMap = sourceMap
    }
}

/// A tip: texts, image, actions, display options and rules (all must hold).
public struct PackTip: Sendable, Hashable {
    /// The tip's name (unique among the pack's tips): how the app refers to it.
    public package(set) var name: String
    /// The title as written; a localized or templated one holds the default locale's template
    /// (the pack's texts table holds every locale).
    public package(set) var title: String
    /// The message as written (like `title`); nil when the tip has none.
    public package(set) var message: String?
    /// The tip's image; nil when it has none.
    public package(set) var image: PackImage?
    /// The tip's buttons, in declared order.
    public package(set) var actions: [PackAction]
    /// The number of displays after which the tip is invalidated (`displayCountExceeded`);
    /// nil: no limit.
    public package(set) var maxDisplayCount: Int64?
    package var maxDisplayDurationMilliseconds: Int64?
    /// The time on screen after which the tip is invalidated, in seconds (`nil`: no limit).
    public var maxDisplayDuration: TimeInterval? { maxDisplayDurationMilliseconds.map(Milliseconds.seconds) }
    /// Whether the tip displays without waiting for the display frequency's gap; its first
    /// display then starts no gap for other tips either.
    public package(set) var ignoresDisplayFrequency: Bool
    package var rules: [RuleProgram]
    /// The key of a keyed tip: each key value is then its own instance. Stored in
    /// the `tipKeys` table.
    public package(set) var key: PackTipKey?
    /// What counts as the tip having worked, for tip analytics. Stored in the optional
    /// `tipGoals` table, which older runtimes skip.
    public package(set) var goal: PackTipGoal?

    package init(name: String, title: String, message: String? = nil, image: PackImage? = nil, actions: [PackAction] = [],
                maxDisplayCount: Int64? = nil, maxDisplayDurationMilliseconds: Int64? = nil,
                ignoresDisplayFrequency: Bool = false, rules: [RuleProgram] = [], key: PackTipKey? = nil, goal: PackTipGoal? = nil) {
        self.key = key
        self.goal = goal
        self.name = name
        self.title = title
        self.message = message
        self.image = image
        self.actions = actions
        self.maxDisplayCount = maxDisplayCount
        self.maxDisplayDurationMilliseconds = maxDisplayDurationMilliseconds
        self.ignoresDisplayFrequency = ignoresDisplayFrequency
        self.rules = rules
    }

    /// Whether records of the instance `key` are this tip's: none for a tip without a key, one
    /// of the declared type for a keyed tip. Records that fail (written under a pack that
    /// declared the tip otherwise) stay stored but unused, as a parameter of another type does.
    package func accepts(_ key: TipKey?) -> Bool {
        switch (self.key, key) {
        case (nil, nil): return true
        case (let declared?, let key?): return declared.type == key.type
        default: return false
        }
    }
}

/// A tip's goal: a donation of `event` within `window` after a user first sees the tip (a
/// user of a hidden experiment arm: after the first exposure) counts as the tip having worked.
public struct PackTipGoal: Sendable, Hashable {
    /// The event, by index into `RulePack.events`.
    public package(set) var event: Int
    package var windowMilliseconds: Int64
    /// How long after the first display (or exposure) a donation still counts, in seconds.
    public var window: TimeInterval { Milliseconds.seconds(windowMilliseconds) }

    package init(event: Int, windowMilliseconds: Int64) {
        self.event = event
        self.windowMilliseconds = windowMilliseconds
    }
}

/// How a group offers its tips.
public enum PackGroupPriority: UInt8, Sendable, Hashable, CaseIterable {
    /// A tip is offered only when every tip before it is invalidated.
    case ordered = 0
    /// The first available tip is offered.
    case firstAvailable = 1
}

/// A group of tips, by index into `RulePack.tips`.
public struct PackGroup: Sendable, Hashable {
    /// The group's name (unique among the pack's groups).
    public package(set) var name: String
    /// How the group offers its tips.
    public package(set) var priority: PackGroupPriority
    /// The group's tips in their order, by index into `RulePack.tips`.
    public package(set) var tips: [Int]

    package init(name: String, priority: PackGroupPriority, tips: [Int]) {
        self.name = name
        self.priority = priority
        self.tips = tips
    }
}
