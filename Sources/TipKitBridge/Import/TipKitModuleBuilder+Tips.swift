import TipRuntime
import TipcCompiler

/// The tips of a module: texts, image, actions, options and rules of each type conforming to `Tip`.
extension TipKitModuleBuilder {
    mutating func readTips() {
        for path in tipPaths {
            let name = tipNames[path.joined(separator: ".")] ?? path.joined(separator: ".")
            let members = members(of: path)
            let declaration = tipDeclarations[path.joined(separator: ".")]
            let nameRange = declaration.map { range($0.file, tokens: $0.type.nameToken, $0.type.nameToken + 1) } ?? manifest.headRange
            var tip = TipDecl(name: Identifier(name, at: nameRange), range: nameRange)
            // A member declared in several `#if` branches: the variant a release build compiles
            // (else the first) is read, the others are warned and left out.
            let keys = ["title", "message", "image", "actions", "options", "rules"]
            var chosen: [String: Member] = [:]
            for member in members where !member.property.isStatic && keys.contains(member.property.name) {
                let name = member.property.name
                if let current = chosen[name] {
                    if !isCompiledInRelease(current), isCompiledInRelease(member) { chosen[name] = member }
                } else {
                    chosen[name] = member
                }
            }
            for member in members where !member.property.isStatic && keys.contains(member.property.name) {
                let property = member.property
                guard let condition = property.conditionToken else { continue }
                let at = range(member.file, tokens: condition, condition + 1)
                if chosen[property.name]?.property.nameToken == property.nameToken, chosen[property.name]?.file == member.file {
                    approximated("'\(property.name)' is declared under \(conditionText(member.file, condition)); this variant is imported", at: at)
                } else {
                    approximated("'\(property.name)' has another variant under \(conditionText(member.file, condition)); it is left out", at: at)
                    tip.comments.append("left out: a variant of \(property.name) under \(conditionText(member.file, condition))")
                }
            }
            for key in keys {
                guard var member = chosen[key] else { continue }
                if member.property.initializer == nil, member.property.getter == nil,
                   let assigned = assignments[Self.key(member.property.owner, key)] ?? assignments[Self.key(path, key)] {
                    // `var title: Text` set by an initializer (`self.title = Text("…")`).
                    member.property.initializer = assigned.value
                    member.file = assigned.file
                }
                read(member.property, file: member.file, tipPath: path, into: &tip)
            }
            if tip.title == nil {
                // TipKit requires a title: a stand-in keeps the manifest valid, and the warning
                // points at what was missing.
                let at = chosen["title"].map { range($0.file, tokens: $0.property.nameToken, $0.property.nameToken + 1) } ?? nameRange
                approximated("the tip '\(name)' has no title the importer can read; the manifest holds its name as a stand-in", at: at)
                tip.comments.append("left out: the title (none readable in Swift; the tip's name stands in)")
                tip.title = TextDecl.verbatim(Located(name, at: at))
            }
            manifest.tips.append(tip)
        }
    }

    func isCompiledInRelease(_ member: Member) -> Bool {
        files[member.file].outline.isCompiledInRelease(member.property.nameToken)
    }

    func conditionText(_ file: Int, _ token: Int) -> String {
        let tokens = files[file].outline.tokens
        var end = token + 1
        while end < tokens.count, !tokens[end].startsLine { end += 1 }
        return text(file, SwiftExpression(kind: .unknown, start: token, end: end))
    }

    /// The items of a list member: an array (`[a, b]`, `return [a, b]`) or builder statements.
    func items(of property: SwiftOutline.Property) -> [SwiftExpression] {
        if let initializer = property.initializer {
            if case .array(let elements) = initializer.kind { return elements }
            return [initializer]
        }
        let statements = property.getter ?? []
        if statements.count == 1, case .array(let elements) = statements[0].kind { return elements }
        return statements
    }

    mutating func read(_ property: SwiftOutline.Property, file: Int, tipPath: [String], into tip: inout TipDecl) {
        switch property.name {
        case "title":
            if let value = singleValue(property) { tip.title = TextDecl.verbatim(text(of: value, file: file, member: "title", comments: &tip.comments)) }
        case "message":
            if let value = singleValue(property), !isNil(value) {
                tip.message = TextDecl.verbatim(text(of: value, file: file, member: "message", comments: &tip.comments))
            }
        case "image":
            if let value = singleValue(property), !isNil(value) { tip.image = image(of: value, file: file, comments: &tip.comments) }
        case "actions":
            for (number, item) in items(of: property).enumerated() {
                if let action = action(of: item, number: number + 1, file: file, tipPath: tipPath, comments: &tip.comments) { tip.actions.append(action) }
            }
        case "options":
            for item in items(of: property) { readOption(item, file: file, into: &tip) }
        case "rules":
            for item in items(of: property) {
                if let rule = rule(of: item, file: file, tipPath: tipPath, comments: &tip.comments) {
                    tip.rules.append(rule)
                }
            }
        default: break
        }
    }

