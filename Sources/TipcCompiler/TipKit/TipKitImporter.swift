import TipRuntime

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

    /// Whether `path` names a Swift source file.
    public static func isSwift(_ path: String) -> Bool { path.hasSuffix(".swift") }

    /// Imports `sources` (Swift files) as one module.
    public static func importModule(_ sources: [SourceFile], diagnostics: inout [Diagnostic]) -> Module {
        var files: [TipKitModuleBuilder.File] = []
        for source in sources {
            let (tokens, problems) = SwiftLexer.tokenize(source.bytes)
            for problem in problems {
                diagnostics.append(Diagnostic(problem.code, problem.message, at: source.range(fromUTF8: problem.start, to: problem.end)))
            }
            files.append(TipKitModuleBuilder.File(source: source, outline: SwiftDeclarationReader.read(tokens)))
        }
        var builder = TipKitModuleBuilder(files: files)
        let module = builder.build()
        diagnostics += builder.diagnostics
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
    var manifest: ManifestFile

    init(files: [File]) {
        self.files = files
        let path = files.first?.source.path ?? "module.swift"
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
            }
            for property in file.outline.properties {
                membersByOwner[property.owner.joined(separator: "."), default: []].append(Member(file: index, property: property))
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
                if case .string(let text, let interpolated) = value.kind, !interpolated {
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
        if let call = Self.eventCall(initializer) {
            if case .call(let callee, _, _) = initializer.kind, Self.isBareEvent(callee), typePaths.contains("Event"),
               tipDeclarations[property.owner.joined(separator: ".")] == nil {
                return nil
            }
            return call
        }
        guard case .call(let callee, let arguments, _) = initializer.kind, case .member(nil, "init") = callee.kind,
              arguments.contains(where: { $0.label == "id" }), let type = property.typeName,
              type.hasPrefix("Tips.Event") || type.hasPrefix("Event") else { return nil }
        var payload: String?
        if let open = type.firstIndex(of: "<"), let close = type.lastIndex(of: ">"), open < close {
            payload = String(type[type.index(after: open)..<close])
        }
        return (payload, arguments)
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
                var name = property.name
                if case .string(let text, false) = idArgument.kind {
                    name = text
                } else {
                    approximated("an event id computed at run time cannot be imported; the event is named '\(name)'", at: range(fileIndex, idArgument))
                }
                name = manifestName(name, kind: "an event", at: range(fileIndex, idArgument))
                let key = Self.key(property.owner, property.name)
                if let existing = declared[name] {
                    events[key] = EventInfo(name: name, index: existing)
                    continue
                }
                var comments: [String] = []
                var limit = DonationLimitDecl(maximumCount: Located(1000, at: range(fileIndex, tokens: property.nameToken, property.nameToken + 1)))
                if let limitArgument = arguments.first(where: { $0.label == "donationLimit" })?.value {
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
                        comments.append("left out: donationLimit \(text(fileIndex, limitArgument))")
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

    mutating func readParameters() {
        var found: [Member] = []
        for (fileIndex, file) in files.enumerated() {
            for property in file.outline.properties where property.attributes["Parameter"] != nil {
                found.append(Member(file: fileIndex, property: property))
            }
        }
        let tipNameSet = Set(tipNames.values)
        var owners: [String: Set<[String]>] = [:]
        for member in found { owners[member.property.name, default: []].insert(member.property.owner) }
        for member in found {
            let property = member.property
            let file = member.file
            let nameRange = range(file, tokens: property.nameToken, property.nameToken + 1)
            let taken = (owners[property.name]?.count ?? 0) > 1 || eventNames.contains(property.name) || tipNameSet.contains(property.name)
            let name = manifestName(taken && !property.owner.isEmpty ? Self.key(property.owner, property.name) : property.name,
                                    kind: "a parameter", at: nameRange)
            guard let type = Self.valueType(property.typeName, initializer: property.initializer) else {
                approximated("the parameter '\(property.name)' has a type the manifest cannot hold (\(property.typeName ?? "unknown")); it is not imported", at: nameRange)
                header.append("left out: parameter \(Self.key(property.owner, property.name)): \(property.typeName ?? "unknown type")")
                continue
            }
            var comments: [String] = []
            var defaultValue: Literal?
            let initializer = property.initializer
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
                approximated("the default of '\(property.name)' is not a literal (\(written)); the manifest holds \(ManifestLiteralText.text(closest))", at: at)
                comments.append("left out: default \(written)")
            }
            let isTransient = property.attributes["Parameter"]?.contains { argument in
                if case .member(nil, "transient") = argument.value.kind { return true }
                return false
            } ?? false
            parameters[Self.key(property.owner, property.name)] = ParameterInfo(name: name, type: type, index: manifest.parameters.count)
            manifest.parameters.append(ParameterDecl(name: Identifier(name, at: nameRange), type: Located(type, at: nameRange),
                                                     defaultValue: defaultValue.map { Located($0, at: initializer.map { range(file, $0) } ?? nameRange) },
                                                     isTransient: isTransient, comments: comments, range: nameRange))
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
                if case .member(_, "configure") = callee.kind {
                    readConfiguration(arguments, file: fileIndex, frequencySeen: &frequencySeen)
                } else {
                    groupNumber += 1
                    var name = manifestName(call.property ?? "group\(groupNumber)", kind: "a group", at: range(fileIndex, call.expression))
                    while groupNames.contains(name) { groupNumber += 1; name = "group\(groupNumber)" }
                    groupNames.insert(name)
                    readGroup(named: name, call.expression, arguments: arguments, trailing: trailing, file: fileIndex)
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

    mutating func readGroup(named name: String, _ expression: SwiftExpression, arguments: [SwiftExpression.Argument],
                            trailing: [SwiftExpression.Closure], file: Int) {
        let at = range(file, expression)
        var priority: Located<PackGroupPriority> = Located(.firstAvailable, at: at)
        if let first = arguments.first(where: { $0.label == nil })?.value, case .member(nil, let spelled) = first.kind {
            if let value = PackGroupPriority(spelling: spelled) { priority = Located(value, at: range(file, first)) }
        }
        var members: [Identifier] = []
        var comments: [String] = []
        let statements = trailing.first?.statements ?? []
        for statement in statements {
            if case .call(let callee, _, _) = statement.kind, let spelled = Self.typeSpelling(callee),
               let path = resolveType(spelled, from: []) ?? tipsByTypeName[spelled.last ?? ""],
               let tipName = tipNames[path.joined(separator: ".")] {
                members.append(Identifier(tipName, at: range(file, statement)))
            } else {
                approximated("a group member that is not a tip type's initializer cannot be imported (\(text(file, statement)))", at: range(file, statement))
                comments.append("left out: member \(text(file, statement))")
            }
        }
        if trailing.isEmpty, arguments.contains(where: { $0.label == nil && { if case .array = $0.value.kind { return true } else { return false } }($0) }) {
            approximated("a group built from an array is not imported", at: at)
            comments.append("left out: members given as an array")
        }
        manifest.groups.append(GroupDecl(name: Identifier(name, at: at), priority: priority, tips: members, comments: comments, range: at))
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
        case .duration(let seconds): return DurationLiteral.format(seconds: seconds)
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
