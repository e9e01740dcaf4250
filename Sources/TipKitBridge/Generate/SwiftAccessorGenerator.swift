import TipRuntime
import TipcCompiler

/// `tipc generate swift`: typed accessors over `TipRuntime`'s `TipCenter` for one
/// program — parameters with their Swift types, events with payload structs, tips, groups — so
/// that a misspelled name, a missing instance key or text placeholder, or a value of the wrong
/// type is a compile error in the app.
///
/// Everything is nested in one type (`AppTips` unless named otherwise) so that two programs'
/// accessors can live in one module. Each tip is a type of its own conforming to the generated
/// `TipAccessor` protocol: a keyed tip's accessor is made from its typed key
/// (`tips.newTrail(trailID: 42)`) and passes it on every call, and each tip's
/// `content(locale:…)` takes its declared placeholders as typed arguments. Swift names follow
/// `SwiftIdentifiers`.
public enum SwiftAccessorGenerator {
    /// The Swift text of the accessors for `files` (one program, checked without errors), in a
    /// type named `typeName` (a Swift identifier). `sources` are named in the header. With
    /// `isPublic`, the accessors are `public`, for a library whose clients use them.
    public static func generate(_ files: [ManifestFile], sources: [String], typeName: String = "AppTips", isPublic: Bool = false) -> String {
        var writer = SwiftAccessorWriter(root: typeName, isPublic: isPublic)
        return writer.write(files, sources: sources)
    }

    /// Whether `name` can name the generated type: a plain identifier that is not a keyword.
    public static func isValidTypeName(_ name: String) -> Bool {
        SwiftIdentifiers.bare(name) == name && SwiftIdentifiers.escaped(name) == name && name != "__"
            && !SwiftAccessorWriter.nestedTypes.contains(name)
    }
}

/// The runtime's value types as Swift types, and how a value goes between the two.
private struct SwiftValueType {
    /// The Swift type the app uses.
    var swift: String
    /// The `RuntimeValue` case.
    var runtimeCase: String
    /// `value` (a Swift expression of the type) as a `RuntimeValue` expression; `name` is the
    /// Swift expression naming the value in errors. May throw.
    var encode: (_ value: String, _ name: String) -> String
    /// The payload `bound` of the runtime case as the Swift type (an `Int` beyond the
    /// platform's, only on a 32-bit one, is clamped).
    var decode: (_ bound: String) -> String

    static func of(_ type: ValueType) -> SwiftValueType {
        switch type {
        case .bool:
            return SwiftValueType(swift: "Bool", runtimeCase: "bool", encode: { value, _ in ".bool(\(value))" }, decode: { bound in bound })
        case .int:
            return SwiftValueType(swift: "Int", runtimeCase: "int", encode: { value, _ in ".int(Int64(\(value)))" },
                                  decode: { bound in "Int(clamping: \(bound))" })
        case .double:
            return SwiftValueType(swift: "Double", runtimeCase: "double", encode: { value, _ in ".double(\(value))" }, decode: { bound in bound })
        case .string:
            return SwiftValueType(swift: "String", runtimeCase: "string", encode: { value, _ in ".string(\(value))" }, decode: { bound in bound })
        case .date:
            return SwiftValueType(swift: "Date", runtimeCase: "date",
                                  encode: { value, name in ".date(milliseconds: try Conversions.milliseconds(\(value), of: \(name)))" },
                                  decode: { bound in "Conversions.date(\(bound))" })
        case .duration:
            return SwiftValueType(swift: "TimeInterval", runtimeCase: "duration",
                                  encode: { value, name in ".duration(milliseconds: try Conversions.milliseconds(seconds: \(value), of: \(name)))" },
                                  decode: { bound in "Conversions.seconds(\(bound))" })
        }
    }

    /// The shared accessor type of parameters of this type.
    var parameterType: String { (swift == "TimeInterval" ? "Duration" : swift) + "Parameter" }
}