    func isNil(_ expression: SwiftExpression) -> Bool {
        if case .identifier("nil") = expression.kind { return true }
        return false
    }

    /// The name of a call's callee, whatever qualifies it (`Tips.MaxDisplayCount` → `MaxDisplayCount`).
    static func calleeName(_ expression: SwiftExpression) -> (name: String, arguments: [SwiftExpression.Argument], trailing: [SwiftExpression.Closure])? {
        guard case .call(let callee, let arguments, let trailing) = expression.kind else { return nil }
        switch callee.kind {
        case .identifier(let name), .member(_, let name): return (name, arguments, trailing)
        default: return nil
        }
    }

    // MARK: - Texts and images

    /// The literal text of a `Text(…)` (or a string), approximated with a warning when it is not one.
    mutating func text(of expression: SwiftExpression, file: Int, member: String, comments: inout [String]) -> Located<String> {
        let at = range(file, expression)
        if let literal = literalText(expression) {
            if let problem = literal.problem {
                approximated("\(member): \(problem); the manifest holds the closest literal", at: at)
                comments.append("left out: \(problem) in \(member) \(text(file, expression))")
            }
            for key in literal.keys { comments.append("\(member): localization key \(key)") }
            return Located(literal.value, at: at)
        }
        let written = text(file, expression)
        approximated("\(member) is not a literal text (\(written)); the manifest holds its Swift source", at: at)
        comments.append("left out: \(member) built at run time: \(written)")
        return Located(written, at: at)
    }

    /// A text's literal value; what was lost when it is only close; the localization keys whose
    /// default values it holds.
    struct LiteralText {
        var value: String
        var problem: String?
        var keys: [String] = []
    }

    /// The text a literal, `Text(…)`, `String(localized:defaultValue:)`, `NSLocalizedString(_:value:comment:)`,
    /// `LocalizedStringResource(_:defaultValue:)`, `Text(.init("key"))` or `LocalizedStringKey(…)`
    /// shows: the default value where one is given (the key kept), else the key; nil when it is
    /// not one of those.
    func literalText(_ expression: SwiftExpression) -> LiteralText? {
        switch expression.kind {
        case .string(let value, let interpolated):
            return LiteralText(value: value, problem: interpolated ? "text built at run time (interpolation)" : nil)
        case .parenthesized(let inner):
            return literalText(inner)
        case .binary("+", let left, let right):
            guard let a = literalText(left), let b = literalText(right) else { return nil }
            return LiteralText(value: a.value + b.value, problem: a.problem ?? b.problem, keys: a.keys + b.keys)
        case .call(let callee, let arguments, _):
            switch callee.kind {
            case .identifier("Text"), .identifier("String"), .identifier("LocalizedStringKey"), .identifier("LocalizedStringResource"),
                 .identifier("NSLocalizedString"), .member(nil, "init"):
                guard let first = arguments.first, first.label == nil || first.label == "verbatim" || first.label == "localized",
                      let key = literalText(first.value) else { return nil }
                if let fallback = arguments.first(where: { $0.label == "defaultValue" || $0.label == "value" })?.value,
                   let value = literalText(fallback) {
                    return LiteralText(value: value.value, problem: key.problem ?? value.problem, keys: [key.value] + value.keys)
                }
                return key
            case .member(let base?, let modifier):
                // `Text("…").bold()`: the text, without its styling.
                guard var literal = literalText(base) else { return nil }
                literal.problem = literal.problem ?? "the modifier .\(modifier)()"
                return literal
            default:
                return nil
            }
        default:
            return nil
        }
    }

    mutating func image(of expression: SwiftExpression, file: Int, comments: inout [String]) -> Located<PackImage>? {
        let at = range(file, expression)
        guard case .call(let callee, let arguments, _) = expression.kind else {
            approximated("an image that is not Image(systemName:) or Image(\"name\") is not imported (\(text(file, expression)))", at: at)
            comments.append("left out: image \(text(file, expression))")
            return nil
        }
        if case .member(let base?, let modifier) = callee.kind {
            let inner = image(of: base, file: file, comments: &comments)
            if inner != nil {
                approximated("the image modifier .\(modifier)() is not imported", at: at)
                comments.append("left out: image modifier .\(modifier)()")
            }
            return inner
        }
        guard case .identifier("Image") = callee.kind, let first = arguments.first else {
            approximated("an image that is not Image(systemName:) or Image(\"name\") is not imported (\(text(file, expression)))", at: at)
            comments.append("left out: image \(text(file, expression))")
            return nil
        }
        switch (first.label, first.value.kind) {
        case ("systemName", .string(let name, false)): return Located(.symbol(name), at: at)
        case (nil, .string(let name, false)): return Located(.asset(name), at: at)
        case (nil, .member(nil, let name)): return Located(.asset(name), at: at)
        default:
            approximated("an image name that is not a literal is not imported (\(text(file, expression)))", at: at)
            comments.append("left out: image \(text(file, expression))")
            return nil
        }
    }

