import TipRuntime

/// Reads a timeline file (YAML) into a `Timeline`, reporting every problem with its position.
public enum TimelineDecoder {
    public static func decode(_ file: SourceFile, diagnostics: inout [Diagnostic]) -> Timeline? {
        guard let root = YAMLReader.read(file, diagnostics: &diagnostics) else { return nil }
        var reader = Reader(diagnostics: [])
        let timeline = reader.timeline(root)
        diagnostics += reader.diagnostics
        return reader.diagnostics.contains { $0.severity == .error } ? nil : timeline
    }

    private struct Reader {
        var diagnostics: [Diagnostic]

        mutating func error(_ code: DiagnosticCode, _ message: String, _ range: SourceRange, help: String? = nil) {
            diagnostics.append(Diagnostic(code, message, at: range, help: help))
        }

        /// The pairs of a mapping, reporting unknown keys.
        mutating func pairs(_ node: YAMLNode, _ what: String, allowed: [String]) -> [(key: String, pair: YAMLPair)] {
            guard let pairs = node.pairs else {
                error(.invalidValue, "\(what) must be a mapping, found \(node.kindDescription)", node.range)
                return []
            }
            var result: [(String, YAMLPair)] = []
            for pair in pairs {
                let key = pair.key.scalar?.value ?? ""
                guard allowed.contains(key) else {
                    error(.unknownKey, "unknown key '\(key)' in \(what)", pair.key.range,
                          help: Suggestions.didYouMean(key, in: allowed) ?? "keys: \(allowed.joined(separator: ", "))")
                    continue
                }
                result.append((key, pair))
            }
            return result
        }

        mutating func text(_ node: YAMLNode, _ what: String) -> Located<String>? {
            guard let scalar = node.scalar, !scalar.isNull || scalar.style != .plain else {
                error(.invalidValue, "\(what) must be a text, found \(node.kindDescription)", node.range)
                return nil
            }
            return Located(scalar.value, at: node.range)
        }

        mutating func timeline(_ root: YAMLNode) -> Timeline? {
            var start: Int64?
            var unit: String?
            var steps: [TimelineStep] = []
            var stepNodes: [YAMLNode] = []
            for (key, pair) in pairs(root, "the timeline", allowed: ["start", "unit", "steps"]) {
                switch key {
                case "unit":
                    guard let text = text(pair.value, "unit") else { continue }
                    guard !text.value.isEmpty else {
                        error(.invalidValue, "'unit' cannot be empty", text.range, help: "name the simulated user, e.g. 'unit: user-1'")
                        continue
                    }
                    unit = text.value
                case "start":
                    guard let text = text(pair.value, "start") else { continue }
                    guard let instant = ISO8601.milliseconds(from: text.value) else {
                        error(.invalidValue, "'\(text.value)' is not an ISO-8601 instant", text.range, help: "write e.g. 2026-03-01T09:00:00Z")
                        continue
                    }
                    start = Int64(instant)
                default:
                    guard let items = pair.value.items else {
                        error(.invalidValue, "steps must be a list", pair.value.range)
                        continue
                    }
                    stepNodes = Array(items)
                }
            }
            guard let start else {
                error(.missingKey, "the timeline has no 'start'", root.range, help: "add e.g. 'start: 2026-03-01T09:00:00Z'")
                return nil
            }
            var previous = start
            for node in stepNodes {
                guard let step = step(node, start: start) else { continue }
                if step.at < previous {
                    error(.invalidValue, "time goes back: this step is before the one above it", step.range,
                          help: "steps run in order; give each an 'at' no earlier than the last")
                    continue
                }
                previous = step.at
                steps.append(step)
            }
            return Timeline(start: start, steps: steps, unit: unit)
        }

