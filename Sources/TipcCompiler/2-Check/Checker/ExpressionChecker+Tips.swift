import TipRuntime

/// The collections of a tip's records as the checker, lowering, reference evaluator and
/// lints see them: two pseudo-events after the program's events, so that every event
/// operator applies to them unchanged.
enum TipRecordCollections {
    static let displaysName = "tip(…).displays"
    static let invalidationsName = "tip(…).invalidations"

    /// `tip(X).displays` (no fields), then `tip(X).invalidations` (field `reason`).
    static let schemas = [
        PackEvent(name: displaysName),
        PackEvent(name: invalidationsName, fields: [PackField(name: "reason", type: .string)]),
    ]

    /// The collection index of `member` in a program with `eventCount` events.
    static func collection(_ member: TipStateQuery.Member, eventCount: Int) -> Int {
        member == .invalidations ? eventCount + 1 : eventCount
    }
}

extension ExpressionChecker {
    /// `tip(X).invalidated`, `tip(X).displays`, `tip(X).invalidations`, and `tip(X, key)` for
    /// an instance of a keyed tip.
    mutating func checkTipState(_ function: Identifier, _ arguments: [Expression], _ member: Identifier,
                                _ callRange: SourceRange, _ range: SourceRange, in scope: Scope) -> CheckedExpression {
        let members = ["invalidated", "displays", "invalidations"]
        guard let first = arguments.first, arguments.count <= 2 else {
            report(.typeMismatch, "'tip' takes a tip's name, and the key of an instance of a keyed tip", callRange,
                   help: "write 'tip(welcome)' or 'tip(newTrail, key)'")
            return invalid(range)
        }
        guard case .name(let name) = first.kind else {
            if case .error = first.kind { return invalid(range) }
            report(.typeMismatch, "'tip' takes a tip's name", first.range, help: "write 'tip(welcome)'")
            return invalid(range)
        }
        guard let tip = symbols.tip(name) else {
            report(.unknownTip, "no tip named '\(name)'", first.range,
                   help: Suggestions.closest(to: name, in: symbols.tipNames).map { "did you mean '\(NameSyntax.spelling(ofName: $0))'?" })
            return invalid(range)
        }
        var key: CheckedExpression?
        let declared = tip < tipKeys.count ? tipKeys[tip] : nil
        switch (declared, arguments.count) {
        case (nil, 2):
            report(.unexpectedTipKey, "tip '\(name)' has no key", arguments[1].range, help: "write 'tip(\(NameSyntax.spelling(ofName: name)))'")
            return invalid(range)
        case (let declared?, 1):
            report(.missingTipKey, "tip '\(name)' has a key: say which instance", callRange,
                   help: currentKey?.type == declared.type ? "write 'tip(\(name), key)'" : "write 'tip(\(name), \(declared.type == .int ? "42" : "\"id\""))'")
            return invalid(range)
        case (let declared?, _):
            let argument = arguments[1]
            let checked = check(argument, in: scope)
            if checked.type == .error { return invalid(range) }
            let isKey = checked.kind == .instanceKey
            var isConstant = false
            if case .constant = checked.kind { isConstant = true }
            guard isKey || isConstant else {
                report(.typeMismatch, "the key in 'tip(\(name), …)' must be 'key' or a literal", argument.range)
                return invalid(range)
            }
            guard checked.type == .value(declared.type) else {
                report(.typeMismatch, "tip '\(name)' has \(declared.type == .int ? "an Int" : "a String") key, found \(checked.type)", argument.range)
                return invalid(range)
            }
            key = checked
        default:
            break
        }
        guard let query = TipStateQuery.Member(rawValue: member.name) else {
            report(.typeMismatch, "tip(…) has no member '\(member.name)'", member.range,
                   help: Suggestions.closestOrExpanded(to: member.name, in: members).map { "did you mean '\($0)'?" }
                       ?? "members are \(members.joined(separator: ", "))")
            return invalid(range)
        }
        let type: ExpressionType = query == .invalidated
            ? .value(.bool) : .collection(event: TipRecordCollections.collection(query, eventCount: events.count - TipRecordCollections.schemas.count))
        return CheckedExpression(.tipState(TipStateQuery(tip: tip, member: query, key: key)), type: type, range: range)
    }
}
