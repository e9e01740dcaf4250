import TipRuntime

/// Decoding of the declarations of a manifest: parameters, events, tips and groups.
extension ManifestValueReader {
    /// The range of a whole declaration, from its name to the end of its value.
    func declarationRange(_ key: YAMLNode, _ value: YAMLNode) -> SourceRange {
        value.isTruncated || value.endOffset < key.endOffset ? key.range : key.range.union(value.range)
    }

    mutating func parameter(named key: YAMLNode, _ node: YAMLNode) -> ParameterDecl? {
        guard !node.isTruncated, let name = identifier(key, for: "a parameter") else { return nil }
        let what = "parameter '\(name.name)'"
        var parameter = ParameterDecl(name: name, type: nil, defaultValue: nil,
                                      comments: comments(above: key.range.start.line), range: declarationRange(key, node))
        var defaultNode: YAMLNode?
        for (attribute, pair) in entries(of: node, for: what, table: ParameterAttributes.self) {
            switch attribute.value {
            case .type:
                parameter.type = typeName(pair.value, for: "the type of \(what)")
                parameter.hasUnknownType = parameter.type == nil
            case .defaultValue:
                defaultNode = pair.value
            case .values:
                guard let items = sequence(pair.value, for: "the values of \(what)") else { continue }
                parameter.values = items.compactMap { item in
                    text(item, for: "a value of \(what)").map { Located($0.value, at: $0.range) }
                }
            case .flag(let path):
                parameter[keyPath: path] = bool(pair.value, for: "'\(attribute.key)' of \(what)")?.value ?? false
            }
        }
        if let defaultNode {
            parameter.defaultValue = defaultValue(defaultNode, type: parameter.type?.value, for: what)
        }
        return parameter
    }

    /// A default value: a plain scalar resolves by YAML's core schema (bool, int, float,
    /// else string), a quoted one is a string; a duration parameter's text is a duration.
    private mutating func defaultValue(_ node: YAMLNode, type: ValueType?, for what: String) -> Located<Literal>? {
        guard let scalar = scalar(node, expected: "a default value", for: "the default of \(what)") else { return nil }
        if scalar.style == .plain, ManifestScalars.integer(scalar.value) == .some(nil) {
            report(.invalidValue, "the integer '\(scalar.value)' for the default of \(what) is too large", at: node.range)
            return nil
        }
        guard let literal = ManifestScalars.literal(of: scalar) else { return nil }
        if type == .duration, case .string(let text) = literal {
            switch DurationText.seconds(of: text) {
            case .success(let seconds):
                return Located(.duration(seconds: seconds), at: node.range)
            case .failure(let failure):
                reportDurationFailure(failure, text: text, for: "the default of \(what)", at: node.range)
                return nil
            }
        }
        return Located(literal, at: node.range)
    }

    mutating func event(named key: YAMLNode, _ node: YAMLNode) -> EventDecl? {
        guard !node.isTruncated, let name = identifier(key, for: "an event") else { return nil }
        let what = "event '\(name.name)'"
        var event = EventDecl(name: name, comments: comments(above: key.range.start.line), range: declarationRange(key, node))
        for (attribute, pair) in entries(of: node, for: what, table: EventAttributes.self) {
            switch attribute.value {
            case .retention(let path):
                var limit = DonationLimitDecl()
                for (limitAttribute, limitPair) in entries(of: pair.value, for: "the donation limit of \(what)",
                                                           table: DonationLimitAttributes.self) {
                    switch limitAttribute.value {
                    case .count(let path): limit[keyPath: path] = count(limitPair.value, for: "'\(limitAttribute.key)'")
                    case .duration(let path): limit[keyPath: path] = duration(limitPair.value, for: "'\(limitAttribute.key)'")
                    }
                }
                event[keyPath: path] = limit
            case .payload:
                for (_, fieldPair) in entries(of: pair.value, for: "the \(attribute.key) of \(what)", allowed: nil) {
                    guard let fieldName = identifier(fieldPair.key, for: "a field of \(what)") else { continue }
                    var field = FieldDecl(name: fieldName, type: typeName(fieldPair.value, for: "field '\(fieldName.name)' of \(what)"))
                    field.hasUnknownType = field.type == nil
                    event.fields.append(field)
                }
            }
        }
        return event
    }

    mutating func tip(named key: YAMLNode, _ node: YAMLNode) -> TipDecl? {
        guard !node.isTruncated, let name = identifier(key, for: "a tip") else { return nil }
        var tip = TipDecl(name: name, comments: comments(above: key.range.start.line), range: declarationRange(key, node))
        readAttributes(of: node, into: &tip)
        return tip
    }

    /// Reads a tip's attributes into `tip`, each by its row's shape. Its own function, which
    /// fills in the tip through `inout`: written in `tip(named:_:)`, the optimizer copied the
    /// whole declaration once more before returning it.
    private mutating func readAttributes(of node: YAMLNode, into tip: inout TipDecl) {
        // How diagnostics name the tip: built only for one.
        let name = tip.name.name
        func what() -> String { "tip '\(name)'" }
        let pairs = mapping(node, for: what()) ?? .empty
        let lookup = TipAttributes.lookup
        for index in pairs.indices {
            let pair = pairs[index]
            guard let keyName = keyName(pair.key) else { continue }
            guard let shape = lookup.value(named: keyName) else {
                reportUnknownKey(keyName, of: pair, allowed: TipAttributes.keys, in: what())
                continue
            }
            let value = pair.value
            switch shape {
            case .text(let path): tip[keyPath: path] = localizedText(value, for: "the \(keyName) of \(what())")
            case .count(let path): tip[keyPath: path] = count(value, for: "'\(keyName)'")
            case .duration(let path): tip[keyPath: path] = duration(value, for: "'\(keyName)'")
            case .flag(let path): tip[keyPath: path] = bool(value, for: "'\(keyName)'")
            case .eventWindow(let path): tip[keyPath: path] = eventWindow(value, for: "'\(keyName)' of \(what())")
            case .placeholders: tip.placeholders = placeholders(value, for: what())
            case .image: tip.image = image(value, for: what())
            case .actions: tip.actions = actions(value, for: what())
            case .rules:
                if parsesRules { tip.rules = rules(value, for: what()) } else { tip.unparsedRules = unparsedRules(value, for: what()) }
            case .key: tip.key = tipKey(value, for: what())
            }
        }
    }