        mutating func step(_ node: YAMLNode, start: Int64) -> TimelineStep? {
            var at: Int64?
            var hasAt = false
            var actions: [TimelineAction] = []
            for (key, pair) in pairs(node, "a step", allowed: ["at", "set", "donate", "show", "invalidate", "reset", "action", "expect", "deleteDonations"]) {
                let value = pair.value
                switch key {
                case "at":
                    hasAt = true
                    at = instant(value, start: start)
                case "set":
                    var assignments: [(Located<String>, TimelineValue)] = []
                    for item in value.pairs ?? .empty {
                        guard let name = text(item.key, "a parameter name"), let scalar = item.value.scalar else {
                            error(.invalidValue, "a parameter's value must be a scalar", item.value.range)
                            continue
                        }
                        assignments.append((name, TimelineValue(text: scalar.value, range: item.value.range)))
                    }
                    if value.pairs == nil { error(.invalidValue, "set takes a mapping of parameters to values", value.range) }
                    actions.append(.set(assignments))
                case "donate":
                    let items = value.items.map { Array($0) } ?? [value]
                    actions.append(.donate(items.compactMap { donation($0) }))
                case "show":
                    let items = value.items.map { Array($0) } ?? [value]
                    actions.append(.show(items.compactMap { show($0) }))
                case "invalidate":
                    var tip: Located<String>?
                    var reason: Located<String>?
                    for (field, item) in pairs(value, "invalidate", allowed: ["tip", "reason"]) {
                        if field == "tip" { tip = text(item.value, "tip") } else { reason = text(item.value, "reason") }
                    }
                    if let reason, InvalidationReason(rawValue: reason.value) == nil {
                        error(.invalidValue, "unknown invalidation reason '\(reason.value)'", reason.range,
                              help: Suggestions.didYouMean(reason.value, in: InvalidationReason.allCases.map(\.rawValue)))
                    }
                    guard let tip else {
                        error(.missingKey, "invalidate needs a 'tip'", value.range)
                        continue
                    }
                    actions.append(.invalidate(tip: tip, reason: reason ?? Located(InvalidationReason.actionPerformed.rawValue, at: tip.range)))
                case "reset":
                    if let tip = text(value, "reset") { actions.append(.reset(tip: tip)) }
                case "action":
                    var tip: Located<String>?
                    var id: Located<String>?
                    for (field, item) in pairs(value, "action", allowed: ["tip", "id"]) {
                        if field == "tip" { tip = text(item.value, "tip") } else { id = text(item.value, "id") }
                    }
                    guard let tip, let id else {
                        error(.missingKey, "action needs a 'tip' and an 'id' (the action's id)", value.range,
                              help: "write e.g. 'action: { tip: favoriteBackyard, id: favorite }'")
                        continue
                    }
                    actions.append(.action(tip: tip, id: id))
                case "deleteDonations":
                    let items = value.items.map { Array($0) } ?? [value]
                    for item in items {
                        if let event = text(item, "an event") { actions.append(.deleteDonations(event: event)) }
                    }
                default:
                    actions.append(.expect(expectations(value)))
                }
            }
            guard let at else {
                // An 'at' that is there but wrong has been reported already.
                if !hasAt { error(.missingKey, "a step needs 'at'", node.range, help: "write an offset from start (+1h) or an instant") }
                return nil
            }
            return TimelineStep(at: at, actions: actions, range: node.range)
        }

        /// `+1d2h` from `start`, or an absolute instant.
        mutating func instant(_ node: YAMLNode, start: Int64) -> Int64? {
            guard let text = text(node, "at") else { return nil }
            if text.value.hasPrefix("+") {
                // Refused, never wrapped: the offset in milliseconds, and the instant it names, must
                // be Int64 milliseconds.
                switch DurationText.milliseconds(of: String(text.value.dropFirst()), allowsNegative: false) {
                case .success(let milliseconds):
                    let (instant, overflow) = start.addingReportingOverflow(milliseconds)
                    guard !overflow else {
                        error(.invalidDuration, "the offset '\(text.value)' from start is too large", text.range,
                              help: "the step would be after \(ISO8601.string(fromMilliseconds: Int(Int64.max))), the last instant tipc can represent")
                        return nil
                    }
                    return instant
                case .failure(.overflow):
                    error(.invalidDuration, "the offset '\(text.value)' is too large", text.range,
                          help: "an offset in milliseconds must fit in 64 bits (at most about 292 million years)")
                    return nil
                case .failure(let failure):
                    error(.invalidDuration, failure.message + " in '\(text.value)'", text.range, help: failure.help)
                    return nil
                }
            }
            guard let instant = ISO8601.milliseconds(from: text.value) else {
                var offset = false
                if case .success = DurationText.milliseconds(of: text.value, allowsNegative: false) { offset = true }
                error(.invalidValue, "'\(text.value)' is neither an offset (+1h) nor an ISO-8601 instant", text.range,
                      help: offset ? "an offset starts with '+': did you mean '+\(text.value)'?" : nil)
                return nil
            }
            return Int64(instant)
        }

        mutating func donation(_ node: YAMLNode) -> TimelineDonation? {
            if node.scalar != nil {
                return text(node, "an event").map { TimelineDonation(event: $0, value: []) }
            }
            var event: Located<String>?
            var values: [(String, TimelineValue)] = []
            for (key, pair) in pairs(node, "a donation", allowed: ["event", "value"]) {
                if key == "event" {
                    event = text(pair.value, "event")
                } else {
                    for item in pair.value.pairs ?? .empty {
                        guard let name = item.key.scalar?.value, let scalar = item.value.scalar else {
                            error(.invalidValue, "a payload field's value must be a scalar", item.value.range)
                            continue
                        }
                        values.append((name, TimelineValue(text: scalar.value, range: item.value.range)))
                    }
                }
            }
            guard let event else {
                error(.missingKey, "a donation needs an 'event'", node.range)
                return nil
            }
            return TimelineDonation(event: event, value: values)
        }