struct SwiftAccessorWriter {
    let root: String
    /// The access modifier of every declaration a client calls: `public ` or nothing (internal).
    let access: String
    /// Type names nested in the root type.
    private var types: SwiftIdentifiers
    /// The accessor type of each tip, by manifest name.
    private var tipTypes: [String: String] = [:]
    /// The member of `Tips` of each tip without a key (a group's tips have none), by manifest name.
    private var tipMember: [String: String] = [:]

    /// The types nested in every root type.
    static let nestedTypes: Set<String> = Set(["Parameters", "Events", "Tips", "Groups", "Group", "GroupPriority", "TipAccessor",
                                               "AccessorError", "Conversions", "Event"])
        .union(ValueType.allCases.map { SwiftValueType.of($0).parameterType })

    init(root: String, isPublic: Bool = false) {
        self.root = root
        access = isPublic ? "public " : ""
        types = SwiftIdentifiers(reserved: Self.nestedTypes.union([root]))
    }

    /// Members of the containers (`Parameters`, `Events`, …) that a name may not take: `center`,
    /// and the root type's name (their initializers name the nested types through it, so that a
    /// member named `Event` or `Group` hides none).
    private var containerMembers: Set<String> { ["center", root] }

    mutating func write(_ files: [ManifestFile], sources: [String]) -> String {
        let parameters = files.flatMap(\.parameters)
        let events = files.flatMap(\.events)
        let tips = files.flatMap(\.tips)
        let groups = files.flatMap(\.groups)
        for tip in tips { tipTypes[tip.name.name] = types.claimType(tip.name.name, suffix: "Tip") }

        var out = "// Generated by tipc generate swift from \(sources.joined(separator: ", ")).\n"
        out += "// Typed accessors over TipRuntime's TipCenter for this program's parameters, events, tips (a keyed tip\n"
        out += "// by its key, each tip's texts with its placeholders) and groups: a misspelled name, a missing key or\n"
        out += "// placeholder, or a value of the wrong type is a compile error. \(root)(center:) checks once that the\n"
        out += "// center's pack declares them; after that, queries do not throw. Regenerate instead of editing.\n"
        out += "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\nimport TipRuntime\n\n"
        out += """
            /// The program's parameters, events, tips and groups over one `TipCenter`.
            \(access)struct \(root): Sendable {
                /// The runtime every accessor calls.
                \(access)let center: TipCenter
                \(access)let parameters: Parameters
                \(access)let events: Events
                \(access)let tips: Tips
                \(access)let groups: Groups

                /// Checks once that the center's pack declares this program's parameters (with their types and
                /// values), events, tips (with their keys' types) and groups, and throws `TipError` or
                /// `AccessorError.packMismatch` if not. Then no query through the accessors can fail: the runtime
                /// keeps all of them for its life (`replacePack` refuses a pack that drops or retypes one).
                \(access)init(center: TipCenter) throws {
                    self.center = center
                    parameters = try Parameters(center: center)
                    events = try Events(center: center)
                    tips = try Tips(center: center)
                    groups = try Groups(center: center, tips: tips)
                }
            }

            """
        out += support()
        out += self.parameters(parameters)
        out += self.events(events)
        out += self.tips(tips)
        out += self.groups(groups)
        return out
    }

    // MARK: - What every program shares

