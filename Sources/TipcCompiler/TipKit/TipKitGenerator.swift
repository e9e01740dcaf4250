/// `tipc generate tipkit` (SPEC §8): Swift that declares a program's tips with TipKit — ids
/// kept, parameters and events in shared namespaces (`TipParameters`, `TipEvents`), each rule a
/// `#Rule`, availability annotations for what needs iOS 18 or 26. What TipKit cannot express at
/// the minimum OS is a `tipkit-unsupported` error at the manifest, never dropped or changed.
/// Importing the output (`TipKitImporter`) gives back the same program.
public enum TipKitGenerator {
    public enum MinimumOS: String, Sendable, CaseIterable, Comparable {
        case ios17, ios18, ios26

        var rank: Int { self == .ios17 ? 17 : self == .ios18 ? 18 : 26 }
        public static func < (a: MinimumOS, b: MinimumOS) -> Bool { a.rank < b.rank }

        /// The `@available` arguments of the TipKit release that corresponds to this iOS.
        var availability: String {
            switch self {
            case .ios17: return "iOS 17.0, macOS 14.0, tvOS 17.0, watchOS 10.0, visionOS 1.0, *"
            case .ios18: return "iOS 18.0, macOS 15.0, tvOS 18.0, watchOS 11.0, visionOS 2.0, *"
            case .ios26: return "iOS 26.0, macOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *"
            }
        }
    }

    /// The Swift text for the declarations of `files` (one program, checked without errors);
    /// nil when something cannot be expressed (the diagnostics say what and where).
    public static func generate(_ files: [ManifestFile], sources: [String], minimumOS: MinimumOS,
                                diagnostics: inout [Diagnostic]) -> String? {
        var writer = TipKitSwiftWriter(minimumOS: minimumOS)
        let text = writer.write(files, sources: sources)
        diagnostics += writer.diagnostics
        return writer.diagnostics.contains { $0.severity == .error } ? nil : text
    }
}

struct TipKitSwiftWriter {
    let minimumOS: TipKitGenerator.MinimumOS
    var diagnostics: [Diagnostic] = []
    private var parameterTypes: [String: ValueTypeName] = [:]
    private var eventProperties: [String: String] = [:]
    private var tipTypes: [String: String] = [:]
    /// Each event's `maximumCount`, for the warning about counting past what TipKit keeps.
    private var eventLimits: [String: Int] = [:]

    init(minimumOS: TipKitGenerator.MinimumOS) {
        self.minimumOS = minimumOS
    }

    private mutating func unsupported(_ message: String, at range: SourceRange) {
        diagnostics.append(Diagnostic(.tipkitUnsupported, message, at: range))
    }

    /// `needs` is available at the minimum OS, or an error at `range`.
    private mutating func require(_ needs: TipKitGenerator.MinimumOS, _ what: String, at range: SourceRange) {
        if minimumOS < needs {
            unsupported("\(what) needs TipKit of \(needs.rawValue); the minimum is \(minimumOS.rawValue)", at: range)
        }
    }

    // MARK: - Names

    /// A Swift identifier for a manifest name, or nil when it has none.
    static func swiftIdentifier(_ name: String) -> String? {
        guard NameSyntax.isPlainIdentifier(name) else { return nil }
        return swiftKeywords.contains(name) ? "`\(name)`" : name
    }

    static let swiftKeywords: Set<String> = ["associatedtype", "class", "deinit", "enum", "extension", "func", "import", "init", "inout",
                                             "internal", "let", "operator", "private", "protocol", "public", "static", "struct", "subscript",
                                             "typealias", "var", "break", "case", "continue", "default", "defer", "do", "else", "fallthrough",
                                             "for", "guard", "if", "in", "repeat", "return", "switch", "where", "while", "as", "Any", "catch",
                                             "false", "is", "nil", "rethrows", "super", "self", "Self", "throw", "throws", "true", "try"]

