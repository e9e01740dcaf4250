/// How `X within D` windows an event query of `X`: a query whose chain has no `.within` of its
/// own gets the window at its base (`e.largestSubset(f).count >= 3 within 5d` looks for the
/// largest group among the donations of the last five days).
///
/// The expression checker applies it to each query the clause consumes, as the query is built.
enum WindowPushdown {
    /// `collection` (an event query) with `window` directly above the event at its base, and
    /// `applied` set; unchanged when the query already has a `.within` along its chain.
    static func apply(_ window: Int, to collection: consuming CheckedExpression, applied: inout Bool) -> CheckedExpression {
        if hasOwnWindow(collection) { return collection }
        applied = true
        return windowBase(collection, window)
    }

    /// Whether a collection query has a `.within` anywhere along its chain.
    private static func hasOwnWindow(_ collection: borrowing CheckedExpression) -> Bool {
        switch collection.kind {
        case .within: return true
        case .filter(let base, _), .largestSubset(let base, _), .smallestSubset(let base, _): return hasOwnWindow(base)
        default: return false
        }
    }

    /// Inserts the window directly above the event at the chain's base.
    private static func windowBase(_ collection: consuming CheckedExpression, _ window: Int) -> CheckedExpression {
        var result = collection
        switch result.kind {
        case .event, .tipState:
            // Type and range are read first, so that the node moves into the window unread.
            let (type, range) = (result.type, result.range)
            return CheckedExpression(.within(result, windowMilliseconds: window), type: type, range: range)
        case .filter(let base, let predicate): result.kind = .filter(windowBase(base, window), predicate: predicate)
        case .largestSubset(let base, let field): result.kind = .largestSubset(windowBase(base, window), field: field)
        case .smallestSubset(let base, let field): result.kind = .smallestSubset(windowBase(base, window), field: field)
        default: break
        }
        return result
    }
}