    private func support() -> String {
        """

        extension \(root) {
            /// What an accessor throws besides the runtime's `TipError`.
            \(access)enum AccessorError: Error, Sendable, Hashable, CustomStringConvertible {
                /// A value with no form in the runtime: a `Date` or `TimeInterval` that is not finite or does not
                /// fit in 64-bit milliseconds.
                case notRepresentable(name: String, value: String)
                /// The runtime's pack holds `name` with another type or value than this program declares.
                case packMismatch(name: String, expected: String, actual: String)

                \(access)var description: String {
                    switch self {
                    case .notRepresentable(let name, let value): return "'\\(name)': \\(value) has no exact form in the runtime or in Swift"
                    case .packMismatch(let name, let expected, let actual): return "'\\(name)' is \\(actual) in the runtime's pack, not \\(expected)"
                    }
                }
            }

            /// Dates are milliseconds since 1970 in the runtime, durations milliseconds.
            enum Conversions {
                static func milliseconds(_ date: Date, of name: String) throws -> Int64 {
                    guard let milliseconds = Int64(exactly: (date.timeIntervalSince1970 * 1000).rounded()) else {
                        throw AccessorError.notRepresentable(name: name, value: "\\(date)")
                    }
                    return milliseconds
                }

                static func milliseconds(seconds: TimeInterval, of name: String) throws -> Int64 {
                    guard let milliseconds = Int64(exactly: (seconds * 1000).rounded()) else {
                        throw AccessorError.notRepresentable(name: name, value: "\\(seconds) s")
                    }
                    return milliseconds
                }

                static func date(_ milliseconds: Int64) -> Date { Date(timeIntervalSince1970: Double(milliseconds) / 1000) }

                static func seconds(_ milliseconds: Int64) -> TimeInterval { Double(milliseconds) / 1000 }

                /// Checks that the pack's `parameter` has `type` (and, for an enum-like one, exactly `values`).
                static func check(_ parameter: TipCenter.Parameter, is type: ValueType, values: [String]? = nil) throws {
                    guard parameter.type == type else {
                        throw AccessorError.packMismatch(name: parameter.name, expected: "\\(type)", actual: "\\(parameter.type)")
                    }
                    guard parameter.values.map(Set.init) == values.map(Set.init) else {
                        let expected = values.map { "one of " + $0.joined(separator: ", ") } ?? "any \\(type)"
                        let actual = parameter.values.map { "one of " + $0.joined(separator: ", ") } ?? "any \\(type)"
                        throw AccessorError.packMismatch(name: parameter.name, expected: expected, actual: actual)
                    }
                }
            }
        }

        """
    }

    // MARK: - Parameters

    private mutating func parameters(_ parameters: [ParameterDecl]) -> String {
        var members = SwiftIdentifiers(reserved: containerMembers)
        var properties = ""
        var checks = ""
        var declarations = ""
        var usedTypes = Set<ValueType>()
        for parameter in parameters {
            guard let type = parameter.type?.value else { continue }
            let name = members.claim(parameter.name.name)
            let accessor: String
            if let values = parameter.values, type == .string {
                let valueType = types.claimType(parameter.name.name, suffix: "Value")
                accessor = types.claimType(parameter.name.name, suffix: "Parameter")
                let fallback = parameter.defaultValue.flatMap { literal -> String? in
                    guard case .string(let text) = literal.value else { return nil }
                    return text
                } ?? values[0].value
                declarations += closedSet(parameter, values: values.map(\.value), fallback: fallback, valueType: valueType, accessor: accessor)
            } else {
                usedTypes.insert(type)
                accessor = SwiftValueType.of(type).parameterType
            }
            properties += "        /// \(Self.describe(parameter))\n"
            properties += "        \(access)let \(name): \(accessor)\n"
            checks += "            self.\(name) = try \(root).\(accessor)(center.parameter(named: \(Self.literal(parameter.name.name))))\n"
        }
        for type in ValueType.allCases where usedTypes.contains(type) {
            let swift = SwiftValueType.of(type)
            declarations += parameterAccessor(swift.parameterType, swift: swift.swift, runtimeCase: swift.runtimeCase,
                                              decode: swift.decode("value"), encode: swift.encode("value", "parameter.name"))
        }
        return """

            // MARK: - Parameters

            extension \(root) {
                \(access)struct Parameters: Sendable {
            \(properties)
                    init(center: TipCenter) throws {
            \(checks)        }
                }
            \(declarations)}

            """
    }

