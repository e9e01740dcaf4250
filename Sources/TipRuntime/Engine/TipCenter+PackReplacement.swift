extension TipCenter {
    /// Swaps the runtime to another verified pack while it runs (a new app version, a pack
    /// shipped remotely), with the rules of a store that outlives its pack: the store
    /// is not touched — what it holds is read again under the new pack (a parameter counts only
    /// where its stored value has the new declared type, donations of events the pack no longer
    /// has are kept unused) — and transient parameters keep their values where the new pack
    /// declares them alike. Testing overrides stay. Observers keep their streams and receive
    /// the new statuses; the stream of a tip the new pack no longer has finishes.
    ///
    /// On a store failure nothing changes (the runtime keeps its pack).
    public func replacePack(_ pack: VerifiedRulePack) throws(TipError) {
        let now = clock.milliseconds()
        try mutate { (engine: inout EngineState) throws(TipError) in
            var replacement = EngineState(prepared: PreparedRulePack(pack), deviceID: persistence.deviceID, assignmentUnit: engine.assignmentUnit)
            try stored { () throws(TipStoreError) in try replacement.load(from: persistence, now: now) }
            for (index, declaration) in replacement.model.parameters.enumerated() where declaration.isTransient {
                guard let old = engine.parameterIndex[declaration.name], engine.model.parameters[old].isTransient else { continue }
                let value = engine.parameters.values[old]
                if declaration.accepts(value) { try? replacement.parameters.set(index, to: value) }
            }
            replacement.overrides = engine.overrides
            replacement.lastStampMilliseconds = max(replacement.lastStampMilliseconds, engine.lastStampMilliseconds)
            let finished = remapObservers(from: engine, to: replacement)
            engine = replacement
            // Finished outside the registry's lock: a stream's termination handler takes it.
            for observer in finished {
                switch observer.kind {
                case .status(let continuation, _): continuation.finish()
                case .shouldDisplay(let continuation, _): continuation.finish()
                }
            }
        }
    }

    /// Points each observer at its tip's index in `new`; returns (and removes) the observers of
    /// tips `new` lacks.
    private func remapObservers(from old: borrowing EngineState, to new: borrowing EngineState) -> [ObserverRegistry.Observer] {
        observers.withLock { registry in
            var finished: [ObserverRegistry.Observer] = []
            for (id, observer) in registry.observers {
                if let index = new.tipIndex[old.model.tips[observer.tip].name] {
                    registry.observers[id]?.tip = index
                } else {
                    finished.append(observer)
                    registry.observers[id] = nil
                }
            }
            return finished
        }
    }
}