    // MARK: - Actions and options

    mutating func action(of expression: SwiftExpression, number: Int, file: Int, tipPath: [String], comments: inout [String]) -> ActionDecl? {
        let at = range(file, expression)
        guard let (name, arguments, trailing) = Self.calleeName(expression), name == "Action" else {
            approximated("an action that is not Action(…) is not imported (\(text(file, expression)))", at: at)
            comments.append("left out: action \(text(file, expression))")
            return nil
        }
        var title: Located<String>?
        if let value = arguments.first(where: { $0.label == "title" })?.value {
            title = text(of: value, file: file, member: "action title", comments: &comments)
        } else if let label = trailing.last?.statements.last ?? arguments.last(where: { $0.label == nil })?.value.closureResult {
            title = text(of: label, file: file, member: "action title", comments: &comments)
        }
        var identifier: Identifier
        if let id = arguments.first(where: { $0.label == "id" })?.value, let value = constantString(id, in: tipPath) {
            identifier = Identifier(manifestName(value, kind: "an action id", at: range(file, id)), at: range(file, id))
        } else {
            identifier = Identifier("action\(number)", at: at)
            approximated("an action without a literal id cannot be invalidated by id; it is imported as 'action\(number)'", at: at)
            comments.append("left out: the id of action \(number) (none in Swift, imported as action\(number))")
        }
        return ActionDecl(id: identifier, title: title.map(TextDecl.verbatim))
    }

    mutating func readOption(_ expression: SwiftExpression, file: Int, into tip: inout TipDecl) {
        let at = range(file, expression)
        guard let (name, arguments, _) = Self.calleeName(expression), let value = arguments.first?.value else {
            approximated("an option that is not a TipKit option literal is not imported (\(text(file, expression)))", at: at)
            tip.comments.append("left out: option \(text(file, expression))")
            return
        }
        func notImported() {
            approximated("an option that is not a TipKit option literal is not imported (\(text(file, expression)))", at: at)
            tip.comments.append("left out: option \(text(file, expression))")
        }
        guard let attribute = TipAttributes.attribute(tipKitOption: name) else { return notImported() }
        switch (attribute.value, value.kind) {
        case (.count(let path), .integer(let count?)):
            tip[keyPath: path] = Located(count, at: at)
        case (.flag(let path), .identifier(let flag)) where flag == "true" || flag == "false":
            tip[keyPath: path] = Located(flag == "true", at: at)
        case (.duration(let path), _):
            guard let seconds = TipKitRuleTranslator.constant(value), seconds >= 0, seconds < 1e15 else { return notImported() }
            tip[keyPath: path] = Located(Int(seconds.rounded(.up)), at: at)
            if seconds != seconds.rounded(.up) {
                approximated("the display duration \(seconds) s is rounded up to whole seconds", at: at)  // TipKit's only duration option
                tip.comments.append("left out: the fraction of a second of \(text(file, expression))")
            }
        default:
            notImported()
        }
    }

    // MARK: - Rules

    mutating func rule(of expression: SwiftExpression, file: Int, tipPath: [String], comments: inout [String]) -> Expression? {
        let at = range(file, expression)
        guard case .macro("Rule", let arguments, let trailing) = expression.kind, let subject = arguments.first?.value,
              let closure = trailing.first ?? arguments.dropFirst().first?.value.closure else {
            approximated("a rule that is not #Rule(…) { … } is not imported (\(text(file, expression)))", at: at)
            comments.append("left out: rule \(text(file, expression))")
            return nil
        }
        var translator = TipKitRuleTranslator(builder: self, file: file, tipPath: tipPath)
        do {
            return try translator.rule(subject: subject, closure: closure)
        } catch {
            approximated("rule not imported: \(error.reason)", at: error.range)
            comments.append("left out: rule \(text(file, expression)) (\(error.reason))")
            return nil
        }
    }
}

extension SwiftExpression {
    /// The closure's last statement, when this is a closure.
    var closureResult: SwiftExpression? { closure?.statements.last }

    var closure: Closure? {
        if case .closure(let closure) = kind { return closure }
        return nil
    }
}