    private func parameterAccessor(_ type: String, swift: String, values: [String]? = nil, runtimeCase: String,
                                   decode: String, encode: String) -> String {
        let valuesArgument = values.map { ", values: [" + $0.map(Self.literal).joined(separator: ", ") + "]" } ?? ""
        return """

            /// A parameter of type `\(swift)`.
            \(access)struct \(type): Sendable {
                /// The runtime's parameter.
                \(access)let parameter: TipCenter.Parameter

                init(_ parameter: TipCenter.Parameter) throws {
                    try Conversions.check(parameter, is: .\(runtimeCase)\(valuesArgument))
                    self.parameter = parameter
                }

                /// The current value.
                \(access)func get() -> \(swift) {
                    guard case .\(runtimeCase)(let value) = parameter.value else {
                        preconditionFailure("'\\(parameter.name)' holds a value of its declared type, checked by \(root)(center:)")
                    }
                    return \(decode)
                }

                /// Sets it: persisted, unless the parameter is transient.
                \(access)func set(_ value: \(swift)) throws {
                    try parameter.set(\(encode))
                }
            }

        """
    }

    /// A String parameter with a closed set of values: an enum of them.
    private func closedSet(_ parameter: ParameterDecl, values: [String], fallback: String, valueType: String, accessor: String) -> String {
        var cases = SwiftIdentifiers()
        var text = "\n    /// The values of `\(parameter.name.name)`.\n    \(access)enum \(valueType): String, CaseIterable, Sendable {\n"
        let names = values.map { cases.claim($0) }
        for (name, value) in zip(names, values) { text += "        case \(name) = \(Self.literal(value))\n" }
        text += "    }\n"
        let fallbackCase = names[values.firstIndex(of: fallback) ?? 0]
        // The runtime keeps the parameter's values, so the fallback (its default) is never taken.
        let decode = "\(valueType)(rawValue: value) ?? .\(fallbackCase)"
        return text + parameterAccessor(accessor, swift: valueType, values: values, runtimeCase: "string", decode: decode,
                                        encode: ".string(value.rawValue)")
    }

    private static func describe(_ parameter: ParameterDecl) -> String {
        var text = "`\(parameter.name.name)`: \(parameter.type?.value.tipsSpelling ?? "?")"
        if let value = parameter.defaultValue?.value { text += ", default \(describe(value))" }
        if let values = parameter.values { text += ", one of \(values.map(\.value).joined(separator: ", "))" }
        if parameter.isTransient { text += ", transient (back to its default in every new runtime)" }
        return text + "."
    }

    private static func describe(_ value: Literal) -> String {
        switch value {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return "\(value)"
        case .string(let text): return literal(text)
        case .duration(let seconds): return "\(seconds) s"
        }
    }

    // MARK: - Events

    private mutating func events(_ events: [EventDecl]) -> String {
        var members = SwiftIdentifiers(reserved: containerMembers)
        var properties = ""
        var checks = ""
        var declarations = ""
        for event in events {
            let name = members.claim(event.name.name)
            var accessor = "Event"
            if !event.fields.isEmpty {
                let payload = types.claimType(event.name.name, suffix: "Donation")
                accessor = types.claimType(event.name.name, suffix: "Event")
                declarations += payloadEvent(event, payload: payload, accessor: accessor)
            }
            var comment = "`\(event.name.name)`"
            if !event.fields.isEmpty {
                comment += " { " + event.fields.map { "\($0.name.name): \($0.type?.value.tipsSpelling ?? "?")" }.joined(separator: ", ") + " }"
            }
            properties += "        /// \(comment)\n"
            properties += "        \(access)let \(name): \(accessor)\n"
            checks += "            self.\(name) = \(root).\(accessor)(event: try center.event(named: \(Self.literal(event.name.name))))\n"
        }
        return """

            // MARK: - Events

            extension \(root) {
                \(access)struct Events: Sendable {
            \(properties)
                    init(center: TipCenter) throws {
            \(checks)        }
                }

                /// An event without a payload.
                \(access)struct Event: Sendable {
                    /// The runtime's event.
                    \(access)let event: TipCenter.Event

                    /// Donates it (at `date`, default now); returns once the donation is durable.
                    @discardableResult
                    \(access)func donate(at date: Date? = nil) throws -> DonationRecord {
                        try event.donate(at: date)
                    }

                    /// The number of its donations held for evaluation now.
                    \(access)func count() -> Int { event.donationCount }
                }
            \(declarations)}

            """
    }

