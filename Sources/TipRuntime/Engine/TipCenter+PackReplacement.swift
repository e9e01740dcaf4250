extension TipCenter {
    /// Swaps the runtime to another verified pack while it runs (a pack shipped remotely, a
    /// rules update), with the rules of a store that outlives its pack: the store is not
    /// touched — what it holds is read again under the new pack — and transient parameters keep
    /// their values. Testing overrides stay. Observers keep their streams and receive the new
    /// statuses.
    ///
    /// The new pack must keep what the app's code may hold on to: every tip (with its key's
    /// type), parameter (with its type and allowed values), event and group of the running
    /// pack. It may add any of them and change anything else (rules, texts, limits, payload
    /// fields, experiments). A pack that drops or retypes one is refused with
    /// `TipError.incompatiblePack`, naming each, and the runtime keeps its pack, so that a
    /// `TipCenter.Tip` (or any other reference) made earlier stays valid. On a store failure
    /// nothing changes either.
    public func replacePack(_ pack: VerifiedRulePack) throws(TipError) {
        let now = clock.milliseconds()
        try mutate { (engine: inout EngineState) throws(TipError) in
            let dropped = engine.model.namesDropped(by: pack.pack)
            guard dropped.isEmpty else { throw .incompatiblePack(dropped) }
            var replacement = EngineState(prepared: PreparedRulePack(pack), deviceID: persistence.deviceID, assignmentUnit: engine.assignmentUnit)
            try stored { () throws(TipStoreError) in try replacement.load(from: persistence, now: now) }
            for (index, declaration) in replacement.model.parameters.enumerated() where declaration.isTransient {
                guard let old = engine.parameterIndex[declaration.name], engine.model.parameters[old].isTransient else { continue }
                let value = engine.parameters.values[old]
                if declaration.accepts(value) { try? replacement.parameters.set(index, to: value) }
            }
            replacement.overrides = engine.overrides
            replacement.lastStampMilliseconds = max(replacement.lastStampMilliseconds, engine.lastStampMilliseconds)
            remapObservers(from: engine, to: replacement)
            engine = replacement
        }
    }

    /// Points each observer at its tip's index in `new` (which keeps every tip of `old`).
    private func remapObservers(from old: borrowing EngineState, to new: borrowing EngineState) {
        observers.withLock { registry in
            for (id, observer) in registry.observers {
                registry.observers[id]?.tip = new.index(ofKeptTip: old.model.tips[observer.tip].name)
            }
            for (id, observer) in registry.groupObservers {
                registry.groupObservers[id]?.group = new.index(ofKeptGroup: old.model.groups[observer.group].name)
            }
        }
    }
}

extension RulePack {
    /// What `new` drops or retypes of this pack's tips, parameters, events and groups, one
    /// sentence each (empty when `new` keeps them all).
    func namesDropped(by new: RulePack) -> [String] {
        var dropped: [String] = []
        let tips = Dictionary(new.tips.map { ($0.name, $0.key?.type) }, uniquingKeysWith: { first, _ in first })
        for tip in self.tips {
            switch tips[tip.name] {
            case nil: dropped.append("tip '\(tip.name)' is missing")
            case let key? where key != tip.key?.type:
                dropped.append("tip '\(tip.name)' has " + Self.describe(key: key) + ", not " + Self.describe(key: tip.key?.type))
            default: break
            }
        }
        let parameters = Dictionary(new.parameters.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for parameter in self.parameters {
            guard let replacement = parameters[parameter.name] else {
                dropped.append("parameter '\(parameter.name)' is missing")
                continue
            }
            if replacement.type != parameter.type {
                dropped.append("parameter '\(parameter.name)' is \(EnglishText.withArticle("\(replacement.type)")), not \(EnglishText.withArticle("\(parameter.type)"))")
            } else if replacement.values.map(Set.init) != parameter.values.map(Set.init) {
                dropped.append("parameter '\(parameter.name)' allows other values")
            }
        }
        let events = Set(new.events.map(\.name))
        dropped += self.events.filter { !events.contains($0.name) }.map { "event '\($0.name)' is missing" }
        let groups = Set(new.groups.map(\.name))
        dropped += self.groups.filter { !groups.contains($0.name) }.map { "group '\($0.name)' is missing" }
        return dropped
    }

    private static func describe(key: ValueType?) -> String {
        guard let type = key else { return "no key" }
        return EnglishText.withArticle("\(type)") + " key"
    }
}
