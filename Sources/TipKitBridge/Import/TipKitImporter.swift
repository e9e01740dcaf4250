import TipRuntime
import TipcCompiler

/// `tipc import` and `tipc check` on Swift: the TipKit tips, parameters, events,
/// groups and display frequency declared in a set of Swift files (one module), as one
/// `ManifestFile` whose every range points into the Swift files.
///
/// Swift that has nothing to do with TipKit is skipped silently; a TipKit construct the
/// manifest cannot hold is an `import-approximated` warning at its Swift position, and the
/// declaration it belongs to carries a comment saying what was left out.
public enum TipKitImporter {
    /// An imported module.
    public struct Module: Sendable {
        public var file: ManifestFile
        /// Comment lines for the top of a written manifest (what was left out of no declaration).
        public var header: [String]
    }

    /// Imports `sources` (Swift files) as one module.
    ///
    /// A file the Swift reader cannot read whole (an unterminated string, comment or regex
    /// literal, brackets that do not balance — a truncated file —, a limit) is left out with a
    /// warning naming it, and the rest of the module is imported; when no file of the module
    /// can be read, nothing is imported and the warnings are errors.
    public static func importModule(_ sources: [SourceFile], diagnostics: inout [Diagnostic]) -> Module {
        var files: [TipKitModuleBuilder.File] = []
        var unreadable: [Diagnostic] = []
        for source in sources {
            let (tokens, problems) = SwiftLexer.tokenize(source.bytes)
            if let first = problems.first {
                let notes = problems.dropFirst().prefix(3).map { DiagnosticNote($0.message, at: source.range(fromUTF8: $0.start, to: $0.end)) }
                unreadable.append(Diagnostic(first.code, "\(source.path) cannot be read as Swift (\(first.message)); its declarations are not imported",
                                             at: source.range(fromUTF8: first.start, to: first.end), notes: Array(notes), severity: .warning))
                continue
            }
            files.append(TipKitModuleBuilder.File(source: source, outline: SwiftDeclarationReader.read(tokens)))
        }
        if files.isEmpty {
            for index in unreadable.indices { unreadable[index].severity = .error }
        }
        diagnostics += unreadable
        var builder = TipKitModuleBuilder(files: files, modulePath: sources.first?.path)
        var module = builder.build()
        diagnostics += builder.diagnostics
        let skipped = sources.map(\.path).filter { path in unreadable.contains { $0.range.file == path } }
        module.header = skipped.map { "left out: \($0) (cannot be read as Swift)" } + module.header
        return module
    }
}

/// Builds the manifest of a module from the outlines of its files.
struct TipKitModuleBuilder {
    struct File {
        var source: SourceFile
        var outline: SwiftOutline
    }

    /// A property together with the file it was read from.
    struct Member {
        var file: Int
        var property: SwiftOutline.Property
    }

    struct EventInfo {
        var name: String
        var index: Int
    }

    struct ParameterInfo {
        var name: String
        var type: ValueType
        var index: Int
    }

    let files: [File]
    var diagnostics: [Diagnostic] = []
    var header: [String] = []
    /// Every type path (`A.B`) declared or extended in the module.
    var typePaths = Set<String>()
    var tipPaths: [[String]] = []
    /// Each type's members, by qualified name, from every file (declaration and extensions).
    var membersByOwner: [String: [Member]] = [:]
    /// Where each tip type is declared conforming to `Tip`: file and type declaration.
    var tipDeclarations: [String: (file: Int, type: SwiftOutline.TypeDeclaration)] = [:]
    /// Tip types by their last name component (the first declared wins), for group members.
    var tipsByTypeName: [String: [String]] = [:]
    var tipNames: [String: String] = [:]
    /// Events and parameters by `owner.property` (`.property` at the top level).
    var events: [String: EventInfo] = [:]
    var eventNames = Set<String>()
    var parameters: [String: ParameterInfo] = [:]
    /// Enum cases by their enum's qualified name, and the enums whose raw type is `String`.
    var enumCases: [String: [SwiftOutline.EnumCase]] = [:]
    var stringEnums = Set<String>()
    /// Initializer assignments (`self.title = …`) by `Type.name`, with their file.
    var assignments: [String: (file: Int, value: SwiftExpression)] = [:]
    var manifest: ManifestFile

    init(files: [File], modulePath: String? = nil) {
        self.files = files
        let path = files.first?.source.path ?? modulePath ?? "module.swift"
        let head = SourceRange(file: path, at: SourceLocation(line: 1, column: 1))
        manifest = ManifestFile(path: path, format: .yaml, version: Located(1, at: head), headRange: head)
    }

