/// A user's timeline for `tipc simulate`: a start instant and steps in time order,
/// each with where it is written so that a failed expectation can name its line.
public struct Timeline: Sendable, Hashable {
    /// Milliseconds since 1970.
    public var start: Int64
    public var steps: [TimelineStep]
    /// Who the simulated user is for experiments' arms (`unit:`), if the timeline says.
    public var unit: String?
}

public struct TimelineStep: Sendable, Hashable {
    /// Milliseconds since 1970 (offsets from `start` resolved).
    public var at: Int64
    public var actions: [TimelineAction]
    /// The step's line in the timeline file.
    public var range: SourceRange
}

/// A scalar as written in the timeline, typed only once the pack says what it should be.
public struct TimelineValue: Sendable, Hashable {
    public var text: String
    public var range: SourceRange
}

public struct TimelineDonation: Sendable, Hashable {
    public var event: Located<String>
    public var value: [(name: String, value: TimelineValue)]

    public static func == (a: TimelineDonation, b: TimelineDonation) -> Bool {
        a.event == b.event && a.value.map(\.name) == b.value.map(\.name) && a.value.map(\.value) == b.value.map(\.value)
    }

    public func hash(into hasher: inout Hasher) { hasher.combine(event.value) }
}

public struct TimelineShow: Sendable, Hashable {
    public var tip: Located<String>
    /// How long it stayed on screen, in milliseconds, if given (`for: 30s`).
    public var durationMilliseconds: Int?
}

/// What a step expects of one tip (or, with `currentTip`, of one group); absent fields are not
/// checked.
public struct TimelineExpectation: Sendable, Hashable {
    public enum StatusPattern: Sendable, Hashable {
        case pending, available
        /// `invalidated`, or `invalidated(REASON)` when the reason is given.
        case invalidated(reason: String?)
    }

    public var tip: Located<String>
    public var status: Located<StatusPattern>?
    public var shouldDisplay: Located<Bool>?
    public var displayCount: Located<Int>?
    /// `{ GROUP: { currentTip: TIP } }`: the tip the group offers (nil for `null`: none);
    /// `tip` then names the group.
    public var currentTip: Located<String?>?
}

public enum TimelineAction: Sendable, Hashable {
    /// Parameters applied together.
    case set([(name: Located<String>, value: TimelineValue)])
    case donate([TimelineDonation])
    /// The UI asks for each tip in turn; each that should display is displayed.
    case show([TimelineShow])
    case invalidate(tip: Located<String>, reason: Located<String>)
    /// `resetEligibility` of a tip.
    case reset(tip: Located<String>)
    case expect([TimelineExpectation])
    /// `deleteDonations(of:)` of an event.
    case deleteDonations(event: Located<String>)
    /// `recordAction`: the user taps the action `id` of a tip (or an instance, `newTrail[42]`).
    case action(tip: Located<String>, id: Located<String>)

    public static func == (a: TimelineAction, b: TimelineAction) -> Bool {
        switch (a, b) {
        case (.set(let x), .set(let y)): return x.map(\.name) == y.map(\.name) && x.map(\.value) == y.map(\.value)
        case (.donate(let x), .donate(let y)): return x == y
        case (.show(let x), .show(let y)): return x == y
        case (.invalidate(let t1, let r1), .invalidate(let t2, let r2)): return t1 == t2 && r1 == r2
        case (.reset(let x), .reset(let y)): return x == y
        case (.expect(let x), .expect(let y)): return x == y
        case (.deleteDonations(let x), .deleteDonations(let y)): return x == y
        case (.action(let t1, let i1), .action(let t2, let i2)): return t1 == t2 && i1 == i2
        default: return false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .set: hasher.combine(0)
        case .donate(let x): hasher.combine(x)
        case .show(let x): hasher.combine(x)
        case .invalidate(let tip, _): hasher.combine(tip)
        case .reset(let tip): hasher.combine(tip)
        case .expect(let x): hasher.combine(x)
        case .deleteDonations(let event): hasher.combine(event)
        case .action(let tip, let id):
            hasher.combine(tip)
            hasher.combine(id)
        }
    }
}
