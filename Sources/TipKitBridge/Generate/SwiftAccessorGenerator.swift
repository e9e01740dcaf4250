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
    /// The payload `bound` of the runtime case as the Swift type; may throw.
    var decode: (_ bound: String, _ name: String) -> String

    static func of(_ type: ValueType) -> SwiftValueType {
        switch type {
        case .bool:
            return SwiftValueType(swift: "Bool", runtimeCase: "bool", encode: { value, _ in ".bool(\(value))" }, decode: { bound, _ in bound })
        case .int:
            return SwiftValueType(swift: "Int", runtimeCase: "int", encode: { value, _ in ".int(Int64(\(value)))" },
                                  decode: { bound, name in "try Conversions.int(\(bound), of: \(name))" })
        case .double:
            return SwiftValueType(swift: "Double", runtimeCase: "double", encode: { value, _ in ".double(\(value))" }, decode: { bound, _ in bound })
        case .string:
            return SwiftValueType(swift: "String", runtimeCase: "string", encode: { value, _ in ".string(\(value))" }, decode: { bound, _ in bound })
        case .date:
            return SwiftValueType(swift: "Date", runtimeCase: "date",
                                  encode: { value, name in ".date(milliseconds: try Conversions.milliseconds(\(value), of: \(name)))" },
                                  decode: { bound, _ in "Conversions.date(\(bound))" })
        case .duration:
            return SwiftValueType(swift: "TimeInterval", runtimeCase: "duration",
                                  encode: { value, name in ".duration(milliseconds: try Conversions.milliseconds(seconds: \(value), of: \(name)))" },
                                  decode: { bound, _ in "Conversions.seconds(\(bound))" })
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

    /// The types nested in every root type.
    static let nestedTypes: Set<String> = Set(["Parameters", "Events", "Tips", "Groups", "Group", "GroupPriority", "TipAccessor",
                                               "AccessorError", "Conversions", "Event"])
        .union(ValueType.allCases.map { SwiftValueType.of($0).parameterType })

    init(root: String, isPublic: Bool = false) {
        self.root = root
        access = isPublic ? "public " : ""
        types = SwiftIdentifiers(reserved: Self.nestedTypes.union([root]))
    }

    /// Members of the containers (`Parameters`, `Events`, …) that a name may not take.
    private static let containerMembers: Set<String> = ["center"]

    mutating func write(_ files: [ManifestFile], sources: [String]) -> String {
        let parameters = files.flatMap(\.parameters)
        let events = files.flatMap(\.events)
        let tips = files.flatMap(\.tips)
        let groups = files.flatMap(\.groups)
        for tip in tips { tipTypes[tip.name.name] = types.claimType(tip.name.name, suffix: "Tip") }

        var out = "// Generated by tipc generate swift from \(sources.joined(separator: ", ")).\n"
        out += "// Typed accessors over TipRuntime's TipCenter for this program's parameters, events, tips (a keyed tip\n"
        out += "// by its key, each tip's texts with its placeholders) and groups: a misspelled name, a missing key or\n"
        out += "// placeholder, or a value of the wrong type is a compile error. Use them with a TipCenter whose\n"
        out += "// pack was compiled from the same program. Regenerate instead of editing.\n"
        out += "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#else\nimport Foundation\n#endif\nimport TipRuntime\n\n"
        out += """
            /// The program's parameters, events, tips and groups over one `TipCenter`.
            \(access)struct \(root): Sendable {
                /// The runtime every accessor calls.
                \(access)let center: TipCenter

                \(access)init(center: TipCenter) {
                    self.center = center
                }

                \(access)var parameters: Parameters { Parameters(center: center) }
                \(access)var events: Events { Events(center: center) }
                \(access)var tips: Tips { Tips(center: center) }
                \(access)var groups: Groups { Groups(center: center) }
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
                /// A value with no form on the other side: a `Date` or `TimeInterval` that is not finite or does not
                /// fit in 64-bit milliseconds, an `Int` read that does not fit in the platform's `Int`.
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

                static func int(_ value: Int64, of name: String) throws -> Int {
                    guard let int = Int(exactly: value) else { throw AccessorError.notRepresentable(name: name, value: "\\(value)") }
                    return int
                }

                static func member<Value: RawRepresentable>(of type: Value.Type, _ raw: String, name: String) throws -> Value
                where Value.RawValue == String {
                    guard let value = Value(rawValue: raw) else {
                        throw AccessorError.packMismatch(name: name, expected: "one of \\(type)", actual: "\\"\\(raw)\\"")
                    }
                    return value
                }

                static func mismatch(_ name: String, expected: String, _ actual: RuntimeValue) -> AccessorError {
                    .packMismatch(name: name, expected: expected, actual: "\\(actual.type)")
                }
            }
        }

        """
    }

    // MARK: - Parameters

    private mutating func parameters(_ parameters: [ParameterDecl]) -> String {
        var members = SwiftIdentifiers(reserved: Self.containerMembers)
        var properties = ""
        var declarations = ""
        var usedTypes = Set<ValueType>()
        for parameter in parameters {
            guard let type = parameter.type?.value else { continue }
            let name = members.claim(parameter.name.name)
            let accessor: String
            if let values = parameter.values, type == .string {
                let valueType = types.claimType(parameter.name.name, suffix: "Value")
                accessor = types.claimType(parameter.name.name, suffix: "Parameter")
                declarations += closedSet(parameter, values: values.map(\.value), valueType: valueType, accessor: accessor)
            } else {
                usedTypes.insert(type)
                accessor = SwiftValueType.of(type).parameterType
            }
            properties += "        /// \(Self.describe(parameter))\n"
            properties += "        \(access)var \(name): \(accessor) { \(accessor)(center: center, name: \(Self.literal(parameter.name.name))) }\n"
        }
        for type in ValueType.allCases where usedTypes.contains(type) {
            let swift = SwiftValueType.of(type)
            declarations += parameterAccessor(swift.parameterType, swift: swift.swift, runtimeCase: swift.runtimeCase,
                                              decode: swift.decode("value", "name"), encode: swift.encode("value", "name"))
        }
        return """

            // MARK: - Parameters

            extension \(root) {
                \(access)struct Parameters: Sendable {
                    \(access)let center: TipCenter

            \(properties)    }
            \(declarations)}

            """
    }

    private func parameterAccessor(_ type: String, swift: String, runtimeCase: String, decode: String, encode: String) -> String {
        """

            /// A parameter of type `\(swift)`.
            \(access)struct \(type): Sendable {
                \(access)let center: TipCenter
                /// The parameter's name in the pack.
                \(access)let name: String

                /// The current value.
                \(access)func get() throws -> \(swift) {
                    let stored = try center.parameter(name)
                    guard case .\(runtimeCase)(let value) = stored else { throw Conversions.mismatch(name, expected: "\(swift)", stored) }
                    return \(decode)
                }

                /// Sets it: persisted, unless the parameter is transient.
                \(access)func set(_ value: \(swift)) throws {
                    try center.setParameter(name, to: \(encode))
                }
            }

        """
    }

    /// A String parameter with a closed set of values: an enum of them.
    private func closedSet(_ parameter: ParameterDecl, values: [String], valueType: String, accessor: String) -> String {
        var cases = SwiftIdentifiers()
        var text = "\n    /// The values of `\(parameter.name.name)`.\n    \(access)enum \(valueType): String, CaseIterable, Sendable {\n"
        for value in values { text += "        case \(cases.claim(value)) = \(Self.literal(value))\n" }
        text += "    }\n"
        let decode = "try Conversions.member(of: \(valueType).self, value, name: name)"
        return text + parameterAccessor(accessor, swift: valueType, runtimeCase: "string", decode: decode, encode: ".string(value.rawValue)")
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
        var members = SwiftIdentifiers(reserved: Self.containerMembers)
        var properties = ""
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
            properties += "        \(access)var \(name): \(accessor) { \(accessor)(center: center, name: \(Self.literal(event.name.name))) }\n"
        }
        return """

            // MARK: - Events

            extension \(root) {
                \(access)struct Events: Sendable {
                    \(access)let center: TipCenter

            \(properties)    }

                /// An event without a payload.
                \(access)struct Event: Sendable {
                    \(access)let center: TipCenter
                    /// The event's name in the pack.
                    \(access)let name: String

                    /// Donates it (at `date`, default now); returns once the donation is durable.
                    @discardableResult
                    \(access)func donate(at date: Date? = nil) throws -> DonationRecord {
                        try center.donate(name, at: date)
                    }

                    /// The number of its donations held for evaluation now.
                    \(access)func count() -> Int? { center.donationCount(of: name) }
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
        var text = "\n    /// The payload of `\(event.name.name)`.\n    \(access)struct \(payload): Sendable, Hashable {\n"
        for field in fields { text += "        \(access)var \(field.swift): \(field.type.swift)\n" }
        if !access.isEmpty {
            // A struct's memberwise initializer is internal: a client module needs its own.
            text += "\n        \(access)init(" + fields.map { "\($0.swift): \($0.type.swift)" }.joined(separator: ", ") + ") {\n"
            for field in fields { text += "            self.\(field.swift) = \(field.swift)\n" }
            text += "        }\n"
        }
        text += "    }\n"
        let entries = fields.map { field in
            "                \(Self.literal(field.manifest)): \(field.type.encode("value.\(field.swift)", Self.literal(event.name.name + "." + field.manifest))),\n"
        }.joined()
        let labels = fields.map { "\($0.swift): \($0.type.swift)" }.joined(separator: ", ")
        let arguments = fields.map { "\(Self.label($0.swift)): \($0.swift)" }.joined(separator: ", ")
        text += """

                \(access)struct \(accessor): Sendable {
                    \(access)let center: TipCenter
                    /// The event's name in the pack.
                    \(access)let name: String

                    /// Donates it with `value` (at `date`, default now); returns once the donation is durable.
                    @discardableResult
                    \(access)func donate(_ value: \(payload), at date: Date? = nil) throws -> DonationRecord {
                        let payload: [String: RuntimeValue] = [
            \(entries)            ]
                        return try center.donate(name, value: payload, at: date)
                    }

                    /// Donates it with these field values (at `date`, default now).
                    @discardableResult
                    \(access)func donate(\(labels), at date: Date? = nil) throws -> DonationRecord {
                        try donate(\(payload)(\(arguments)), at: date)
                    }

                    /// The number of its donations held for evaluation now.
                    \(access)func count() -> Int? { center.donationCount(of: name) }
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
        "center", "id", "key", "content", "status", "shouldDisplay", "displayCount", "displayDuration", "recordDisplay",
        "recordDisplayDuration", "invalidate", "reset", "statusUpdates", "shouldDisplayUpdates", "showForTesting", "hideForTesting",
    ]

    private func tips(_ tips: [TipDecl]) -> String {
        var members = SwiftIdentifiers(reserved: Self.containerMembers)
        var properties = ""
        var declarations = ""
        for tip in tips {
            let type = tipTypes[tip.name.name]!
            let member = members.claim(tip.name.name)
            properties += "        /// \(Self.literal(tip.title?.value ?? tip.name.name))\n"
            var stored = ""
            var key = "nil"
            if let declared = tip.key, let keyType = declared.type?.value {
                // A keyed tip is a function of its key: one accessor per instance.
                var names = SwiftIdentifiers(reserved: Self.tipMembers)
                let property = names.claim(declared.name.name)
                let swift = SwiftValueType.of(keyType)
                properties += "        \(access)func \(member)(\(SwiftIdentifiers.escaped(SwiftIdentifiers.bare(declared.name.name))) value: \(swift.swift)) -> \(type) {\n"
                properties += "            \(type)(center: center, \(Self.label(property)): value)\n        }\n"
                stored = "        /// The instance's key, `\(declared.name.name)`.\n        \(access)let \(property): \(swift.swift)\n"
                key = keyType == .int ? ".int(Int64(\(property)))" : ".string(\(property))"
                declarations += "\n    /// `\(tip.name.name)[\(declared.name.name): \(keyType.tipsSpelling)]`: each key value is its own instance.\n"
            } else {
                properties += "        \(access)var \(member): \(type) { \(type)(center: center) }\n"
                declarations += "\n    /// `\(tip.name.name)`\n"
            }
            declarations += "    \(access)struct \(type): TipAccessor {\n        \(access)let center: TipCenter\n" + stored
            declarations += "        \(access)var id: String { \(Self.literal(tip.name.name)) }\n"
            declarations += "        \(access)var key: TipKey? { \(key) }\n"
            declarations += content(tip)
            declarations += "    }\n"
        }
        return """

            // MARK: - Tips

            extension \(root) {
                \(access)struct Tips: Sendable {
                    \(access)let center: TipCenter

            \(properties)    }

                /// One tip (one instance of a keyed tip) of the program: its status and display decisions,
                /// what the UI reports, observation, its texts.
                \(access)protocol TipAccessor: Sendable {
                    var center: TipCenter { get }
                    /// The tip's name in the pack.
                    var id: String { get }
                    /// The instance's key for a keyed tip, nil for any other.
                    var key: TipKey? { get }
                }
            \(declarations)}

            extension \(root).TipAccessor {
                /// `pending`, `available` or `invalidated(reason)`, now.
                \(access)func status() throws -> TipStatus { try center.status(of: id, key: key) }

                /// Whether the UI should show it now: status, display frequency, group and testing overrides.
                \(access)func shouldDisplay() throws -> Bool { try center.shouldDisplay(id, key: key) }

                /// Displays since its latest reset, over all devices.
                \(access)func displayCount() throws -> Int64 { try center.displayCount(of: id, key: key) }

                /// Time on screen since its latest reset, over all devices.
                \(access)func displayDuration() throws -> TimeInterval { try center.displayDuration(of: id, key: key) }

                /// The UI shows it now: records the display; end the presentation when it goes away.
                \(access)func beginDisplay() throws -> TipPresentation { try center.beginDisplay(of: id, key: key) }

                /// The UI showed it (for `duration`, when known).
                \(access)func recordDisplay(duration: TimeInterval = 0) throws { try center.recordDisplay(id, key: key, duration: duration) }

                /// The UI reports more time on screen for a display already recorded.
                \(access)func recordDisplayDuration(_ duration: TimeInterval) throws { try center.recordDisplayDuration(id, key: key, duration: duration) }

                /// Invalidates it; a tip already invalidated keeps its first reason.
                \(access)func invalidate(_ reason: InvalidationReason) throws { try center.invalidate(id, key: key, reason: reason) }

                /// Makes it eligible again, with its display count and duration restarted.
                \(access)func reset() throws { try center.resetEligibility(id, key: key) }

                /// Its status now, then every change.
                \(access)func statusUpdates() throws -> AsyncStream<TipStatus> { try center.statusUpdates(for: id, key: key) }

                /// Whether it should display now, then every change. Streams only read: where the tip would
                /// appear, also ask `shouldDisplay()`, so that an experiment records the user's arm.
                \(access)func shouldDisplayUpdates() throws -> AsyncStream<Bool> { try center.shouldDisplayUpdates(for: id, key: key) }

                /// Testing override (not persisted): show it whatever its rules and the display frequency say
                /// (every instance of a keyed tip).
                \(access)func showForTesting() { center.showTipsForTesting([id]) }

                /// Testing override (not persisted): hide it (every instance of a keyed tip).
                \(access)func hideForTesting() { center.hideTipsForTesting([id]) }
            }

            """
    }

    /// The tip's `content(locale:…)`: one argument per declared placeholder, with its Swift type.
    private func content(_ tip: TipDecl) -> String {
        var names = SwiftIdentifiers(reserved: ["locale"])
        var arguments = ""
        var entries: [String] = []
        for placeholder in tip.placeholders {
            guard let type = placeholder.type?.value else { continue }
            let swift = SwiftValueType.of(type)
            let name = names.claim(placeholder.name.name)
            arguments += ", \(name): \(swift.swift)"
            entries.append("\(Self.literal(placeholder.name.name)): \(swift.encode(name, Self.literal(tip.name.name + "." + placeholder.name.name)))")
        }
        let values = entries.isEmpty ? "" : ", values: [\n" + entries.map { "                \($0),\n" }.joined() + "            ]"
        let filled = tip.placeholders.isEmpty ? "" : ", with " + tip.placeholders.map { "`\($0.name.name)`" }.joined(separator: ", ") + " filled"
        return """

                    /// Its title, message and action titles in `locale` (`de-CH`, else `de`, else the default locale)\(filled).
                    \(access)func content(locale: String\(arguments)) throws -> TipContent {
                        try center.content(of: id, locale: locale\(values))
                    }

            """
    }

    // MARK: - Groups

    private func groups(_ groups: [GroupDecl]) -> String {
        var members = SwiftIdentifiers(reserved: Self.containerMembers)
        var properties = ""
        for group in groups {
            let priority = group.priority?.value == .ordered ? ".ordered" : ".firstAvailable"
            let tips = group.tips.compactMap { tipTypes[$0.name].map { "\($0)(center: center)" } }.joined(separator: ", ")
            properties += "        /// `\(group.name.name)`: \(group.priority?.value.spelling ?? "firstAvailable") { \(group.tips.map(\.name).joined(separator: ", ")) }\n"
            properties += "        \(access)var \(members.claim(group.name.name)): Group {\n"
            properties += "            Group(center: center, name: \(Self.literal(group.name.name)), priority: \(priority), tips: [\(tips)])\n        }\n"
        }
        return """

            // MARK: - Groups

            extension \(root) {
                \(access)struct Groups: Sendable {
                    \(access)let center: TipCenter

            \(properties)    }

                \(access)enum GroupPriority: Sendable, Hashable {
                    /// Offers a tip only when every tip before it is invalidated.
                    case ordered
                    /// Offers the first tip that is available.
                    case firstAvailable
                }

                /// A group of tips: the runtime lets one of its tips display only while the group offers it.
                \(access)struct Group: Sendable {
                    \(access)let center: TipCenter
                    /// The group's name in the program.
                    \(access)let name: String
                    \(access)let priority: GroupPriority
                    /// Its tips, in order.
                    \(access)let tips: [any TipAccessor]

                    /// The tip it offers now (the first of its tips that should display), if any.
                    \(access)func currentTip() throws -> (any TipAccessor)? {
                        guard let current = try center.currentTip(of: name) else { return nil }
                        guard let tip = tips.first(where: { $0.id == current }) else {
                            throw AccessorError.packMismatch(name: name, expected: "one of its tips", actual: "'\\(current)'")
                        }
                        return tip
                    }
                }
            }

            """
    }

    // MARK: - Text

    static func literal(_ text: String) -> String { TipKitSwiftWriter.stringLiteral(text) }
}
