/// What the tip service answers for one tip (instance) now: its status, its display decision,
/// the user's arm when the tip is in an experiment, and why it is not displayed.
package struct TipDecision: Sendable, Hashable {
    package var status: TipStatus
    package var shouldDisplay: Bool
    /// The user's arm in the tip's experiment (nil: the tip is in none).
    package var arm: TipExperimentArm?
    /// `TipExplanation.reasonNotDisplayed`'s line, found without tracing the rules (nil when
    /// the tip displays).
    package var reasonNotDisplayed: String?
}

extension TipCenter {
    /// The decision of `tip` (its instance `key`, for a keyed tip) now, resolved and read under
    /// one lock. As `shouldDisplay(_:key:)` does, it stores the user's arm (and a hidden arm's
    /// exposure) and throws `TipError.store` when the store refuses them; it throws as
    /// `tip(named:key:)` for an unknown tip or a wrong key.
    package func decision(of tip: String, key: TipKey? = nil) throws(TipError) -> TipDecision {
        let now = clock.milliseconds()
        return try state.withLock { (engine: inout EngineState) throws(TipError) -> TipDecision in
            let index = try engine.resolve(tip, key: key)
            engine.expireDonations(now: now)
            try settleExperiment(ofTip: index, key: key, &engine, now: now)
            return engine.decision(of: index, key: key, now: now)
        }
    }
}

extension EngineState {
    /// The decision of `tip` (its instance `key`) at `now`: its rules evaluated once, up to the
    /// first that does not hold, for the status and for a pending tip's reason.
    func decision(of tip: Int, key: TipKey?, now: Int64) -> TipDecision {
        let (status, evaluation) = statusAndEvaluation(of: tip, key: key, now: now)
        let shouldDisplay = shouldDisplay(tip, key: key, status: status, now: now)
        let arm = armChoice(ofTip: tip)
        guard !shouldDisplay else { return TipDecision(status: status, shouldDisplay: true, arm: arm, reasonNotDisplayed: nil) }
        let reason = TipExplanation.reasonNotDisplayed(
            override: overrides.verdict(for: model.tips[tip].name), status: status,
            firstRuleNotHolding: { evaluation?.firstUnsatisfiedRule },
            hiddenArm: arm.flatMap { $0.arm.isHidden ? (experiment: $0.experiment.name, arm: $0.arm.name) : nil },
            frequencyGateOpensMilliseconds: { frequencyGateOpens(for: tip, key: key, now: now) },
            group: {
                groupOfTip[tip].map { group in
                    (name: model.groups[group].name, offered: offeredTip(inGroup: group, now: now).map { model.tips[$0].name })
                }
            })
        return TipDecision(status: status, shouldDisplay: false, arm: arm, reasonNotDisplayed: reason)
    }
}
