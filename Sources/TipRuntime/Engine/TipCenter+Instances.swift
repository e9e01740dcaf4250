/// Instances of keyed tips: naming them, and listing those with stored state.
extension EngineState {
    /// The index of `tip`, after checking that `key` fits it: a keyed tip needs a key of its
    /// type, a tip without a key takes none.
    func resolve(_ tip: String, key: TipKey?) throws(TipError) -> Int {
        guard let index = tipIndex[tip] else { throw .unknownTip(tip) }
        switch (model.tips[index].key, key) {
        case (nil, nil): return index
        case (nil, _?): throw .unexpectedKey(tip: tip)
        case (let declared?, nil): throw .missingKey(tip: tip, type: declared.type)
        case (let declared?, let key?):
            guard declared.type == key.type else { throw .wrongKeyType(tip: tip, expected: declared.type, actual: key.type) }
            return index
        }
    }
}

extension TipCenter {
    /// The instance named by `text` as the CLI and timelines write it (`newTrail[42]`, or a
    /// tip's name): the key's text is read as the tip's key type.
    public func instance(named text: String) throws(TipError) -> TipInstance {
        try state.withLock { (engine: inout EngineState) throws(TipError) -> TipInstance in
            try TipInstance.resolve(text, in: engine.model)
        }
    }

    /// The keys of the instances of `tip` that have stored state (displays, invalidations,
    /// resets), ascending. Any other key is an instance too, evaluated fresh.
    public func instances(of tip: String) throws(TipError) -> [TipKey] {
        try state.withLock { (engine: inout EngineState) throws(TipError) -> [TipKey] in
            guard let index = engine.tipIndex[tip] else { throw .unknownTip(tip) }
            return engine.records.keys(of: index)
        }
    }
}

extension TipInstance {
    /// The instance `text` names in `pack` (`newTrail[42]`, `newTrail[some id]`, `welcome`).
    package static func resolve(_ text: String, in pack: RulePack) throws(TipError) -> TipInstance {
        let (name, keyText) = split(text)
        guard let tip = pack.tips.first(where: { $0.name == name }) else {
            // A tip whose name itself ends in brackets is still found by its whole name.
            guard pack.tips.contains(where: { $0.name == text }) else { throw .unknownTip(name) }
            return TipInstance(tip: text)
        }
        switch (tip.key, keyText) {
        case (nil, nil): return TipInstance(tip: name)
        case (nil, _?): throw .unexpectedKey(tip: name)
        case (let declared?, nil): throw .missingKey(tip: name, type: declared.type)
        case (let declared?, let keyText?):
            guard let key = TipKey(keyText, as: declared.type) else {
                throw .unreadableKey(tip: name, text: keyText, expected: declared.type)
            }
            return TipInstance(tip: name, key: key)
        }
    }
}

extension TipCenter {
    /// The next instant after now at which the status or display decision of any of
    /// `instances` may change with no call into the runtime (a window's contents change, a
    /// donation ages out, the display frequency's gap ends, a rule's comparison with a date
    /// turns), or nil when none can: the instant an observer of them would be woken at.
    package func nextPossibleChange(of instances: [TipInstance]) throws(TipError) -> Int64? {
        let now = clock.milliseconds()
        return try state.withLock { (engine: inout EngineState) throws(TipError) -> Int64? in
            var slots = Set<TipSlot>()
            for instance in instances {
                let tip = try engine.resolve(instance.tip, key: instance.key)
                slots.insert(TipSlot(tip: tip, key: instance.key))
                if let group = engine.groupOfTip[tip] { slots.formUnion(engine.model.groups[group].tips.map { TipSlot(tip: $0) }) }
            }
            engine.expireDonations(now: now)
            return engine.nextWake(for: slots, now: now)
        }
    }
}