    private func payloadEvent(_ event: EventDecl, payload: String, accessor: String) -> String {
        var fieldNames = SwiftIdentifiers()
        var fields: [(swift: String, manifest: String, type: SwiftValueType)] = []
        for field in event.fields {
            guard let type = field.type?.value else { continue }
            fields.append((fieldNames.claim(field.name.name), field.name.name, SwiftValueType.of(type)))
        }
        // One argument per field, each with an inner name of its own, so that no field (`self`,
        // `date`, `donate`, the payload's type name) hides what a body uses.
        let fieldArguments = fields.enumerated().map { "\($1.swift) value\($0): \($1.type.swift)" }.joined(separator: ", ")
        var text = "\n    /// The payload of `\(event.name.name)`.\n    \(access)struct \(payload): Sendable, Hashable {\n"
        for field in fields { text += "        \(access)var \(field.swift): \(field.type.swift)\n" }
        if !access.isEmpty {
            // A struct's memberwise initializer is internal: a client module needs its own.
            text += "\n        \(access)init(\(fieldArguments)) {\n"
            for (index, field) in fields.enumerated() { text += "            self.\(field.swift) = value\(index)\n" }
            text += "        }\n"
        }
        text += "    }\n"
        let entries = fields.map { field in
            "                \(Self.literal(field.manifest)): \(field.type.encode("value.\(field.swift)", Self.literal(event.name.name + "." + field.manifest))),\n"
        }.joined()
        let arguments = fields.enumerated().map { "\(Self.label($1.swift)): value\($0)" }.joined(separator: ", ")
        text += """

                \(access)struct \(accessor): Sendable {
                    /// The runtime's event.
                    \(access)let event: TipCenter.Event

                    /// Donates it with `value` (at `date`, default now); returns once the donation is durable.
                    @discardableResult
                    \(access)func donate(_ value: \(payload), at date: Date? = nil) throws -> DonationRecord {
                        let payload: [String: RuntimeValue] = [
            \(entries)            ]
                        return try event.donate(value: payload, at: date)
                    }

                    /// Donates it with these field values (at `date`, default now).
                    @discardableResult
                    \(access)func donate(\(fieldArguments), at date: Date? = nil) throws -> DonationRecord {
                        try donate(\(payload)(\(arguments)), at: date)
                    }

                    /// The number of its donations held for evaluation now.
                    \(access)func count() -> Int { event.donationCount }
                }

            """
        return text
    }

    /// An identifier as an argument label of a call: no keyword needs backticks there.
    private static func label(_ identifier: String) -> String {
        identifier.hasPrefix("`") ? String(identifier.dropFirst().dropLast()) : identifier
    }

    // MARK: - Tips

    /// Names a tip type's own members take, which its key property may not.
    private static let tipMembers: Set<String> = [
        "tip", "id", "key", "content", "status", "shouldDisplay", "displayCount", "displayDuration", "beginDisplay", "recordDisplay",
        "recordDisplayDuration", "invalidate", "reset", "statusUpdates", "shouldDisplayUpdates", "showForTesting", "hideForTesting",
    ]

