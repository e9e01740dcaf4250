/// Groups answer which tip they offer (TipKit's `TipGroup.currentTip`): the first member, in
/// the group's order, that should display now. Without testing overrides that is the tip the
/// group offers (`firstAvailable`: its first available tip the frequency allows; `ordered`: its
/// first tip not invalidated, once available and allowed), or none; with them, it follows
/// `shouldDisplay` exactly (a hidden tip is not current, a shown one can be).
extension EngineState {
    /// The index of the group named `name`.
    func groupIndex(named name: String) -> Int? {
        model.groups.firstIndex { $0.name == name }
    }

    /// The member of `group` that should display now, if any.
    func currentTip(inGroup group: Int, now: Int64) -> Int? {
        model.groups[group].tips.first { shouldDisplay($0, now: now) }
    }

    /// The tips whose decisions the group's current tip depends on: its members, and the
    /// members of the groups they belong to.
    /// (Group members never have a key.)
    func watchedTips(ofGroup group: Int) -> Set<TipSlot> {
        var tips = Set(model.groups[group].tips.map { TipSlot(tip: $0) })
        for tip in model.groups[group].tips {
            if let own = groupOfTip[tip] { tips.formUnion(model.groups[own].tips.map { TipSlot(tip: $0) }) }
        }
        return tips
    }
}

/// A subscriber of `currentTipUpdates(of:)` and the last value it received.
struct GroupObserver {
    var group: Int
    var continuation: AsyncStream<String?>.Continuation
    /// Nil before the first value; `.some(nil)` after "no tip".
    var last: String??
}

extension TipCenter {
    /// The tip the group offers now (nil when none of its tips should display). A group that
    /// offers a tip in a hidden experiment arm offers none (the first time, the tip's exposure
    /// is recorded, as `shouldDisplay` does); a tip in an experiment that it offers has its
    /// user's arm stored.
    /// `group(named:)`'s `currentTip`, by name; like `shouldDisplay(_:key:)`, it throws
    /// `TipError.store` when the store refused an experiment record it needed.
    public func currentTip(of group: String) throws(TipError) -> String? {
        let current = currentTip(of: try self.group(named: group))
        if let unstored = current.unstored { throw unstored }
        return current.name
    }

    /// The name of the tip `group` offers now. A store that refuses an assignment or exposure
    /// changes nothing (`unstored` says why), as in `decide(_:)`.
    func currentTip(of group: Group) -> (name: String?, unstored: TipError?) {
        let now = clock.milliseconds()
        return state.withLock { engine in
            let index = engine.index(ofKeptGroup: group.name)
            engine.expireDonations(now: now)
            var unstored: TipError?
            // After a refusal nothing more is stored, so that a named call that throws stored nothing after it.
            func settle(_ tip: Int) {
                guard unstored == nil else { return }
                do throws(TipError) {
                    try settleExperiment(ofTip: tip, key: nil, &engine, now: now)
                } catch {
                    unstored = error
                }
            }
            if let offered = engine.offeredTip(inGroup: index, now: now) { settle(offered) }
            guard let current = engine.currentTip(inGroup: index, now: now) else { return (nil, unstored) }
            settle(current)
            return (engine.model.tips[current].name, unstored)
        }
    }

    /// A stream of the tip the group offers: the current one first, then every change (nil:
    /// none), including one caused only by time passing. One stream per subscriber.
    /// `group(named:)`'s `currentTipUpdates()`.
    public func currentTipUpdates(of group: String) throws(TipError) -> AsyncStream<String?> {
        try self.group(named: group).currentTipUpdates()
    }

    /// Registers an observer of `group`, then publishes its first value.
    func subscribe(_ group: Group) -> AsyncStream<String?> {
        let (stream, continuation) = AsyncStream.makeStream(of: String?.self, bufferingPolicy: .bufferingNewest(1))
        let id = state.withLock { engine in
            let index = engine.index(ofKeptGroup: group.name)
            return observers.withLock { registry in
                registry.nextID += 1
                registry.groupObservers[registry.nextID] = GroupObserver(group: index, continuation: continuation, last: nil)
                return registry.nextID
            }
        }
        continuation.onTermination = { [weak self] _ in
            self?.observers.withLock { registry in _ = registry.groupObservers.removeValue(forKey: id) }
        }
        publish()
        return stream
    }

    /// Sends each group observer its group's current tip when it changed (part of `publish`).
    func publishCurrentTips(_ engine: borrowing EngineState, now: Int64, registry: inout ObserverRegistry) {
        for (id, observer) in registry.groupObservers {
            let value = engine.currentTip(inGroup: observer.group, now: now).map { engine.model.tips[$0].name }
            if observer.last != .some(value) {
                observer.continuation.yield(value)
                registry.groupObservers[id]?.last = .some(value)
            }
        }
    }
}
