#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// References to a pack's tips, parameters, events and groups, checked once when made: the
/// queries through them cannot fail, so they do not throw. They stay valid for the center's
/// life, because `replacePack` refuses a pack that drops or retypes what they name.
extension TipCenter {
    /// A tip (an instance, for a keyed tip) of the center's pack: its status and display
    /// decision now, its history, its streams and its presentation, as TipKit's `Tip` offers them.
    public struct Tip: Sendable, Hashable, CustomStringConvertible {
        /// The center this tip belongs to.
        public let center: TipCenter
        /// The tip's name, as declared.
        public let name: String
        /// The instance's key, for a keyed tip (nil for any other).
        public let key: TipKey?

        /// The instance of this keyed tip for `key`, which must have the tip's key type
        /// (a mismatch traps, as an index out of range does); a key whose type is not known
        /// statically goes through `TipCenter.tip(named:key:)`, which throws instead.
        public func instance(_ key: TipKey) -> Tip {
            precondition(self.key?.type == key.type, "tip '\(name)' has \(self.key.map { "\($0.type)" } ?? "no") keys, not \(key.type) keys")
            return Tip(center: center, name: name, key: key)
        }

        /// The status now.
        public var status: TipStatus {
            center.read(self) { engine, index, now in engine.status(of: index, key: key, now: now) }
        }

        /// Whether the tip should display now: status, display frequency, group and testing
        /// overrides. For a tip in an experiment this is when the user's arm is first needed: the
        /// assignment (and, for a hidden arm whose tip would have displayed, one exposure) is
        /// stored; if the store refuses it, the answer is the same and the next decision tries
        /// again (an exposure only while the tip would still display).
        public var shouldDisplay: Bool {
            center.decide(self).shouldDisplay
        }

        /// The user's arm in the experiment on this tip, or nil when the tip is in none (what
        /// `TipCenter.arm(of:)` gives). The first time it is needed the assignment is stored; if
        /// the store refuses it, the arm is the same and the next query tries again.
        public var arm: TipExperimentArm? {
            center.arm(self)
        }

        /// Displays since the latest reset, over all devices.
        public var displayCount: Int64 {
            center.read(self) { engine, index, _ in engine.history(of: index, key: key).displayCount }
        }

        /// Time on screen since the latest reset, over all devices.
        public var displayDuration: TimeInterval {
            Milliseconds.seconds(center.read(self) { engine, index, _ in engine.history(of: index, key: key).displayDurationMilliseconds })
        }

        /// Why the tip has its status and display decision now (every rule evaluated and traced).
        public var explanation: TipExplanation {
            center.read(self) { engine, index, now in engine.explanation(of: index, key: key, now: now) }
        }

        /// The status now, then every change (including one that only time causes).
        public func statusUpdates() -> AsyncStream<TipStatus> {
            let (stream, continuation) = AsyncStream.makeStream(of: TipStatus.self, bufferingPolicy: .bufferingNewest(1))
            center.subscribe(self, .status(continuation, last: nil)) { handler in continuation.onTermination = { _ in handler() } }
            return stream
        }

        /// Whether the tip should display now, then every change. Streams only read: for a tip
        /// in an experiment, also ask `shouldDisplay` where the tip would appear.
        public func shouldDisplayUpdates() -> AsyncStream<Bool> {
            let (stream, continuation) = AsyncStream.makeStream(of: Bool.self, bufferingPolicy: .bufferingNewest(1))
            center.subscribe(self, .shouldDisplay(continuation, last: nil)) { handler in continuation.onTermination = { _ in handler() } }
            return stream
        }

        /// The UI shows the tip now: `TipCenter.beginDisplay(of:key:)`.
        public func beginDisplay() throws(TipError) -> TipPresentation {
            try center.beginDisplay(of: name, key: key)
        }

        /// Invalidates the tip; one already invalidated keeps its first reason.
        public func invalidate(reason: InvalidationReason) throws(TipError) {
            try center.invalidate(name, key: key, reason: reason)
        }

        /// The tip's texts in `locale`: `TipCenter.content(of:locale:values:)`. It throws when
        /// `values` lacks a placeholder the texts use, or gives one of another type.
        public func content(locale: Locale, values: [String: RuntimeValue] = [:]) throws(TipError) -> TipContent {
            try center.content(of: name, locale: locale, values: values)
        }

        public var description: String { TipInstance(tip: name, key: key).description }

        public static func == (left: Tip, right: Tip) -> Bool {
            left.center === right.center && left.name == right.name && left.key == right.key
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(ObjectIdentifier(center))
            hasher.combine(name)
            hasher.combine(key)
        }
    }

    /// A parameter of the center's pack.
    public struct Parameter: Sendable {
        /// The center this parameter belongs to.
        public let center: TipCenter
        /// The parameter's name, as declared.
        public let name: String
        /// Its declared type, which every value read has.
        public let type: ValueType
        /// The values an enum-like String parameter allows (nil: any value of its type).
        public let values: [String]?

