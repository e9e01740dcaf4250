import TipcCompiler

/// A name a program declares, as rename and navigation see it: names of one kind share a
/// namespace (payload fields per event, placeholders per tip).
struct ProgramSymbol: Hashable {
    enum Kind: Hashable {
        case parameter, event, tip, group, experiment
        case field(event: String)
        case placeholder(tip: String)
    }

    var kind: Kind
    var name: String

    /// How hover and messages call the kind.
    var kindName: String {
        switch kind {
        case .parameter: return "parameter"
        case .event: return "event"
        case .tip: return "tip"
        case .group: return "group"
        case .experiment: return "experiment"
        case .field(let event): return "payload field of '\(event)'"
        case .placeholder(let tip): return "placeholder of '\(tip)'"
        }
    }
}

/// One place a name is written.
struct NameOccurrence {
    var symbol: ProgramSymbol
    var file: String
    /// Exactly the name's characters when `isExact` (else the whole construct that names it,
    /// as the Swift importer places some names).
    var start: SourceLocation
    var end: SourceLocation
    var isDeclaration: Bool
    /// Whether the text at `range` is the name itself (a rename may replace it).
    var isExact: Bool

    var range: SourceRange { SourceRange(file: file, start: start, end: end) }
}

/// Every declaration of a program and every place a name is written, across its files: what
/// go to definition, find references, rename, hover and completion read.
struct NameIndex {
    private(set) var occurrences: [NameOccurrence] = []
    private(set) var parameters: [String: ParameterDecl] = [:]
    private(set) var events: [String: EventDecl] = [:]
    private(set) var tips: [String: TipDecl] = [:]
    private(set) var groups: [String: GroupDecl] = [:]
    /// Declaration order of each kind, for completion.
    private(set) var parameterNames: [String] = []
    private(set) var eventNames: [String] = []
    private(set) var tipNames: [String] = []
    private(set) var locales: [String] = []
    private let sources: [String: SourceFile]

    /// The file whose names are being indexed, when all its ranges are in it (YAML, `.tips`;
    /// the Swift importer's one file holds ranges in every Swift file of the module).
    private var current: (path: String, source: SourceFile?)?

    init(files: [ManifestFile], sources: [String: SourceFile]) {
        self.sources = sources
        var localeSet = Set<String>()
        for file in files {
            current = SourceDiscovery.isSwift(file.path) ? nil : (file.path, sources[file.path])
            if let locale = file.defaultLocale?.value { localeSet.insert(locale) }
            for parameter in file.parameters {
                if parameters[parameter.name.name] == nil { parameterNames.append(parameter.name.name) }
                parameters[parameter.name.name] = parameters[parameter.name.name] ?? parameter
                add(.init(kind: .parameter, name: parameter.name.name), parameter.name.range, declaration: true)
            }
            for event in file.events {
                if events[event.name.name] == nil { eventNames.append(event.name.name) }
                events[event.name.name] = events[event.name.name] ?? event
                add(.init(kind: .event, name: event.name.name), event.name.range, declaration: true)
                for field in event.fields {
                    add(.init(kind: .field(event: event.name.name), name: field.name.name), field.name.range, declaration: true)
                }
            }
            for group in file.groups {
                groups[group.name.name] = groups[group.name.name] ?? group
                add(.init(kind: .group, name: group.name.name), group.name.range, declaration: true)
                for tip in group.tips { add(.init(kind: .tip, name: tip.name), tip.range, declaration: false) }
            }
        }
        for file in files {
            current = SourceDiscovery.isSwift(file.path) ? nil : (file.path, sources[file.path])
            for tip in file.tips {
                if tips[tip.name.name] == nil { tipNames.append(tip.name.name) }
                tips[tip.name.name] = tips[tip.name.name] ?? tip
                add(.init(kind: .tip, name: tip.name.name), tip.name.range, declaration: true)
                for placeholder in tip.placeholders {
                    add(.init(kind: .placeholder(tip: tip.name.name), name: placeholder.name.name), placeholder.name.range, declaration: true)
                }
                addTexts([tip.title, tip.message].compactMap({ $0 }) + tip.actions.compactMap(\.title), ofTip: tip.name.name,
                         locales: &localeSet)
                if let goal = tip.goal { add(.init(kind: .event, name: goal.event.name), goal.event.range, declaration: false) }
                for rule in tip.rules { walk(rule, predicateOf: nil, keyName: tip.key?.name.name) }
            }
            for experiment in file.experiments {
                add(.init(kind: .experiment, name: experiment.name.name), experiment.name.range, declaration: true)
                if let tip = experiment.tip { add(.init(kind: .tip, name: tip.name), tip.range, declaration: false) }
                if let goal = experiment.goal { add(.init(kind: .event, name: goal.event.name), goal.event.range, declaration: false) }
                guard let tip = experiment.tip?.name else { continue }
                for arm in experiment.arms {
                    addTexts([arm.title, arm.message].compactMap({ $0 }) + (arm.actions ?? []).compactMap(\.title), ofTip: tip,
                             locales: &localeSet)
                }
            }
        }
        locales = localeSet.sorted()
    }