    private mutating func tips(_ tips: [TipDecl]) -> String {
        var members = SwiftIdentifiers(reserved: containerMembers)
        let memberNames = tips.map { members.claim($0.name.name) }
        for (tip, member) in zip(tips, memberNames) where tip.key == nil { tipMember[tip.name.name] = member }
        var properties = ""
        var checks = ""
        var declarations = ""
        for (tip, member) in zip(tips, memberNames) {
            let type = tipTypes[tip.name.name]!
            let name = Self.literal(tip.name.name)
            properties += "        /// \(Self.literal(tip.title?.value ?? tip.name.name))\n"
            var stored = ""
            if let declared = tip.key, let keyType = declared.type?.value {
                // A keyed tip is a function of its key: one accessor per instance, made from one instance
                // checked at start (any key of the tip's key type checks the type).
                var names = SwiftIdentifiers(reserved: Self.tipMembers)
                let property = names.claim(declared.name.name)
                let swift = SwiftValueType.of(keyType)
                let instances = members.claim(SwiftIdentifiers.bare(tip.name.name) + "Instances")
                let key = keyType == .int ? ".int(Int64(value))" : ".string(value)"
                properties += "        \(access)func \(member)(\(SwiftIdentifiers.escaped(SwiftIdentifiers.bare(declared.name.name))) value: \(swift.swift)) -> \(type) {\n"
                properties += "            \(type)(tip: \(instances).instance(\(key)), \(Self.label(property)): value)\n        }\n"
                properties += "        private let \(instances): TipCenter.Tip\n"
                checks += "            self.\(instances) = try center.tip(named: \(name), key: \(keyType == .int ? ".int(0)" : ".string(\"\")"))\n"
                stored = "        /// The instance's key, `\(declared.name.name)`.\n        \(access)let \(property): \(swift.swift)\n"
                declarations += "\n    /// `\(tip.name.name)[\(declared.name.name): \(keyType.tipsSpelling)]`: each key value is its own instance.\n"
            } else {
                properties += "        \(access)let \(member): \(type)\n"
                checks += "            self.\(member) = \(root).\(type)(tip: try center.tip(named: \(name)))\n"
                declarations += "\n    /// `\(tip.name.name)`\n"
            }
            declarations += "    \(access)struct \(type): TipAccessor {\n        \(access)let tip: TipCenter.Tip\n" + stored
            declarations += content(tip)
            declarations += "    }\n"
        }
        return """

            // MARK: - Tips

            extension \(root) {
                \(access)struct Tips: Sendable {
            \(properties)
                    init(center: TipCenter) throws {
            \(checks)        }
                }

                /// One tip (one instance of a keyed tip) of the program: its status and display decisions,
                /// what the UI reports, observation, its texts.
                \(access)protocol TipAccessor: Sendable {
                    /// The runtime's tip (instance).
                    var tip: TipCenter.Tip { get }
                }
            \(declarations)}

            extension \(root).TipAccessor {
                /// The tip's name in the pack.
                \(access)var id: String { tip.name }

                /// The instance's key for a keyed tip, nil for any other.
                \(access)var key: TipKey? { tip.key }

                /// `pending`, `available` or `invalidated(reason)`, now.
                \(access)var status: TipStatus { tip.status }

                /// Whether the UI should show it now: status, display frequency, group and testing overrides.
                \(access)var shouldDisplay: Bool { tip.shouldDisplay }

                /// Displays since its latest reset, over all devices.
                \(access)var displayCount: Int64 { tip.displayCount }

                /// Time on screen since its latest reset, over all devices.
                \(access)var displayDuration: TimeInterval { tip.displayDuration }

                /// The UI shows it now: records the display; end the presentation when it goes away.
                \(access)func beginDisplay() throws -> TipPresentation { try tip.beginDisplay() }

                /// The UI showed it (for `duration`, when known).
                \(access)func recordDisplay(duration: TimeInterval = 0) throws { try tip.center.recordDisplay(id, key: key, duration: duration) }

                /// The UI reports more time on screen for a display already recorded.
                \(access)func recordDisplayDuration(_ duration: TimeInterval) throws { try tip.center.recordDisplayDuration(id, key: key, duration: duration) }

                /// Invalidates it; a tip already invalidated keeps its first reason.
                \(access)func invalidate(_ reason: InvalidationReason) throws { try tip.invalidate(reason: reason) }

                /// Makes it eligible again, with its display count and duration restarted.
                \(access)func reset() throws { try tip.center.resetEligibility(id, key: key) }

                /// Its status now, then every change.
                \(access)func statusUpdates() -> AsyncStream<TipStatus> { tip.statusUpdates() }

                /// Whether it should display now, then every change. Streams only read: where the tip would
                /// appear, also ask `shouldDisplay`, so that an experiment records the user's arm.
                \(access)func shouldDisplayUpdates() -> AsyncStream<Bool> { tip.shouldDisplayUpdates() }

                /// Testing override (not persisted): show it whatever its rules and the display frequency say
                /// (every instance of a keyed tip).
                \(access)func showForTesting() { tip.center.showTipsForTesting([id]) }

                /// Testing override (not persisted): hide it (every instance of a keyed tip).
                \(access)func hideForTesting() { tip.center.hideTipsForTesting([id]) }
            }

            """
    }

    /// The tip's `content(locale:…)`: one argument per declared placeholder, with its Swift type.
    private func content(_ tip: TipDecl) -> String {
        var names = SwiftIdentifiers(reserved: ["locale"])
        var arguments = ""
        var entries: [String] = []
        // Each argument has an inner name of its own, so that no placeholder (`tip`,
        // `Conversions`) hides what the body calls.
        for (index, placeholder) in tip.placeholders.enumerated() {
            guard let type = placeholder.type?.value else { continue }
            let swift = SwiftValueType.of(type)
            let name = names.claim(placeholder.name.name)
            arguments += ", \(name) value\(index): \(swift.swift)"
            entries.append("\(Self.literal(placeholder.name.name)): \(swift.encode("value\(index)", Self.literal(tip.name.name + "." + placeholder.name.name)))")
        }
        let values = entries.isEmpty ? "" : ", values: [\n" + entries.map { "                \($0),\n" }.joined() + "            ]"
        let filled = tip.placeholders.isEmpty ? "" : ", with " + tip.placeholders.map { "`\($0.name.name)`" }.joined(separator: ", ") + " filled"
        return """

                    /// Its title, message and action titles in `locale` (`de-CH`, else `de`, else the default locale)\(filled).
                    \(access)func content(locale: Locale\(arguments)) throws -> TipContent {
                        try tip.content(locale: locale\(values))
                    }

            """
    }

    // MARK: - Groups

    private mutating func groups(_ groups: [GroupDecl]) -> String {
        var members = SwiftIdentifiers(reserved: containerMembers)
        var properties = ""
        var checks = ""
        for group in groups {
            let priority = group.priority?.value == .ordered ? ".ordered" : ".firstAvailable"
            let tips = group.tips.compactMap { tipMember[$0.name].map { "tips.\($0)" } }.joined(separator: ", ")
            let member = members.claim(group.name.name)
            properties += "        /// `\(group.name.name)`: \(group.priority?.value.spelling ?? "firstAvailable") { \(group.tips.map(\.name).joined(separator: ", ")) }\n"
            properties += "        \(access)let \(member): Group\n"
            checks += "            self.\(member) = \(root).Group(group: try center.group(named: \(Self.literal(group.name.name))), priority: \(priority), tips: [\(tips)])\n"
        }
        return """

            // MARK: - Groups

            extension \(root) {
                \(access)struct Groups: Sendable {
            \(properties)
                    init(center: TipCenter, tips: Tips) throws {
            \(checks)        }
                }

                \(access)enum GroupPriority: Sendable, Hashable {
                    /// Offers a tip only when every tip before it is invalidated.
                    case ordered
                    /// Offers the first tip that is available.
                    case firstAvailable
                }

                /// A group of tips: the runtime lets one of its tips display only while the group offers it.
                \(access)struct Group: Sendable {
                    /// The runtime's group.
                    \(access)let group: TipCenter.Group
                    \(access)let priority: GroupPriority
                    /// Its tips, in order.
                    \(access)let tips: [any TipAccessor]

                    /// The group's name in the program.
                    \(access)var name: String { group.name }

                    /// The tip it offers now (the first of its tips that should display), if any, as TipKit's
                    /// `TipGroup.currentTip`. A tip that a newer pack added to the group is not one of `tips`:
                    /// while the group offers it, this is nil.
                    \(access)var currentTip: (any TipAccessor)? {
                        guard let current = group.currentTip else { return nil }
                        return tips.first { $0.tip == current }
                    }
                }
            }

            """
    }

    // MARK: - Text

    static func literal(_ text: String) -> String { TipKitSwiftWriter.stringLiteral(text) }
}
