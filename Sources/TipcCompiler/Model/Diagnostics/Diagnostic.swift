/// How serious a diagnostic is.
public enum Severity: String, Sendable, Hashable, Codable {
    case error
    case warning
    case note
}

/// The stable identifier of a kind of problem. Codes are part of the public
/// contract: CI configurations and SARIF rule ids refer to them.
public enum DiagnosticCode: String, Sendable, Hashable, CaseIterable, Codable {
    case syntax
    case yaml
    case duplicateKey = "duplicate-key"
    case unknownKey = "unknown-key"
    case missingKey = "missing-key"
    case invalidValue = "invalid-value"
    case duplicateName = "duplicate-name"
    case unknownParameter = "unknown-parameter"
    case unknownEvent = "unknown-event"
    case unknownField = "unknown-field"
    case unknownTip = "unknown-tip"
    case typeMismatch = "type-mismatch"
    case invalidDuration = "invalid-duration"
    case unsatisfiable
    case alwaysTrue = "always-true"
    case unused
    /// A call of a function the rule language does not have.
    case unknownFunction = "unknown-function"
    /// A size limit of the implementation was exceeded (nesting depth, file size, …).
    case limit
    /// The input could not be read at all (missing file, permissions).
    case io
    /// A TipKit construct in Swift that the manifest cannot hold, imported as the closest literal.
    case importApproximated = "import-approximated"
    /// `tipc generate tipkit`: a rule or option TipKit cannot express at the minimum OS.
    case tipkitUnsupported = "tipkit-unsupported"
    /// A suppression comment that suppresses nothing.
    case unusedSuppression = "unused-suppression"
    /// A suppression comment that names an unknown code, or one that cannot be suppressed.
    case invalidSuppression = "invalid-suppression"
    /// A text's locale (or `defaultLocale`) that is not a well-formed BCP 47 tag.
    case invalidLocale = "invalid-locale"
    /// A well-formed locale whose two-letter language is not an ISO 639-1 language (`jp`).
    case unknownLocale = "unknown-locale"
    /// A localized text that lacks the default locale.
    case missingLocale = "missing-locale"
    /// Two locales of one text that read different placeholders or parameters.
    case placeholderMismatch = "placeholder-mismatch"
    /// A text's `{name}` that names no declared placeholder.
    case unknownPlaceholder = "unknown-placeholder"
    /// A lone `{` or `}` in a text, or braces around something that is not a name.
    case unbalancedBrace = "unbalanced-brace"
    /// A declared placeholder that no text of its tip uses.
    case unusedPlaceholder = "unused-placeholder"
    /// Format 2: a keyed tip listed in a group (each instance is its own tip; groups list tips).
    case keyedGroupMember = "keyed-group-member"
    /// Format 2: `tip(X)` of a keyed tip without naming the instance.
    case missingTipKey = "missing-tip-key"
    /// Format 2: `tip(X, k)` of a tip that has no key.
    case unexpectedTipKey = "unexpected-tip-key"
    /// A tip's `goal` names an event that is not declared.
    case unknownGoalEvent = "unknown-goal-event"
    /// The weights of an experiment's arms add up to 0: no user could be assigned.
    case zeroTotalWeight = "zero-total-weight"
    /// An arm's text reads other placeholders or parameters than the tip's text it replaces.
    case armPlaceholderMismatch = "arm-placeholder-mismatch"
    /// An experiment's first arm, its baseline, is hidden.
    case hiddenBaseline = "hidden-baseline"
    /// A tip is varied by more than one experiment.
    case tipInSeveralExperiments = "tip-in-several-experiments"

    /// The severity a diagnostic of this code has.
    public var defaultSeverity: Severity {
        switch self {
        case .unsatisfiable, .alwaysTrue, .unused, .importApproximated, .unusedSuppression, .unusedPlaceholder: return .warning
        default: return .error
        }
    }