    /// `EVENT within DURATION` (`backyardFavorited within 7d`), the duration positive.
    mutating func eventWindow(_ node: YAMLNode, for what: @autoclosure () -> String) -> EventWindowDecl? {
        guard let scalar = scalar(node, expected: "EVENT within DURATION", for: what()) else { return nil }
        let words = scalar.value.split(separator: " ", omittingEmptySubsequences: true)
        guard words.count == 3, words[1] == "within" else {
            report(.invalidValue, "expected EVENT within DURATION for \(what()), found '\(scalar.value)'", at: node.range,
                   help: "write the event and the window, e.g. 'favorited within 7d'")
            return nil
        }
        let eventName = String(words[0]), durationText = String(words[2])
        guard NameSyntax.isValidName(eventName) else {
            report(.invalidValue, "'\(eventName)' in \(what()) is not an event name", at: node.range,
                   help: "a name is a letter or '_', then letters, digits, '_', '.' or '-'")
            return nil
        }
        switch DurationText.seconds(of: durationText) {
        case .success(let seconds) where seconds > 0:
            // A plain scalar on one line starts with the event's name: point at it alone.
            var eventRange = node.range
            if scalar.style == .plain, node.range.start.line == node.range.end.line {
                eventRange.end = node.range.start.movedRight(by: eventName.count)
            }
            return EventWindowDecl(event: Identifier(eventName, at: eventRange), windowSeconds: Located(seconds, at: node.range),
                                   range: node.range)
        case .success:
            report(.invalidDuration, "the window of \(what()) must be a positive duration, found '\(durationText)'", at: node.range)
        case .failure(let failure):
            reportDurationFailure(failure, text: durationText, for: "the window of \(what())", at: node.range)
        }
        return nil
    }

    /// A symbol name, or `{ asset: NAME }`.
    mutating func image(_ node: YAMLNode, for what: @autoclosure () -> String) -> Located<PackImage>? {
        if node.pairs != nil {
            var asset: Located<PackImage>?
            for (_, pair) in entries(of: node, for: "the image of \(what())", keys: ManifestKeys.Image.self) {
                asset = text(pair.value, for: "'asset'").map { Located(.asset($0.value), at: node.range) }
            }
            if asset == nil, !node.isTruncated, node.pairs?.isEmpty == true {
                report(.invalidValue, "expected 'asset: NAME' in the image of \(what())", at: node.range)
            }
            return asset
        }
        return text(node, for: "the image of \(what())").map { Located(.symbol($0.value), at: $0.range) }
    }

    mutating func actions(_ node: YAMLNode, for what: @autoclosure () -> String) -> [ActionDecl] {
        guard let items = sequence(node, for: "the actions of \(what())", help: "write each action as '- { id: ID, title: TEXT }'") else {
            return []
        }
        var actions: [ActionDecl] = []
        for item in items {
            var id: Identifier?
            var title: TextDecl?
            for (field, pair) in entries(of: item, for: "an action of \(what())", keys: ManifestKeys.Action.self) {
                if field == .id {
                    id = identifier(pair.value, for: "an action id")
                } else {
                    title = localizedText(pair.value, for: "the title of an action")
                }
            }
            if let id {
                actions.append(ActionDecl(id: id, title: title))
            } else if item.pairs != nil, !item.isTruncated, !(item.pairs ?? .empty).contains(where: { $0.key.scalarValue == "id" }) {
                report(.missingKey, "an action of \(what()) has no 'id'", at: item.range, help: "add 'id: NAME'")
            }
        }
        return actions
    }

    mutating func group(named key: YAMLNode, _ node: YAMLNode) -> GroupDecl? {
        guard !node.isTruncated, let name = identifier(key, for: "a group") else { return nil }
        let what = "group '\(name.name)'"
        var group = GroupDecl(name: name, priority: nil, tips: [], comments: comments(above: key.range.start.line),
                              range: declarationRange(key, node))
        for (attribute, pair) in entries(of: node, for: what, table: GroupAttributes.self) {
            switch attribute.value {
            case .priority:
                guard let scalar = scalar(pair.value, expected: "a priority", for: "the priority of \(what)") else { continue }
                if let priority = PackGroupPriority(spelling: scalar.value) {
                    group.priority = Located(priority, at: pair.value.range)
                } else {
                    let names = PackGroupPriority.allCases.map(\.spelling)
                    report(.invalidValue, "unknown group priority '\(scalar.value)'", at: pair.value.range,
                           help: Suggestions.didYouMean(scalar.value, in: names) ?? "use ordered or firstAvailable")
                }
            case .tips:
                let items = sequence(pair.value, for: "the tips of \(what)") ?? .empty
                group.tips = items.compactMap { identifier($0, for: "a tip of \(what)") }
            }
        }
        return group
    }
}