    /// `text` with control, format and line- or paragraph-separating characters (which YAML
    /// reads as line breaks: U+0085, U+2028, U+2029) replaced by U+FFFD.
    static func commentSafe(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.map { scalar -> Unicode.Scalar in
            switch scalar.properties.generalCategory {
            case .control, .format, .lineSeparator, .paragraphSeparator, .surrogate, .unassigned, .privateUse: return "\u{FFFD}"
            default: return scalar
            }
        }))
    }

    static func key(_ owner: [String], _ name: String) -> String { (owner + [name]).joined(separator: ".") }

    // MARK: - Positions

    func range(_ file: Int, tokens start: Int, _ end: Int) -> SourceRange {
        let tokens = files[file].outline.tokens
        guard !tokens.isEmpty else { return manifest.headRange }
        let first = tokens[min(start, tokens.count - 1)]
        let last = tokens[min(max(end - 1, start), tokens.count - 1)]
        return files[file].source.range(fromUTF8: first.start, to: max(first.end, last.end))
    }

    func range(_ file: Int, _ expression: SwiftExpression) -> SourceRange {
        range(file, tokens: expression.start, expression.end)
    }

    /// The Swift text of `expression`, on one line, shortened for a comment.
    func text(_ file: Int, _ expression: SwiftExpression) -> String {
        let tokens = files[file].outline.tokens
        guard expression.start < tokens.count, expression.end > expression.start else { return "" }
        let bytes = files[file].source.bytes
        let start = tokens[expression.start].start
        let end = max(start, tokens[min(expression.end, tokens.count) - 1].end)
        var text = String(decoding: bytes[start..<end], as: UTF8.self)
            .split(whereSeparator: { $0 == "\n" || $0 == "\r" }).map { $0.trimmingSpaces }.joined(separator: " ")
        if text.count > 100 { text = String(text.prefix(99)) + "…" }
        return text
    }

    /// `raw` when it is a valid manifest name (`[A-Za-z_][A-Za-z0-9_.-]*`); else the name with
    /// every other character replaced by `_`, and a warning.
    mutating func manifestName(_ raw: String, kind: String, at range: SourceRange) -> String {
        if NameSyntax.isValidName(raw) { return raw }
        let name = Self.sanitizedName(raw)
        approximated("'\(raw)' is not a valid manifest name for \(kind); it is imported as '\(name)'", at: range)
        return name
    }

    /// `raw` with every character a manifest name cannot hold replaced by `_` (and `_` in front
    /// when it would not start a name); `raw` itself when it is a valid name.
    static func sanitizedName(_ raw: String) -> String {
        if NameSyntax.isValidName(raw) { return raw }
        var name = String(String.UnicodeScalarView(raw.unicodeScalars.map { scalar -> Unicode.Scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "_.-".unicodeScalars.contains(scalar)) ? scalar : "_"
        }))
        if !NameSyntax.isValidName(name) { name = "_" + name }
        return name
    }

    mutating func approximated(_ message: String, at range: SourceRange) {
        diagnostics.append(Diagnostic(.importApproximated, message, at: range))
    }

    // MARK: - Building

    mutating func build() -> TipKitImporter.Module {
        for (index, file) in files.enumerated() {
            for type in file.outline.types {
                let key = type.path.joined(separator: ".")
                typePaths.insert(key)
                if type.keyword != "protocol", type.inherits.contains("Tip"), tipDeclarations[key] == nil {
                    tipPaths.append(type.path)
                    tipDeclarations[key] = (index, type)
                }
                if type.keyword == "enum", type.inherits.first == "String" { stringEnums.insert(key) }
            }
            for property in file.outline.properties {
                membersByOwner[property.owner.joined(separator: "."), default: []].append(Member(file: index, property: property))
            }
            for enumCase in file.outline.enumCases { enumCases[enumCase.owner.joined(separator: "."), default: []].append(enumCase) }
            for assignment in file.outline.assignments where assignments[Self.key(assignment.owner, assignment.name)] == nil {
                assignments[Self.key(assignment.owner, assignment.name)] = (index, assignment.value)
            }
        }
        nameTips()
        readEvents()
        readParameters()
        readTips()
        readCalls()
        // Comments quote Swift text: nothing in them may end the comment line in YAML or `.tips`.
        for index in manifest.parameters.indices { manifest.parameters[index].comments = manifest.parameters[index].comments.map(Self.commentSafe) }
        for index in manifest.events.indices { manifest.events[index].comments = manifest.events[index].comments.map(Self.commentSafe) }
        for index in manifest.tips.indices { manifest.tips[index].comments = manifest.tips[index].comments.map(Self.commentSafe) }
        for index in manifest.groups.indices { manifest.groups[index].comments = manifest.groups[index].comments.map(Self.commentSafe) }
        return TipKitImporter.Module(file: manifest, header: header.map(Self.commentSafe))
    }

    /// The members of the type `path`, from every file (declaration and extensions).
    func members(of path: [String]) -> [Member] {
        membersByOwner[path.joined(separator: ".")] ?? []
    }

    /// A tip's name: its literal `id`, else its qualified type name.
    mutating func nameTips() {
        for path in tipPaths {
            var name = path.joined(separator: ".")
            if let id = members(of: path).first(where: { $0.property.name == "id" && !$0.property.isStatic }),
               let value = singleValue(id.property) {
                if let text = constantString(value, in: path) {
                    name = text
                } else {
                    approximated("a tip id computed at run time cannot be imported; the tip is named by its type, '\(name)'",
                                 at: range(id.file, value))
                }
            }
            let at = tipDeclarations[path.joined(separator: ".")].map { range($0.file, tokens: $0.type.nameToken, $0.type.nameToken + 1) } ?? manifest.headRange
            tipNames[path.joined(separator: ".")] = manifestName(name, kind: "a tip", at: at)
        }
    }

    /// The expression a property holds: its initializer, or its getter's only (last) statement.
    func singleValue(_ property: SwiftOutline.Property) -> SwiftExpression? {
        property.initializer ?? property.getter?.last
    }

    /// Resolves a type spelled `spelled` as seen from inside `scope` (innermost first).
    func resolveType(_ spelled: [String], from scope: [String]) -> [String]? {
        var prefix = scope
        while true {
            let candidate = prefix + spelled
            if typePaths.contains(candidate.joined(separator: ".")) { return candidate }
            if prefix.isEmpty { return nil }
            prefix.removeLast()
        }
    }

    // MARK: - Constants

    /// The string `expression` stands for when the compiler can know it: a literal, a
    /// `static let`/`let` or a computed property returning one (by its name in `scope` or an
    /// enclosing type, or `Type.name`, `Self.name`), an enum case's `rawValue`, and `+` of
    /// those; nil for a value known only at run time.
    func constantString(_ expression: SwiftExpression, in scope: [String], depth: Int = 0) -> String? {
        guard depth < 16 else { return nil }
        switch expression.kind {
        case .string(let text, false):
            return text
        case .parenthesized(let inner):
            return constantString(inner, in: scope, depth: depth + 1)
        case .binary("+", let left, let right):
            guard let a = constantString(left, in: scope, depth: depth + 1), let b = constantString(right, in: scope, depth: depth + 1) else { return nil }
            return a + b
        case .identifier(let name):
            var owner = scope
            while true {
                if let value = propertyString(name, of: owner, depth: depth) { return value }
                if owner.isEmpty { return nil }
                owner.removeLast()
            }
        case .member(let base?, "rawValue"):
            guard case .member(let type?, let caseName) = base.kind, let owner = typePath(of: type, in: scope),
                  let enumCase = enumCases[owner.joined(separator: ".")]?.first(where: { $0.name == caseName }) else { return nil }
            if let raw = enumCase.rawValue { return constantString(raw, in: owner, depth: depth + 1) }
            return stringEnums.contains(owner.joined(separator: ".")) ? caseName : nil
        case .member(let base?, let name):
            guard let owner = typePath(of: base, in: scope) else { return nil }
            return propertyString(name, of: owner, depth: depth)
        default:
            return nil
        }
    }

    /// The type `Self`, `A` or `A.B` names, seen from `scope`.
    func typePath(of expression: SwiftExpression, in scope: [String]) -> [String]? {
        if case .identifier("Self") = expression.kind { return scope }
        guard let spelled = Self.typeSpelling(expression) else { return nil }
        return resolveType(spelled, from: scope)
    }

    private func propertyString(_ name: String, of owner: [String], depth: Int) -> String? {
        guard let member = members(of: owner).first(where: { $0.property.name == name }), let value = singleValue(member.property) else { return nil }
        return constantString(value, in: member.property.owner, depth: depth + 1)
    }

    // MARK: - Events

    /// `Tips.Event(id:)`, `Event<T>(id:)`, `Tips.Event<T>(id:donationLimit:)`: the payload type
    /// name (nil without one) when `expression` is such a call.
    static func eventCall(_ expression: SwiftExpression) -> (payload: String?, arguments: [SwiftExpression.Argument])? {
        guard case .call(let callee, let arguments, _) = expression.kind else { return nil }
        var payload: String?
        var base = callee
        if case .member(let inner?, let name) = base.kind, name.hasPrefix("<") {
            payload = String(name.dropFirst().dropLast())
            base = inner
        }
        switch base.kind {
        case .identifier("Event"): break
        case .member(let owner?, "Event"):
            guard case .identifier(let namespace) = owner.kind, namespace == "Tips" || namespace == "Tip" || namespace == "TipKit" else { return nil }
        default: return nil
        }
        guard arguments.contains(where: { $0.label == "id" }) else { return nil }
        return (payload, arguments)
    }

    /// `eventCall` for a property, also in the form `let e: Tips.Event<T> = .init(id:)`; a bare
    /// `Event(id:)` outside a tip is the module's own type when the module declares one.
    func eventCall(_ initializer: SwiftExpression, of property: SwiftOutline.Property) -> (payload: String?, arguments: [SwiftExpression.Argument])? {
        // `let e: Tips.Event<Item> = …`: the payload written on the property's type.
        var declaredPayload: String?
        if let type = property.typeName, type.hasPrefix("Tips.Event") || type.hasPrefix("Event"),
           let open = type.firstIndex(of: "<"), let close = type.lastIndex(of: ">"), open < close {
            declaredPayload = String(type[type.index(after: open)..<close])
        }
        if let call = Self.eventCall(initializer) {
            if case .call(let callee, _, _) = initializer.kind, Self.isBareEvent(callee), typePaths.contains("Event"),
               tipDeclarations[property.owner.joined(separator: ".")] == nil {
                return nil
            }
            return (call.payload ?? declaredPayload, call.arguments)
        }
        guard case .call(let callee, let arguments, _) = initializer.kind, case .member(nil, "init") = callee.kind,
              arguments.contains(where: { $0.label == "id" }), let type = property.typeName,
              type.hasPrefix("Tips.Event") || type.hasPrefix("Event") else { return nil }
        return (declaredPayload, arguments)
    }

    /// `name`, or `name_2`, `name_3`, … when `taken` holds it: the name of a declaration whose
    /// id is known only at run time, which must not merge with another declaration.
    static func unique(_ name: String, in taken: (String) -> Bool) -> String {
        guard taken(name) else { return name }
        var number = 2
        while taken("\(name)_\(number)") { number += 1 }
        return "\(name)_\(number)"
    }

    static func isBareEvent(_ callee: SwiftExpression) -> Bool {
        switch callee.kind {
        case .identifier("Event"): return true
        case .member(let base?, let name) where name.hasPrefix("<"): return isBareEvent(base)
        default: return false
        }
    }

    mutating func readEvents() {
        var declared: [String: Int] = [:]
        for (fileIndex, file) in files.enumerated() {
            for property in file.outline.properties {
                guard let initializer = property.initializer, let (payload, arguments) = eventCall(initializer, of: property),
                      let idArgument = arguments.first(where: { $0.label == "id" })?.value else { continue }
                var name: String
                var known = true
                if let text = constantString(idArgument, in: property.owner) {
                    name = manifestName(text, kind: "an event", at: range(fileIndex, idArgument))
                } else {
                    known = false
                    let declared = declared
                    name = Self.unique(Self.sanitizedName(Self.key(property.owner, property.name))) { declared[$0] != nil }
                    approximated("an event id computed at run time cannot be imported; the event is named '\(name)'", at: range(fileIndex, idArgument))
                }
                let key = Self.key(property.owner, property.name)
                if known, let existing = declared[name] {
                    events[key] = EventInfo(name: name, index: existing)
                    continue
                }
                var comments: [String] = []
                var limit = DonationLimitDecl(maximumCount: Located(1000, at: range(fileIndex, tokens: property.nameToken, property.nameToken + 1)))
                let limitLabel = EventAttributes.retentionTipKit ?? ""
                if let limitArgument = arguments.first(where: { $0.label == limitLabel })?.value {
                    if case .call(_, let limitArguments, _) = limitArgument.kind,
                       let count = limitArguments.first(where: { $0.label == "maximumCount" })?.value,
                       case .integer(let value?) = count.kind {
                        limit.maximumCount = Located(value, at: range(fileIndex, count))
                        if let age = limitArguments.first(where: { $0.label == "maximumAge" })?.value {
                            if let seconds = TipKitRuleTranslator.timeRangeSeconds(age) {
                                limit.maximumAgeSeconds = Located(seconds, at: range(fileIndex, age))
                            } else if !isNil(age) {
                                approximated("a maximum age that is not a literal time range is not imported", at: range(fileIndex, age))
                                comments.append("left out: maximumAge \(text(fileIndex, age))")
                            }
                        }
                    } else {
                        approximated("a donation limit that is not a literal 'maximumCount' is not imported; 1000 is assumed", at: range(fileIndex, limitArgument))
                        comments.append("left out: \(limitLabel) \(text(fileIndex, limitArgument))")
                    }
                }
                var fields: [FieldDecl] = []
                if let payload, payload != "Tips.EmptyDonation", payload != "EmptyDonation" {
                    fields = payloadFields(named: payload, from: property.owner, comments: &comments, at: range(fileIndex, initializer))
                }
                declared[name] = manifest.events.count
                eventNames.insert(name)
                events[key] = EventInfo(name: name, index: manifest.events.count)
                let nameRange = range(fileIndex, idArgument)
                manifest.events.append(EventDecl(name: Identifier(name, at: nameRange), fields: fields, donationLimit: limit,
                                                 comments: comments, range: range(fileIndex, initializer)))
            }
        }
    }

    /// The stored properties of the payload type `name` that a manifest field can hold.
    mutating func payloadFields(named name: String, from scope: [String], comments: inout [String], at where_: SourceRange) -> [FieldDecl] {
        guard let path = resolveType(name.split(separator: ".").map(String.init), from: scope) else {
            approximated("the payload type '\(name)' is not declared in the imported files; its fields are not imported", at: where_)
            comments.append("left out: the fields of \(name) (not found)")
            return []
        }
        var fields: [FieldDecl] = []
        for member in members(of: path) where !member.property.isStatic && member.property.getter == nil {
            let property = member.property
            let fieldRange = range(member.file, tokens: property.nameToken, property.nameToken + 1)
            if let type = Self.valueType(property.typeName, initializer: property.initializer) {
                let name = manifestName(property.name, kind: "a payload field", at: fieldRange)
                fields.append(FieldDecl(name: Identifier(name, at: fieldRange), type: Located(type, at: fieldRange)))
            } else {
                approximated("the payload field '\(property.name)' has a type the manifest cannot hold (\(property.typeName ?? "unknown")); it is left out",
                             at: fieldRange)
                comments.append("left out: field \(property.name): \(property.typeName ?? "unknown type")")
            }
        }
        return fields
    }

    /// The manifest type of a Swift type spelling (or of a literal initializer).
    static func valueType(_ spelling: String?, initializer: SwiftExpression?) -> ValueType? {
        if let spelling {
            switch spelling {
            case "Bool": return .bool
            case "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32": return .int
            case "Double", "Float", "CGFloat", "TimeInterval": return .double
            case "String": return .string
            case "Date", "Foundation.Date": return .date
            default: return nil
            }
        }
        switch initializer?.kind {
        case .identifier("true"), .identifier("false"): return .bool
        case .integer: return .int
        case .floatingPoint: return .double
        case .string: return .string
        case .prefix("-", let operand):
            if case .integer = operand.kind { return .int }
            if case .floatingPoint = operand.kind { return .double }
            return nil
        default: return nil
        }
    }

    // MARK: - Parameters

    /// A parameter as declared: `@Parameter static var x: T = v` or
    /// `static let x = Tips.Parameter(Self.self, "id", v)`.
    struct ParameterSource {
        var member: Member
        var name: String
        var typeName: String?
        var defaultValue: SwiftExpression?
        var isTransient: Bool
    }

    /// `Tips.Parameter(Type.self, id, default, options…)`, `Tips.Parameter<T>(…)`: the type
    /// argument and the arguments.
    static func parameterCall(_ expression: SwiftExpression) -> (type: String?, arguments: [SwiftExpression.Argument])? {
        guard case .call(var callee, let arguments, _) = expression.kind else { return nil }
        var type: String?
        if case .member(let inner?, let name) = callee.kind, name.hasPrefix("<") {
            type = String(name.dropFirst().dropLast())
            callee = inner
        }
        guard case .member(let owner?, "Parameter") = callee.kind, case .identifier("Tips") = owner.kind, arguments.count >= 3 else { return nil }
        return (type, arguments)
    }

    /// Whether `argument` is TipKit's `.transient` option (the parameter attribute whose TipKit
    /// spelling it is).
    static func isTransientOption(_ argument: SwiftExpression.Argument) -> Bool {
        guard case .member(_, let option) = argument.value.kind, let row = ParameterAttributes.attribute(tipKit: option),
              case .flag = row.value else { return false }
        return true
    }

    /// TipKit's parameters: static `@Parameter` properties (an instance `@Parameter` is App
    /// Intents' and adds nothing) and `Tips.Parameter(…)` values.
    mutating func parameterSources() -> [ParameterSource] {
        var found: [ParameterSource] = []
        for (fileIndex, file) in files.enumerated() {
            for property in file.outline.properties {
                let member = Member(file: fileIndex, property: property)
                if let options = property.attributes["Parameter"] {
                    guard property.isStatic else { continue }
                    found.append(ParameterSource(member: member, name: property.name, typeName: property.typeName,
                                                 defaultValue: property.initializer, isTransient: options.contains(where: Self.isTransientOption)))
                } else if let initializer = property.initializer, let (type, arguments) = Self.parameterCall(initializer) {
                    var name = property.name
                    if let id = constantString(arguments[1].value, in: property.owner) {
                        name = id
                    } else {
                        approximated("a parameter id computed at run time cannot be imported; the parameter is named '\(name)'", at: range(fileIndex, arguments[1].value))
                    }
                    var typeName = type
                    if typeName == nil, let declared = property.typeName, let open = declared.firstIndex(of: "<"), let close = declared.lastIndex(of: ">"), open < close {
                        typeName = String(declared[declared.index(after: open)..<close])
                    }
                    found.append(ParameterSource(member: member, name: name, typeName: typeName, defaultValue: arguments[2].value,
                                                 isTransient: arguments.dropFirst(3).contains(where: Self.isTransientOption)))
                }
            }
        }
        return found
    }

    mutating func readParameters() {
        let found = parameterSources()
        let tipNameSet = Set(tipNames.values)
        var owners: [String: Set<[String]>] = [:]
        for source in found { owners[source.name, default: []].insert(source.member.property.owner) }
        for source in found {
            let property = source.member.property
            let file = source.member.file
            let nameRange = range(file, tokens: property.nameToken, property.nameToken + 1)
            let taken = (owners[source.name]?.count ?? 0) > 1 || eventNames.contains(source.name) || tipNameSet.contains(source.name)
            let name = manifestName(taken && !property.owner.isEmpty ? Self.key(property.owner, source.name) : source.name,
                                    kind: "a parameter", at: nameRange)
            guard let type = Self.valueType(source.typeName, initializer: source.defaultValue) else {
                approximated("the parameter '\(property.name)' has a type the manifest cannot hold (\(source.typeName ?? "unknown")); it is not imported", at: nameRange)
                header.append("left out: parameter \(Self.key(property.owner, property.name)): \(source.typeName ?? "unknown type")")
                continue
            }
            var comments: [String] = []
            var defaultValue: Literal?
            let initializer = source.defaultValue
            switch (type, initializer?.kind) {
            case (.bool, .identifier("true")?): defaultValue = .bool(true)
            case (.bool, .identifier("false")?): defaultValue = .bool(false)
            case (.int, .integer(let value?)?): defaultValue = .int(value)
            case (.double, .integer(let value?)?): defaultValue = .double(Double(value))
            case (.double, .floatingPoint(let value)?): defaultValue = .double(value)
            case (.string, .string(let text, false)?): defaultValue = .string(text)
            case (.int, .prefix("-", let operand)?):
                if case .integer(let value?) = operand.kind { defaultValue = .int(-value) }
            case (.double, .prefix("-", let operand)?):
                if case .floatingPoint(let value) = operand.kind { defaultValue = .double(-value) }
                if case .integer(let value?) = operand.kind { defaultValue = .double(-Double(value)) }
            default: break
            }
            if defaultValue == nil {
                let closest: Literal
                switch type {
                case .bool: closest = .bool(false)
                case .int: closest = .int(0)
                case .double: closest = .double(0)
                case .string: closest = .string("")
                case .date, .duration: closest = .string("1970-01-01T00:00:00Z")
                }
                defaultValue = closest
                let at = initializer.map { range(file, $0) } ?? nameRange
                let written = initializer.map { text(file, $0) } ?? "none"
                if let initializer, let literalType = Self.valueType(nil, initializer: initializer), literalType != type {
                    // `@Parameter static var badge: Int = "zero"` does not compile: say so where it is.
                    diagnostics.append(Diagnostic(.typeMismatch, "the default of '\(property.name)' is \(EnglishText.withArticle(literalType.manifestSpelling)) literal, but the parameter is declared \(source.typeName ?? type.manifestSpelling)",
                                                  at: at, help: "write \(EnglishText.withArticle(type.manifestSpelling)) such as \(ManifestLiteralText.text(closest))"))
                } else {
                    approximated("the default of '\(property.name)' is not a literal (\(written)); the manifest holds \(ManifestLiteralText.text(closest))", at: at)
                }
                comments.append("left out: default \(written)")
            }
            parameters[Self.key(property.owner, property.name)] = ParameterInfo(name: name, type: type, index: manifest.parameters.count)
            manifest.parameters.append(ParameterDecl(name: Identifier(name, at: nameRange), type: Located(type, at: nameRange),
                                                     defaultValue: defaultValue.map { Located($0, at: initializer.map { range(file, $0) } ?? nameRange) },
                                                     isTransient: source.isTransient, comments: comments, range: nameRange))
        }
    }

    // MARK: - Calls: Tips.configure and TipGroup

    mutating func readCalls() {
        var frequencySeen = false
        var groupNumber = 0
        var groupNames = Set<String>()
        for path in tipPaths.reversed() { tipsByTypeName[path.last ?? ""] = path }
        for (fileIndex, file) in files.enumerated() {
            for call in file.outline.calls {
                guard case .call(let callee, let arguments, let trailing) = call.expression.kind else { continue }
                let isConfigure: Bool
                if case .member(_, "configure") = callee.kind { isConfigure = true } else { isConfigure = false }
                let leftOut = file.outline.branchesLeftOut(around: call.expression.start)
                if let branch = leftOut.last {
                    // A debug-only configuration or group: a release build compiles another branch.
                    let what = isConfigure ? "Tips.configure" : "TipGroup"
                    let condition = conditionText(fileIndex, branch.directive)
                    approximated("\(what) under '\(condition)' is left out: a release build compiles another branch", at: range(fileIndex, call.expression))
                    header.append("left out: \(text(fileIndex, call.expression)) (under \(condition), which a release build does not compile)")
                    continue
                }
                if isConfigure {
                    readConfiguration(arguments, file: fileIndex, frequencySeen: &frequencySeen)
                } else {
                    groupNumber += 1
                    var name = manifestName(call.property ?? "group\(groupNumber)", kind: "a group", at: range(fileIndex, call.expression))
                    while groupNames.contains(name) { groupNumber += 1; name = "group\(groupNumber)" }
                    if readGroup(named: name, call.expression, arguments: arguments, trailing: trailing, file: fileIndex) {
                        groupNames.insert(name)
                    }
                }
            }
        }
    }

    mutating func readConfiguration(_ arguments: [SwiftExpression.Argument], file: Int, frequencySeen: inout Bool) {
        guard case .array(let options)? = arguments.first?.value.kind else { return }
        for option in options {
            guard case .call(let callee, let optionArguments, _) = option.kind, case .member(nil, "displayFrequency") = callee.kind,
                  let value = optionArguments.first?.value else { continue }
            let at = range(file, option)
            var frequency: DisplayFrequencySpec?
            switch value.kind {
            case .member(nil, let name): frequency = DisplayFrequencySpec.named[name]
            default:
                if let seconds = TipKitRuleTranslator.constant(value), seconds >= 0, seconds < 1e15 {
                    frequency = seconds == 0 ? .immediate : .custom(seconds: Int(seconds.rounded()))
                    if seconds != seconds.rounded() {
                        approximated("the display frequency \(seconds) s is rounded to whole seconds", at: at)
                    }
                }
            }
            guard let frequency else {
                approximated("a display frequency that is not a literal cannot be imported (\(text(file, value)))", at: at)
                header.append("left out: \(text(file, option))")
                continue
            }
            if frequencySeen {
                if manifest.displayFrequency?.value != frequency {
                    approximated("another Tips.configure sets a different display frequency; the first one read is kept", at: at)
                    header.append("left out: \(text(file, option)) (another configure call sets the frequency)")
                }
                continue
            }
            frequencySeen = true
            manifest.displayFrequency = Located(frequency, at: at)
        }
    }

    /// A `TipGroup`: its priority (none: `firstAvailable`) and its members, from a builder
    /// (`TipGroup { A(); B() }`) or an array (`TipGroup(.ordered, [A(), B()])`), each a tip's
    /// initializer, a property holding a tip (`A.shared`, `tipA`, `self.tipA`) or a case of an
    /// enum tip. Returns false when no member is a tip: the group is left out.
    mutating func readGroup(named name: String, _ expression: SwiftExpression, arguments: [SwiftExpression.Argument],
                            trailing: [SwiftExpression.Closure], file: Int) -> Bool {
        let at = range(file, expression)
        let scope = files[file].outline.scope(of: expression.start)
        var priority: Located<PackGroupPriority> = Located(.firstAvailable, at: at)
        var statements = trailing.first?.statements ?? []
        for argument in arguments where argument.label == nil {
            switch argument.value.kind {
            case .member(nil, let spelled):
                if let value = PackGroupPriority(spelling: spelled) { priority = Located(value, at: range(file, argument.value)) }
            case .array(let elements):
                statements += elements
            case .closure(let closure):
                statements += closure.statements
            default:
                break
            }
        }
        var members: [Identifier] = []
        var comments: [String] = []
        for statement in statements {
            guard let path = tipType(of: statement, in: scope), let tipName = tipNames[path.joined(separator: ".")] else {
                approximated("a group member that is not a tip cannot be imported (\(text(file, statement)))", at: range(file, statement))
                comments.append("left out: member \(text(file, statement))")
                continue
            }
            if let other = manifest.groups.first(where: { $0.tips.contains { $0.name == tipName } }) {
                // TipKit lets a tip be in several groups; a manifest tip belongs to one.
                approximated("the tip '\(tipName)' is already in the group '\(other.name.name)'; a tip belongs to one group in a manifest, so it is left out of this one",
                             at: range(file, statement))
                comments.append("left out: member \(text(file, statement)) (already in \(other.name.name))")
                continue
            }
            if members.contains(where: { $0.name == tipName }) {
                approximated("the tip '\(tipName)' is listed twice in the group (an enum tip's cases are one tip here); it is kept once", at: range(file, statement))
                comments.append("left out: member \(text(file, statement)) (the same tip again)")
                continue
            }
            members.append(Identifier(tipName, at: range(file, statement)))
        }
        guard !members.isEmpty else {
            approximated("the group '\(name)' has no member that is a tip; it is left out", at: at)
            header.append("left out: group \(name), \(text(file, expression))")
            return false
        }
        manifest.groups.append(GroupDecl(name: Identifier(name, at: at), priority: priority, tips: members, comments: comments, range: at))
        return true
    }

    /// The tip type a group member stands for: `A()`, `Namespace.A()`, `A.shared`, a property
    /// holding a tip (by its declared type or its initializer), `E.someCase` of an enum tip.
    func tipType(of expression: SwiftExpression, in scope: [String], depth: Int = 0) -> [String]? {
        guard depth < 8 else { return nil }
        switch expression.kind {
        case .call(let callee, _, _):
            if case .member(let base?, "init") = callee.kind { return tipType(of: base, in: scope, depth: depth + 1) }
            guard let spelled = Self.typeSpelling(callee) else { return nil }
            if let path = resolveType(spelled, from: scope) ?? tipsByTypeName[spelled.last ?? ""],
               tipDeclarations[path.joined(separator: ".")] != nil { return path }
            return nil
        case .identifier(let name):
            if let path = resolveType([name], from: scope), tipDeclarations[path.joined(separator: ".")] != nil { return path }
            var owner = scope
            while true {
                if let path = propertyTip(name, of: owner, depth: depth) { return path }
                if owner.isEmpty { return nil }
                owner.removeLast()
            }
        case .member(let base?, let name):
            if case .identifier("self") = base.kind { return propertyTip(name, of: scope, depth: depth) }
            guard let owner = typePath(of: base, in: scope) else { return nil }
            if tipDeclarations[owner.joined(separator: ".")] != nil, enumCases[owner.joined(separator: ".")]?.contains(where: { $0.name == name }) == true {
                return owner
            }
            return propertyTip(name, of: owner, depth: depth)
        case .parenthesized(let inner):
            return tipType(of: inner, in: scope, depth: depth + 1)
        default:
            return nil
        }
    }

    /// The tip type the property `name` of `owner` holds.
    private func propertyTip(_ name: String, of owner: [String], depth: Int) -> [String]? {
        guard let member = members(of: owner).first(where: { $0.property.name == name }) else { return nil }
        let property = member.property
        if var spelled = property.typeName {
            while spelled.hasSuffix("?") || spelled.hasSuffix("!") { spelled.removeLast() }
            if let path = resolveType(spelled.split(separator: ".").map(String.init), from: property.owner),
               tipDeclarations[path.joined(separator: ".")] != nil { return path }
        }
        guard let value = singleValue(property) else { return nil }
        return tipType(of: value, in: property.owner, depth: depth + 1)
    }

    /// `A`, `A.B` as a list of names; nil for anything else.
    static func typeSpelling(_ expression: SwiftExpression) -> [String]? {
        switch expression.kind {
        case .identifier(let name): return [name]
        case .member(let base?, let name): return typeSpelling(base).map { $0 + [name] }
        default: return nil
        }
    }
}

/// How a literal is shown in a warning.
enum ManifestLiteralText {
    static func text(_ literal: Literal) -> String {
        switch literal {
        case .bool(let value): return String(value)
        case .int(let value): return String(value)
        case .double(let value): return String(value)
        case .string(let value): return "\"\(value)\""
        case .duration(let seconds): return DurationText.string(seconds: seconds)
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
