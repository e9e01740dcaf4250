import TipcCompiler
import TipRuntime

/// One line saying why a tip is not displayed now, from its explanation.
enum DisplayReason {
    static func whyNot(_ explanation: TipExplanation) -> String {
        if explanation.override == false { return "hidden by a testing override" }
        switch explanation.status {
        case .invalidated(let reason): return "invalidated (\(reason.rawValue))"
        case .pending:
            if let rule = explanation.rules.first(where: { !$0.outcome.holds }) {
                if case .failed(let failure, _) = rule.outcome { return "pending: rule \(rule.index + 1) failed (\(failure))" }
                return "pending: rule \(rule.index + 1) does not hold"
            }
            return "pending"
        case .available: break
        }
        if let opens = explanation.frequencyGateOpens {
            return "display frequency: no new tip before \(ISO8601.string(fromMilliseconds: Int(opens)))"
        }
        if let group = explanation.group {
            if let offered = group.offered { return "group '\(group.name)' offers '\(offered)' first" }
            return "group '\(group.name)' offers no tip now"
        }
        return "not displayed"
    }
}