    /// `advanced-search` → `AdvancedSearch`.
    static func typeName(_ name: String) -> String {
        var result = ""
        var upper = true
        for scalar in name.unicodeScalars {
            if scalar.isASCII, scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) {
                result += upper ? String(scalar).uppercased() : String(scalar)
                upper = false
            } else {
                upper = true
            }
        }
        if result.isEmpty || result.first!.isNumber { result = "T" + result }
        return result
    }

    static func stringLiteral(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F {
                    out += "\\u{\(String(scalar.value, radix: 16))}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out + "\""
    }

    // MARK: - The file

    mutating func write(_ files: [ManifestFile], sources: [String]) -> String {
        let parameters = files.flatMap(\.parameters)
        let events = files.flatMap(\.events)
        let tips = files.flatMap(\.tips)
        let groups = files.flatMap(\.groups)
        var out = "// Generated by tipc generate tipkit from \(sources.joined(separator: ", ")) (minimum \(minimumOS.rawValue)).\n"
        out += "// Regenerate instead of editing; `tipc import` of this file gives back the same program.\n"
        out += "import Foundation\nimport SwiftUI\nimport TipKit\n"

        if let frequency = files.lazy.compactMap(\.displayFrequency).first {
            let spelled: String
            switch frequency.value {
            case .immediate: spelled = ".immediate"
            case .hourly: spelled = ".hourly"
            case .daily: spelled = ".daily"
            case .weekly: spelled = ".weekly"
            case .monthly: spelled = ".monthly"
            case .custom(let seconds): spelled = String(seconds)
            }
            out += "\n/// Call once at launch, before any tip is shown.\nenum TipConfiguration {\n"
            out += "    static func configure() throws {\n        try Tips.configure([.displayFrequency(\(spelled))])\n    }\n}\n"
        }

        if !parameters.isEmpty {
            out += "\nenum TipParameters {\n"
            for parameter in parameters {
                guard let name = Self.swiftIdentifier(parameter.name.name) else {
                    unsupported("the parameter name '\(parameter.name.name)' is not a Swift identifier", at: parameter.name.range)
                    continue
                }
                guard let type = parameter.type?.value, let value = parameter.defaultValue?.value else { continue }
                parameterTypes[parameter.name.name] = type
                let swiftType: String
                let literal: String
                switch (type, value) {
                case (.bool, .bool(let flag)): (swiftType, literal) = ("Bool", String(flag))
                case (.int, .int(let number)): (swiftType, literal) = ("Int", String(number))
                case (.double, .double(let number)) where number.isFinite: (swiftType, literal) = ("Double", "\(number)")
                case (.double, .int(let number)): (swiftType, literal) = ("Double", "\(Double(number))")
                case (.string, .string(let text)): (swiftType, literal) = ("String", Self.stringLiteral(text))
                default:
                    unsupported("a \(type.rawValue) parameter (with this default) has no TipKit form here", at: parameter.range)
                    continue
                }
                if parameter.values != nil {
                    unsupported("a parameter with a closed set of values has no TipKit form", at: parameter.range)
                }
                let attribute = parameter.isTransient ? "@Parameter(.transient)" : "@Parameter"
                out += "    \(attribute) static var \(name): \(swiftType) = \(literal)\n"
            }
            out += "}\n"
        }

        if !events.isEmpty {
            var payloads = ""
            var declarations = ""
            var taken = Set<String>()
            for event in events {
                var property = Self.swiftIdentifier(event.name.name) ?? "event" + Self.typeName(event.name.name)
                while !taken.insert(property).inserted { property += "_" }
                eventProperties[event.name.name] = property
                if let count = event.donationLimit?.maximumCount?.value { eventLimits[event.name.name] = count }
                var generic = ""
                if !event.fields.isEmpty {
                    let payload = Self.typeName(event.name.name) + "Donation"
                    generic = "<\(payload)>"
                    payloads += "\nstruct \(payload): Codable, Sendable {\n"
                    for field in event.fields {
                        guard let name = Self.swiftIdentifier(field.name.name), let type = field.type?.value, type != .duration else {
                            unsupported("the payload field '\(field.name.name)' has no Swift form", at: field.name.range)
                            continue
                        }
                        payloads += "    let \(name): \(type.tipsSpelling)\n"
                    }
                    payloads += "}\n"
                }
                var limit = ""
                if let donationLimit = event.donationLimit {
                    let count = donationLimit.maximumCount?.value
                    if donationLimit.maximumAgeSeconds != nil || (count != nil && count != 1000) {
                        require(.ios26, "a donation limit other than TipKit's 1,000 newest", at: event.range)
                        if minimumOS >= .ios26 {
                            var arguments = "maximumCount: \(count ?? 1000)"
                            if let age = donationLimit.maximumAgeSeconds {
                                if let spelled = Self.timeRangeSpelling(age.value) {
                                    arguments += ", maximumAge: \(spelled)"
                                } else {
                                    unsupported("TipKit's maximum age is whole minutes, hours, days or weeks", at: age.range)
                                }
                            }
                            limit = ", donationLimit: .init(\(arguments))"
                        }
                    }
                }
                declarations += "    static let \(property) = Tips.Event\(generic)(id: \(Self.stringLiteral(event.name.name))\(limit))\n"
            }
            out += payloads + "\nenum TipEvents {\n" + declarations + "}\n"
        }

        var takenTypes = Set<String>()
        for tip in tips {
            var type = Self.typeName(tip.name.name)
            if !type.hasSuffix("Tip") { type += "Tip" }
            while !takenTypes.insert(type).inserted { type += "_" }
            tipTypes[tip.name.name] = type
        }
        for tip in tips { out += self.tip(tip) }

        if !groups.isEmpty {
            require(.ios18, "tip groups", at: groups[0].range)
            out += "\n@available(\(TipKitGenerator.MinimumOS.ios18.availability))\n@MainActor\nenum TipGroups {\n"
            for group in groups {
                guard let name = Self.swiftIdentifier(group.name.name) else {
                    unsupported("the group name '\(group.name.name)' is not a Swift identifier", at: group.name.range)
                    continue
                }
                let priority = group.priority?.value == .ordered ? ".ordered" : ".firstAvailable"
                let members = group.tips.compactMap { tipTypes[$0.name].map { "\($0)()" } }.joined(separator: "; ")
                out += "    static let \(name) = TipGroup(\(priority)) { \(members) }\n"
            }
            out += "}\n"
        }
        return out
    }

    // MARK: - Tips

    /// A plain text without placeholders, as it reads; nil (reported) for a localized text or
    /// one with placeholders, which TipKit's `Text(verbatim:)` cannot hold (the app localizes
    /// its TipKit texts through its own string catalog).
    private mutating func verbatim(_ text: TextDecl) -> String? {
        guard !text.isLocalized, let variant = text.variants.first else {
            unsupported("localized texts have no TipKit form here; TipKit apps localize through their string catalog", at: text.range)
            return nil
        }
        var result = ""
        for piece in variant.template {
            guard case .literal(let literal) = piece.kind else {
                unsupported("a text with placeholders or parameter values has no TipKit form here", at: variant.text.range)
                return nil
            }
            result += literal
        }
        return result
    }

    private mutating func tip(_ tip: TipDecl) -> String {
        if let key = tip.key {
            // TipKit's custom ids name instances, but a #Rule cannot read the id (format 2).
            unsupported("a tip with a key (one instance per key value, its rules reading 'key') has no TipKit form", at: key.range)
        }
        let type = tipTypes[tip.name.name] ?? Self.typeName(tip.name.name)
        var body = "    var id: String { \(Self.stringLiteral(tip.name.name)) }\n"
        if let title = tip.title.flatMap({ verbatim($0) }) { body += "    var title: Text { Text(verbatim: \(Self.stringLiteral(title))) }\n" }
        if let message = tip.message.flatMap({ verbatim($0) }) { body += "    var message: Text? { Text(verbatim: \(Self.stringLiteral(message))) }\n" }
        switch tip.image?.value {
        case .symbol(let name)?: body += "    var image: Image? { Image(systemName: \(Self.stringLiteral(name))) }\n"
        case .asset(let name)?: body += "    var image: Image? { Image(\(Self.stringLiteral(name))) }\n"
        case nil: break
        }
        if !tip.actions.isEmpty {
            let actions = tip.actions.map { action in
                "Action(id: \(Self.stringLiteral(action.id.name)), title: \(Self.stringLiteral(action.title.flatMap { verbatim($0) } ?? action.id.name)))"
            }
            body += "    var actions: [Action] {\n        [\n" + actions.map { "            \($0),\n" }.joined() + "        ]\n    }\n"
        }
        var options: [String] = []
        if let count = tip.maxDisplayCount { options.append("Tips.MaxDisplayCount(\(count.value))") }
        if let ignores = tip.ignoresDisplayFrequency { options.append("Tips.IgnoresDisplayFrequency(\(ignores.value))") }
        if let duration = tip.maxDisplayDurationSeconds {
            require(.ios18, "maxDisplayDuration", at: duration.range)
            options.append("Tips.MaxDisplayDuration(\(duration.value))")
        }
        if !options.isEmpty {
            body += "    var options: [TipOption] {\n        [\n" + options.map { "            \($0),\n" }.joined() + "        ]\n    }\n"
        }
        var rules: [String] = []
        for rule in tip.rules { rules += self.rules(rule) }
        if !rules.isEmpty {
            body += "    var rules: [Rule] {\n        [\n" + rules.map { "            \($0),\n" }.joined() + "        ]\n    }\n"
        }
        let availability = tip.maxDisplayDurationSeconds != nil ? "@available(\(TipKitGenerator.MinimumOS.ios18.availability))\n" : ""
        return "\n\(availability)struct \(type): Tip {\n" + body + "}\n"
    }

    // MARK: - Rules

    private enum Subject: Equatable {
        case parameter(String)
        case event(String)
    }

    private struct Unsupported: Error {
        var message: String
        var range: SourceRange
    }

    /// The `#Rule`s of one rule: its top-level `and`s split (each conjunct must read one
    /// parameter or one event, as a `#Rule` does), a `within` suffix distributed over them.
    private mutating func rules(_ rule: Expression) -> [String] {
        var conjuncts: [(Expression, Expression?)] = []
        func split(_ expression: Expression, window: Expression?) {
            switch expression.kind {
            case .binary(.and, let left, let right):
                split(left, window: window)
                split(right, window: window)
            case .within(let clause, let duration):
                split(clause, window: window ?? duration)
            default:
                conjuncts.append((expression, window))
            }
        }
        split(rule, window: nil)
        warnAboutCountsPastTheLimit(rule)
        var result: [String] = []
        for (conjunct, window) in conjuncts {
            do throws(Unsupported) {
                var subject: Subject?
                let body = try render(conjunct, window: window, subject: &subject)
                guard let subject else { throw Unsupported(message: "a rule that reads no parameter or event", range: conjunct.range) }
                switch subject {
                case .parameter(let name): result.append("#Rule(TipParameters.$\(Self.swiftIdentifier(name) ?? name)) { \(body) }")
                case .event(let name): result.append("#Rule(TipEvents.\(eventProperties[name] ?? name)) { \(body) }")
                }
            } catch {
                unsupported(error.message, at: error.range)
            }
        }
        return result
    }

    /// Below iOS 26, TipKit rules see an event's newest 1,000 donations: a threshold of 1,000 or
    /// more on an event without a smaller limit may never be reached in TipKit.
    private mutating func warnAboutCountsPastTheLimit(_ expression: Expression) {
        guard minimumOS < .ios26 else { return }
        switch expression.kind {
        case .binary(let op, let left, let right):
            if op.isComparison, case .member(let collection, let member) = left.kind, member.name == "count",
               case .literal(.int(let threshold)) = right.kind, threshold >= 1_000, let event = Self.event(of: collection),
               (eventLimits[event] ?? Int.max) >= 1_000 {
                diagnostics.append(Diagnostic(.tipkitUnsupported,
                                              "TipKit before iOS 26 keeps an event's newest 1,000 donations: a count of \(threshold) may never be reached",
                                              at: expression.range, severity: .warning))
            }
            warnAboutCountsPastTheLimit(left)
            warnAboutCountsPastTheLimit(right)
        case .unary(_, let operand), .within(let operand, _):
            warnAboutCountsPastTheLimit(operand)
        default:
            break
        }
    }

    private static func event(of collection: Expression) -> String? {
        switch collection.kind {
        case .name(let name): return name
        case .methodCall(let base, _, _): return event(of: base)
        default: return nil
        }
    }

    private static let swiftOperators: [BinaryOperator: String] = [
        .or: "||", .and: "&&", .equal: "==", .notEqual: "!=", .less: "<", .lessOrEqual: "<=", .greater: ">", .greaterOrEqual: ">=",
        .add: "+", .subtract: "-", .multiply: "*", .divide: "/", .remainder: "%",
    ]

    private func use(_ found: Subject, _ subject: inout Subject?, at range: SourceRange) throws(Unsupported) {
        if let subject, subject != found {
            throw Unsupported(message: "a #Rule reads one parameter or event; this part of the rule reads two (split it with 'and' at the top)", range: range)
        }
        subject = found
    }

    private func render(_ expression: Expression, window: Expression?, subject: inout Subject?) throws(Unsupported) -> String {
        switch expression.kind {
        case .literal(.bool(let value)): return String(value)
        case .literal(.int(let value)): return String(value)
        case .literal(.double(let value)) where value.isFinite: return "\(value)"
        case .literal(.string(let text)): return Self.stringLiteral(text)
        case .parameter(let name):
            guard parameterTypes[name] != nil else { throw Unsupported(message: "the parameter '\(name)' has no TipKit form", range: expression.range) }
            try use(.parameter(name), &subject, at: expression.range)
            return "$0"
        case .unary(.not, let operand):
            return "!(\(try render(operand, window: window, subject: &subject)))"
        case .unary(.negate, let operand):
            return "-(\(try render(operand, window: window, subject: &subject)))"
        case .binary(let op, let left, let right):
            guard let spelled = Self.swiftOperators[op] else { break }
            return "(\(try render(left, window: window, subject: &subject)) \(spelled) \(try render(right, window: window, subject: &subject)))"
        case .within(let clause, let duration):
            return try render(clause, window: window ?? duration, subject: &subject)
        case .member(let base, let member) where member.name == "count":
            return try collection(base, window: Self.hasWindow(base) ? nil : window, subject: &subject) + ".count"
        default:
            break
        }
        throw Unsupported(message: "this has no #Rule form that TipKit documents", range: expression.range)
    }

    private static func hasWindow(_ expression: Expression) -> Bool {
        if case .methodCall(let base, let method, _) = expression.kind {
            return method.name == "within" || hasWindow(base)
        }
        return false
    }

    /// `e`, `e.within(D)`, `e.where(…)`, `e.largestSubset(f)` as `$0.donations…`.
    private func collection(_ expression: Expression, window: Expression?, subject: inout Subject?) throws(Unsupported) -> String {
        switch expression.kind {
        case .name(let event):
            guard eventProperties[event] != nil else { throw Unsupported(message: "'\(event)' is not an event", range: expression.range) }
            try use(.event(event), &subject, at: expression.range)
            var text = "$0.donations"
            if let window { text += ".donatedWithin(\(try timeRange(window)))" }
            return text
        case .methodCall(let base, let method, let arguments):
            let inner = try collection(base, window: window, subject: &subject)
            switch (method.name, arguments.count) {
            case ("within", 1): return inner + ".donatedWithin(\(try timeRange(arguments[0])))"
            case ("where", 1): return inner + ".filter { \(try predicate(arguments[0])) }"
            case ("largestSubset", 1), ("smallestSubset", 1):
                guard case .name(let field) = arguments[0].kind, let name = Self.swiftIdentifier(field) else { break }
                return inner + ".\(method.name)(by: \\.\(name))"
            default: break
            }
        default:
            break
        }
        throw Unsupported(message: "this collection has no #Rule form that TipKit documents", range: expression.range)
    }

    /// A `where` condition as a `filter` closure body over `$0`'s payload.
    private func predicate(_ expression: Expression) throws(Unsupported) -> String {
        switch expression.kind {
        case .name(let field):
            guard let name = Self.swiftIdentifier(field) else { break }
            return "$0.\(name)"
        case .literal(.bool(let value)): return String(value)
        case .literal(.int(let value)): return String(value)
        case .literal(.double(let value)) where value.isFinite: return "\(value)"
        case .literal(.string(let text)): return Self.stringLiteral(text)
        case .unary(.not, let operand): return "!(\(try predicate(operand)))"
        case .binary(let op, let left, let right):
            guard let spelled = Self.swiftOperators[op] else { break }
            return "(\(try predicate(left)) \(spelled) \(try predicate(right)))"
        default: break
        }
        throw Unsupported(message: "this condition has no filter form", range: expression.range)
    }

    /// A duration as TipKit's `DonationTimeRange`: the largest of week, day, hour, minute that
    /// divides it.
    private func timeRange(_ duration: Expression) throws(Unsupported) -> String {
        guard case .literal(.duration(let seconds)) = duration.kind, let spelled = Self.timeRangeSpelling(seconds) else {
            throw Unsupported(message: "TipKit windows are whole minutes, hours, days or weeks", range: duration.range)
        }
        return spelled
    }

    /// `seconds` as a `Tips.DonationTimeRange` literal, in the largest unit that divides it.
    static func timeRangeSpelling(_ seconds: Int) -> String? {
        guard seconds > 0 else { return nil }
        for (unit, size) in [("week", 604_800), ("day", 86_400), ("hour", 3_600), ("minute", 60)] where seconds % size == 0 {
            let count = seconds / size
            return count == 1 ? ".\(unit)" : ".\(unit)s(\(count))"
        }
        return nil
    }
}