        mutating func show(_ node: YAMLNode) -> TimelineShow? {
            if node.scalar != nil { return text(node, "a tip").map { TimelineShow(tip: $0) } }
            var tip: Located<String>?
            var duration: Int?
            for (key, pair) in pairs(node, "a shown tip", allowed: ["tip", "for"]) {
                if key == "tip" {
                    tip = text(pair.value, "tip")
                } else if let text = text(pair.value, "for") {
                    switch DurationText.milliseconds(of: text.value, allowsNegative: false) {
                    case .success(let milliseconds):
                        duration = Int(milliseconds)
                    case .failure(.overflow):
                        error(.invalidDuration, "the duration '\(text.value)' is too large", text.range,
                              help: "a time on screen in milliseconds must fit in 64 bits (at most about 292 million years)")
                    case .failure(let failure): error(.invalidDuration, failure.message, text.range, help: failure.help)
                    }
                }
            }
            guard let tip else {
                error(.missingKey, "a shown item needs a 'tip'", node.range)
                return nil
            }
            return TimelineShow(tip: tip, durationMilliseconds: duration)
        }

        mutating func expectations(_ node: YAMLNode) -> [TimelineExpectation] {
            var result: [TimelineExpectation] = []
            for pair in node.pairs ?? .empty {
                guard let tip = text(pair.key, "a tip name") else { continue }
                var expectation = TimelineExpectation(tip: tip)
                if let scalar = pair.value.scalar {
                    expectation.status = statusPattern(scalar.value, pair.value.range)
                } else {
                    let fields = pairs(pair.value, "an expectation", allowed: ["status", "shouldDisplay", "displayCount", "currentTip"])
                    if fields.contains(where: { $0.key == "currentTip" }), let other = fields.first(where: { $0.key != "currentTip" }) {
                        error(.invalidValue, "'currentTip' is expected of a group, '\(other.key)' of a tip: they cannot share one name",
                              other.pair.key.range, help: "write '\(tip.value): { currentTip: … }' for a group, and expect the tip under its own name")
                        continue
                    }
                    for (key, item) in fields {
                        guard let scalar = item.value.scalar else {
                            error(.invalidValue, "'\(key)' must be a scalar", item.value.range)
                            continue
                        }
                        switch key {
                        case "currentTip":
                            expectation.currentTip = Located(scalar.isNull ? nil : scalar.value, at: item.value.range)
                        case "status": expectation.status = statusPattern(scalar.value, item.value.range)
                        case "shouldDisplay":
                            guard let flag = Bool(scalar.value) else {
                                error(.invalidValue, "shouldDisplay must be true or false", item.value.range)
                                continue
                            }
                            expectation.shouldDisplay = Located(flag, at: item.value.range)
                        default:
                            guard let count = Int(scalar.value), count >= 0 else {
                                error(.invalidValue, "displayCount must be a whole number", item.value.range)
                                continue
                            }
                            expectation.displayCount = Located(count, at: item.value.range)
                        }
                    }
                }
                result.append(expectation)
            }
            if node.pairs == nil { error(.invalidValue, "expect takes a mapping of tips to expectations", node.range) }
            return result
        }

        mutating func statusPattern(_ text: String, _ range: SourceRange) -> Located<TimelineExpectation.StatusPattern>? {
            switch text {
            case "pending": return Located(.pending, at: range)
            case "available": return Located(.available, at: range)
            case "invalidated": return Located(.invalidated(reason: nil), at: range)
            default:
                if text.hasPrefix("invalidated("), text.hasSuffix(")") {
                    let reason = String(text.dropFirst(12).dropLast())
                    if InvalidationReason(rawValue: reason) != nil { return Located(.invalidated(reason: reason), at: range) }
                    error(.invalidValue, "unknown invalidation reason '\(reason)'", range,
                          help: Suggestions.didYouMean(reason, in: InvalidationReason.allCases.map(\.rawValue)))
                    return nil
                }
                error(.invalidValue, "unknown status '\(text)'", range,
                      help: Suggestions.didYouMean(text, in: ["pending", "available", "invalidated"])
                          ?? "write pending, available, invalidated or invalidated(REASON)")
                return nil
            }
        }
    }
}

extension TimelineExpectation {
    init(tip: Located<String>) {
        self.init(tip: tip, status: nil, shouldDisplay: nil, displayCount: nil, currentTip: nil)
    }
}
