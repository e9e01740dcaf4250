/// Rewrites `X within D`: every event in `X` whose query has no `.within` of its own gets the
/// window at its base (`e.largestSubset(f).count >= 3 within 5d` looks for the largest group
/// among the donations of the last five days).
enum WindowPushdown {
    struct Result {
        var expression: CheckedExpression
        /// False when no event in the clause was windowed (the clause would mean nothing).
        var appliedToAnyEvent: Bool
    }

    static func apply(_ milliseconds: Int, to expression: CheckedExpression) -> Result {
        var applied = false
        let rewritten = rewrite(expression, milliseconds, &applied)
        return Result(expression: rewritten, appliedToAnyEvent: applied)
    }

    private static func rewrite(_ e: CheckedExpression, _ window: Int, _ applied: inout Bool) -> CheckedExpression {
        if case .collection = e.type {
            if hasOwnWindow(e) { return e }
            applied = true
            return windowBase(e, window)
        }
        var result = e
        switch e.kind {
        case .constant, .now, .parameter, .field, .event, .within, .filter, .largestSubset, .smallestSubset:
            return e
        case .count(let c): result.kind = .count(rewrite(c, window, &applied))
        case .distinct(let c, let field): result.kind = .distinct(rewrite(c, window, &applied), field: field)
        case .not(let x): result.kind = .not(rewrite(x, window, &applied))
        case .negate(let x): result.kind = .negate(rewrite(x, window, &applied))
        case .intToDouble(let x): result.kind = .intToDouble(rewrite(x, window, &applied))
        case .logical(let op, let l, let r): result.kind = .logical(op, rewrite(l, window, &applied), rewrite(r, window, &applied))
        case .compare(let op, let l, let r): result.kind = .compare(op, rewrite(l, window, &applied), rewrite(r, window, &applied))
        case .arithmetic(let op, let l, let r): result.kind = .arithmetic(op, rewrite(l, window, &applied), rewrite(r, window, &applied))
        case .inList(let x, let items): result.kind = .inList(rewrite(x, window, &applied), items)
        }
        return result
    }

    /// Whether a collection query has a `.within` anywhere along its chain.
    private static func hasOwnWindow(_ collection: CheckedExpression) -> Bool {
        switch collection.kind {
        case .within: return true
        case .filter(let base, _), .largestSubset(let base, _), .smallestSubset(let base, _): return hasOwnWindow(base)
        default: return false
        }
    }

    /// Inserts the window directly above the event at the chain's base.
    private static func windowBase(_ collection: CheckedExpression, _ window: Int) -> CheckedExpression {
        var result = collection
        switch collection.kind {
        case .event:
            return CheckedExpression(.within(collection, windowMilliseconds: window), type: collection.type, range: collection.range)
        case .filter(let base, let predicate): result.kind = .filter(windowBase(base, window), predicate: predicate)
        case .largestSubset(let base, let field): result.kind = .largestSubset(windowBase(base, window), field: field)
        case .smallestSubset(let base, let field): result.kind = .smallestSubset(windowBase(base, window), field: field)
        default: break
        }
        return result
    }
}