    /// One line saying what the code is about (SARIF rule descriptions, `--help`).
    public var summary: String {
        switch self {
        case .syntax: return "The rule language or a manifest value does not parse."
        case .yaml: return "The YAML is malformed, or uses anchors, aliases or tags."
        case .duplicateKey: return "A mapping repeats a key."
        case .unknownKey: return "A manifest key that the format does not have."
        case .missingKey: return "A required key is absent."
        case .invalidValue: return "A value of the wrong kind or out of range."
        case .duplicateName: return "Two declarations share a name, or two actions of one tip share an id."
        case .unknownParameter: return "A reference to a parameter that does not exist."
        case .unknownEvent: return "A reference to an event that does not exist."
        case .unknownField: return "A reference to an event payload field that does not exist."
        case .unknownTip: return "A reference to a tip that does not exist."
        case .typeMismatch: return "Operand types do not fit the operator, or a rule is not Bool."
        case .invalidDuration: return "A duration that is not allowed (months, years, zero windows, overflow)."
        case .unsatisfiable: return "A tip whose rules can never all hold."
        case .alwaysTrue: return "A rule that holds whatever the state."
        case .unused: return "A parameter or event that no rule uses."
        case .unknownFunction: return "A call of a function the rule language does not have."
        case .limit: return "An input exceeds a documented size limit."
        case .io: return "An input file could not be read."
        case .importApproximated: return "A TipKit construct in Swift that the manifest cannot hold exactly."
        case .tipkitUnsupported: return "A rule or option that TipKit cannot express at the minimum OS (tipc generate tipkit)."
        case .unusedSuppression: return "A suppression comment that suppresses nothing."
        case .invalidSuppression: return "A suppression comment that names no code, an unknown code, or one that cannot be suppressed."
        case .invalidLocale: return "A locale that is not a well-formed BCP 47 language tag."
        case .unknownLocale: return "A locale whose language is not a known ISO 639-1 language."
        case .missingLocale: return "A localized text that lacks the default locale."
        case .placeholderMismatch: return "The locales of one text use different placeholders or parameters."
        case .unknownPlaceholder: return "A text names a placeholder the tip does not declare."
        case .unbalancedBrace: return "A text has a lone '{' or '}', or braces around something that is not a name."
        case .unusedPlaceholder: return "A declared placeholder that no text of its tip uses."
        case .keyedGroupMember: return "A tip with a key listed as a group member."
        case .missingTipKey: return "tip(X) of a tip with a key, without the instance's key."
        case .unexpectedTipKey: return "tip(X, key) of a tip that has no key."
        case .unknownGoalEvent: return "A tip's or an experiment's goal names an event that does not exist."
        case .zeroTotalWeight: return "The weights of an experiment's arms add up to 0."
        case .armPlaceholderMismatch: return "An arm's text reads other placeholders or parameters than the tip's text it replaces."
        case .hiddenBaseline: return "An experiment's first arm, its baseline, is hidden."
        case .tipInSeveralExperiments: return "A tip is varied by more than one experiment."
        }
    }
}

/// A secondary message attached to a diagnostic, optionally pointing somewhere else.
public struct DiagnosticNote: Sendable, Hashable {
    public var message: String
    public var range: SourceRange?

    public init(_ message: String, at range: SourceRange? = nil) {
        self.message = message
        self.range = range
    }
}

/// One problem found in the input. A diagnostic is data; rendering it (text, JSON, SARIF,
/// GitHub annotations) is the reporters' concern.
public struct Diagnostic: Error, Sendable, Hashable {
    public var code: DiagnosticCode
    public var severity: Severity
    public var message: String
    public var range: SourceRange
    /// A suggestion shown as `= help:` (a did-you-mean, how to fix it).
    public var help: String?
    public var notes: [DiagnosticNote]

    public init(_ code: DiagnosticCode, _ message: String, at range: SourceRange,
                help: String? = nil, notes: [DiagnosticNote] = [], severity: Severity? = nil) {
        self.code = code
        self.severity = severity ?? code.defaultSeverity
        self.message = message
        self.range = range
        self.help = help
        self.notes = notes
    }
}

extension Array where Element == Diagnostic {
    /// Diagnostics in reading order: by file, then position, then code.
    public func sortedForDisplay() -> [Diagnostic] {
        sorted { a, b in
            // Equal numbers are equal paths: the paths are looked up only when they differ.
            if a.range.fileNumber != b.range.fileNumber { return a.range.file < b.range.file }
            if a.range.start != b.range.start { return a.range.start < b.range.start }
            return a.code.rawValue < b.code.rawValue
        }
    }

    public var errorCount: Int { lazy.filter { $0.severity == .error }.count }
    public var warningCount: Int { lazy.filter { $0.severity == .warning }.count }
}
