/// The subscribers of a `TipCenter` and its one scheduled wake-up.
struct ObserverRegistry {
    enum Kind {
        case status(AsyncStream<TipStatus>.Continuation, last: TipStatus?)
        case shouldDisplay(AsyncStream<Bool>.Continuation, last: Bool?)
    }

    struct Observer {
        var tip: Int
        /// The instance observed, for a keyed tip.
        var key: TipKey?
        var kind: Kind
    }

    var observers: [Int: Observer] = [:]
    /// Subscribers of `currentTipUpdates(of:)`, by the same ids (`TipCenter+Groups.swift`).
    var groupObservers: [Int: GroupObserver] = [:]
    var nextID = 0
    /// The instant the scheduled wake-up fires, and its task.
    var wake: (deadline: Int64, task: Task<Void, Never>)?

    /// The tips whose decisions observers depend on: the observed tips and their groups' members.
    func watchedTips(_ engine: borrowing EngineState) -> Set<TipSlot> {
        var tips = Set<TipSlot>()
        for observer in observers.values {
            tips.insert(TipSlot(tip: observer.tip, key: observer.key))
            if let group = engine.groupOfTip[observer.tip] { tips.formUnion(engine.model.groups[group].tips.map { TipSlot(tip: $0) }) }
        }
        for observer in groupObservers.values { tips.formUnion(engine.watchedTips(ofGroup: observer.group)) }
        return tips
    }
}

extension TipCenter {
    /// A stream of the tip's status: the current one first, then every change, including one
    /// caused only by time passing (a `within` window sliding): the runtime computes that
    /// instant and wakes then, without polling. One stream per subscriber.
    /// `tip(named:key:)`'s `statusUpdates()`.
    public func statusUpdates(for tip: String, key: TipKey? = nil) throws(TipError) -> AsyncStream<TipStatus> {
        try self.tip(named: tip, key: key).statusUpdates()
    }

    /// A stream of whether the tip should display: the current value first, then every change.
    /// Streams only read: for a tip in an experiment, also ask `shouldDisplay(_:key:)` where the
    /// tip would appear, so that the user's arm (and a hidden arm's exposure) is stored.
    /// `tip(named:key:)`'s `shouldDisplayUpdates()`.
    public func shouldDisplayUpdates(for tip: String, key: TipKey? = nil) throws(TipError) -> AsyncStream<Bool> {
        try self.tip(named: tip, key: key).shouldDisplayUpdates()
    }

    /// Registers an observer of `tip`, then publishes its first value.
    func subscribe(_ tip: Tip, _ kind: ObserverRegistry.Kind, onTermination: (@escaping @Sendable () -> Void) -> Void) {
        let id = state.withLock { engine in
            let index = engine.index(ofKeptTip: tip.name)
            return observers.withLock { registry in
                registry.nextID += 1
                registry.observers[registry.nextID] = .init(tip: index, key: tip.key, kind: kind)
                return registry.nextID
            }
        }
        onTermination { [weak self] in
            self?.observers.withLock { registry in _ = registry.observers.removeValue(forKey: id) }
        }
        publish()
    }

    /// Tells every observer whose value changed, then schedules the next wake-up. Runs under
    /// the state lock so that values reach each observer in the order they were computed.
    func publish() {
        let now = clock.milliseconds()
        state.withLock { engine in
            engine.expireDonations(now: now)
            observers.withLock { registry in
                for (id, observer) in registry.observers {
                    switch observer.kind {
                    case .status(let continuation, let last):
                        let value = engine.status(of: observer.tip, key: observer.key, now: now)
                        if value != last {
                            continuation.yield(value)
                            registry.observers[id]?.kind = .status(continuation, last: value)
                        }
                    case .shouldDisplay(let continuation, let last):
                        let value = engine.shouldDisplay(observer.tip, key: observer.key, now: now)
                        if value != last {
                            continuation.yield(value)
                            registry.observers[id]?.kind = .shouldDisplay(continuation, last: value)
                        }
                    }
                }
                publishCurrentTips(engine, now: now, registry: &registry)
                schedule(registry: &registry, deadline: engine.nextWake(for: registry.watchedTips(engine), now: now))
            }
        }
    }

    /// Keeps exactly one wake-up task, for `deadline` (none when nil).
    private func schedule(registry: inout ObserverRegistry, deadline: Int64?) {
        if registry.wake?.deadline == deadline { return }
        registry.wake?.task.cancel()
        registry.wake = nil
        guard let deadline else { return }
        let clock = self.clock
        let task = Task { [weak self] in
            do {
                try await clock.sleep(untilMilliseconds: deadline)
            } catch {
                return
            }
            self?.wakeUp(deadline: deadline)
        }
        registry.wake = (deadline, task)
    }

    private func wakeUp(deadline: Int64) {
        observers.withLock { registry in
            if registry.wake?.deadline == deadline { registry.wake = nil }
        }
        publish()
    }

    /// The instant of the scheduled wake-up, if any (for tests and `explain`).
    package var scheduledWakeUp: Int64? {
        observers.withLock { $0.wake?.deadline }
    }
}