        /// The current value.
        public var value: RuntimeValue {
            center.state.withLock { engine in engine.parameters.values[engine.index(ofKeptParameter: name)] }
        }

        /// Sets it: `TipCenter.setParameter(_:to:)` (a value of another type, or outside an
        /// enum-like parameter's values, is refused).
        public func set(_ value: RuntimeValue) throws(TipError) {
            try center.setParameter(name, to: value)
        }
    }

    /// An event of the center's pack.
    public struct Event: Sendable {
        /// The center this event belongs to.
        public let center: TipCenter
        /// The event's name, as declared.
        public let name: String

        /// The donations held for evaluation now.
        public var donationCount: Int {
            let now = center.clock.milliseconds()
            return center.state.withLock { engine in
                engine.expireDonations(now: now)
                return engine.donations.donations(ofEvent: engine.index(ofKeptEvent: name)).count
            }
        }

        /// Donates the event: `TipCenter.donate(_:value:at:)`.
        @discardableResult
        public func donate(value: [String: RuntimeValue] = [:], at date: Date? = nil) throws(TipError) -> DonationRecord {
            try center.donate(name, value: value, at: date)
        }
    }

    /// A tip group of the center's pack.
    public struct Group: Sendable {
        /// The center this group belongs to.
        public let center: TipCenter
        /// The group's name, as declared.
        public let name: String

        /// The tip the group offers now (nil when none of its tips should display); as
        /// `Tip.shouldDisplay`, it stores the user's arm of a tip in an experiment.
        public var currentTip: Tip? {
            center.currentTip(of: self).name.map { Tip(center: center, name: $0, key: nil) }
        }

        /// The name of the tip the group offers, then every change (nil: none).
        public func currentTipUpdates() -> AsyncStream<String?> {
            center.subscribe(self)
        }
    }

    /// The tip `name` (its instance `key`, for a keyed tip); throws when the pack has no such
    /// tip, or the key is missing, unexpected or of another type than the tip's.
    public func tip(named name: String, key: TipKey? = nil) throws(TipError) -> Tip {
        try state.withLock { (engine: inout EngineState) throws(TipError) -> Tip in
            _ = try engine.resolve(name, key: key)
            return Tip(center: self, name: name, key: key)
        }
    }

    /// The parameter `name`; throws when the pack has none.
    public func parameter(named name: String) throws(TipError) -> Parameter {
        try state.withLock { (engine: inout EngineState) throws(TipError) -> Parameter in
            guard let index = engine.parameterIndex[name] else { throw .unknownParameter(name) }
            let declaration = engine.model.parameters[index]
            return Parameter(center: self, name: name, type: declaration.type, values: declaration.values)
        }
    }

    /// The event `name`; throws when the pack has none.
    public func event(named name: String) throws(TipError) -> Event {
        try state.withLock { (engine: inout EngineState) throws(TipError) -> Event in
            guard engine.eventIndex[name] != nil else { throw .donation(.unknownEventName(name)) }
            return Event(center: self, name: name)
        }
    }

    /// The group `name`; throws when the pack has none.
    public func group(named name: String) throws(TipError) -> Group {
        try state.withLock { (engine: inout EngineState) throws(TipError) -> Group in
            guard engine.groupIndex(named: name) != nil else { throw .unknownGroup(name) }
            return Group(center: self, name: name)
        }
    }

    /// Reads `tip`'s state as of now (donations past their `maximumAge` dropped first).
    func read<T>(_ tip: Tip, _ body: (borrowing EngineState, Int, Int64) -> T) -> T {
        let now = clock.milliseconds()
        return state.withLock { engine in
            let index = engine.index(ofKeptTip: tip.name)
            engine.expireDonations(now: now)
            return body(engine, index, now)
        }
    }
}

/// The indices of names a reference was made for. `replacePack` keeps every tip, parameter,
/// event and group of the pack it replaces, so each is found: a miss is a broken invariant.
extension EngineState {
    func index(ofKeptTip name: String) -> Int {
        guard let index = tipIndex[name] else { preconditionFailure("tip '\(name)' left the pack, which replacePack refuses") }
        return index
    }

    func index(ofKeptParameter name: String) -> Int {
        guard let index = parameterIndex[name] else { preconditionFailure("parameter '\(name)' left the pack, which replacePack refuses") }
        return index
    }

    func index(ofKeptEvent name: String) -> Int {
        guard let index = eventIndex[name] else { preconditionFailure("event '\(name)' left the pack, which replacePack refuses") }
        return index
    }

    func index(ofKeptGroup name: String) -> Int {
        guard let index = groupIndex(named: name) else { preconditionFailure("group '\(name)' left the pack, which replacePack refuses") }
        return index
    }
}