    /// The parameters and placeholders a tip's texts (or an experiment arm's texts for the tip) read.
    private mutating func addTexts(_ texts: [TextDecl], ofTip tip: String, locales: inout Set<String>) {
        for text in texts {
            for variant in text.variants {
                if let locale = variant.locale?.value { locales.insert(locale) }
                for piece in variant.template {
                    switch piece.kind {
                    case .parameter(let name): add(.init(kind: .parameter, name: name), piece.range, declaration: false)
                    case .placeholder(let name): add(.init(kind: .placeholder(tip: tip), name: name), piece.range, declaration: false)
                    case .literal: break
                    }
                }
            }
        }
    }

    /// Records an occurrence, narrowing `range` to the name's own characters when the text
    /// there holds it (`$name`, `{$name}`, a quoted key).
    private mutating func add(_ symbol: ProgramSymbol, _ range: SourceRange, declaration: Bool) {
        let path = current?.path ?? range.file
        guard let source = current.map({ $0.source }) ?? sources[path] else {
            occurrences.append(NameOccurrence(symbol: symbol, file: path, start: range.start, end: range.end, isDeclaration: declaration, isExact: false))
            return
        }
        let start = source.offset(of: range.start)
        let end = source.offset(of: range.end)
        let text = source.bytes[start..<max(start, end)]
        let name = Array(symbol.name.utf8)
        var found: Int?
        if text.count >= name.count, !name.isEmpty {
            var index = text.endIndex - name.count
            while index >= text.startIndex {
                if text[index..<(index + name.count)].elementsEqual(name), Self.isBoundary(source.bytes, index - 1),
                   Self.isBoundary(source.bytes, index + name.count) {
                    found = index
                    break
                }
                index -= 1
            }
        }
        guard let found else {
            occurrences.append(NameOccurrence(symbol: symbol, file: path, start: range.start, end: range.end, isDeclaration: declaration, isExact: false))
            return
        }
        occurrences.append(NameOccurrence(symbol: symbol, file: path, start: source.location(atUTF8Offset: found),
                                          end: source.location(atUTF8Offset: found + name.count), isDeclaration: declaration, isExact: true))
    }

    /// Whether the byte at `index` cannot continue a name (or is outside the text).
    private static func isBoundary(_ bytes: [UInt8], _ index: Int) -> Bool {
        guard index >= 0, index < bytes.count else { return true }
        let byte = bytes[index]
        return !(byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || (byte >= 0x30 && byte <= 0x39)
            || (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || byte >= 0x80)
    }

    /// The event a collection expression counts (`e`, `e.within(3d).where(…)`), if any.
    private static func event(of expression: Expression) -> String? {
        switch expression.kind {
        case .name(let name): return name
        case .methodCall(let base, _, _), .member(let base, _): return event(of: base)
        default: return nil
        }
    }

    private mutating func walk(_ expression: Expression, predicateOf event: String?, keyName: String?) {
        switch expression.kind {
        case .parameter(let name): add(.init(kind: .parameter, name: name), expression.range, declaration: false)
        case .name(let name):
            if let event {
                if name != keyName { add(.init(kind: .field(event: event), name: name), expression.range, declaration: false) }
            } else {
                add(.init(kind: .event, name: name), expression.range, declaration: false)
            }
        case .member(let base, _): walk(base, predicateOf: event, keyName: keyName)
        case .methodCall(let base, let method, let arguments):
            walk(base, predicateOf: event, keyName: keyName)
            let counted = Self.event(of: base)
            for argument in arguments {
                switch method.name {
                case "where": walk(argument, predicateOf: counted, keyName: keyName)
                case "distinct", "largestSubset", "smallestSubset":
                    if case .name(let field) = argument.kind, let counted {
                        add(.init(kind: .field(event: counted), name: field), argument.range, declaration: false)
                    } else {
                        walk(argument, predicateOf: event, keyName: keyName)
                    }
                default: walk(argument, predicateOf: event, keyName: keyName)
                }
            }
        case .functionCall(let function, let arguments):
            for (position, argument) in arguments.enumerated() {
                if function.name == "tip", position == 0, case .name(let tip) = argument.kind {
                    add(.init(kind: .tip, name: tip), argument.range, declaration: false)
                } else {
                    walk(argument, predicateOf: event, keyName: keyName)
                }
            }
        case .unary(_, let operand): walk(operand, predicateOf: event, keyName: keyName)
        case .binary(_, let left, let right), .within(let left, let right):
            walk(left, predicateOf: event, keyName: keyName)
            walk(right, predicateOf: event, keyName: keyName)
        case .inList(let value, let items):
            walk(value, predicateOf: event, keyName: keyName)
            for item in items { walk(item, predicateOf: event, keyName: keyName) }
        case .literal, .now, .error: break
        }
    }

    /// The occurrence whose name covers `location` in `file` (its end included, where a cursor
    /// just after a name stands).
    func occurrence(at location: SourceLocation, in file: String) -> NameOccurrence? {
        occurrences.first { $0.start <= location && location <= $0.end && $0.file == file }
    }

    /// Every occurrence of `symbol`, declarations first.
    func occurrences(of symbol: ProgramSymbol) -> [NameOccurrence] {
        occurrences.filter { $0.symbol == symbol }.sorted { $0.isDeclaration && !$1.isDeclaration }
    }

    /// Where `symbol` is declared.
    func declarations(of symbol: ProgramSymbol) -> [NameOccurrence] {
        occurrences.filter { $0.symbol == symbol && $0.isDeclaration }
    }

    /// The fields of an event's payload.
    func fields(of event: String) -> [FieldDecl] { events[event]?.fields ?? [] }
}
