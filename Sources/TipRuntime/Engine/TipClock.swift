#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The runtime's source of time: the current instant, and waiting until an instant. Injected
/// so that tests control time instead of sleeping (`ManualClock`).
public protocol TipClock: Sendable {
    /// The current instant. The runtime keeps it to the millisecond.
    func now() -> Date
    /// Returns at or after `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Date) async throws
}

extension TipClock {
    /// `now()` in whole milliseconds since 1970, as the runtime stores instants. A manual
    /// clock's are read as it keeps them: exact even past the instants a `Date` holds to the
    /// millisecond (about the year 287,000), which timelines may reach.
    package func milliseconds() -> Int64 {
        if let manual = self as? ManualClock { return manual.exactMilliseconds }
        return now().millisecondsSince1970
    }

    /// `sleep(until:)` a deadline in milliseconds since 1970.
    package func sleep(untilMilliseconds deadline: Int64) async throws {
        try await sleep(until: Date(millisecondsSince1970: deadline))
    }
}

/// The system's wall clock.
public struct SystemClock: TipClock {
    /// The system's wall clock (`CLOCK_REALTIME`).
    public init() {}

    public func now() -> Date {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Date(millisecondsSince1970: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
    }

    public func sleep(until date: Date) async throws {
        let deadline = date.millisecondsSince1970
        while true {
            let now = milliseconds()
            if deadline <= now { return }
            let remaining = deadline.addingSaturating(-now)
            // `Task.sleep(nanoseconds:)` (iOS 13 / macOS 10.15), not `sleep(for:)` (iOS 16 /
            // macOS 13): apps embed the runtime from iOS 15 on. Long waits go in steps of a day.
            try await Task.sleep(nanoseconds: UInt64(min(remaining, 86_400_000)) * 1_000_000)
        }
    }
}

/// A clock that moves only when told to, for tests: `advance(by:)` and `set(to:)` wake every
/// sleeper whose deadline has come, in deadline order.
public final class ManualClock: TipClock {
    private struct Sleeper {
        var deadline: Int64
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now: Int64
        var nextID = 0
        var sleepers: [Int: Sleeper] = [:]
        var cancelled = Set<Int>()
    }

    private let state: RuntimeLock<State>

    /// A clock that reads `now` (to the millisecond) until moved.
    public convenience init(now: Date) {
        self.init(now: now.millisecondsSince1970)
    }

    /// A clock at `now` milliseconds since 1970.
    package init(now: Int64) {
        state = RuntimeLock(State(now: now))
    }

    public func now() -> Date { Date(millisecondsSince1970: exactMilliseconds) }

    var exactMilliseconds: Int64 { state.withLock { $0.now } }

    /// The deadlines of the tasks sleeping now, earliest first.
    package var pendingDeadlines: [Int64] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    /// Moves the clock `interval` seconds on (to the millisecond).
    public func advance(by interval: TimeInterval) {
        advance(milliseconds: Milliseconds.of(seconds: interval))
    }

    /// Moves the clock to `date` (never backwards) and resumes the sleepers now due.
    public func set(to date: Date) {
        set(milliseconds: date.millisecondsSince1970)
    }

    package func advance(milliseconds: Int64) {
        set(milliseconds: self.milliseconds().addingSaturating(milliseconds))
    }

    /// `set(to:)` an instant in milliseconds since 1970.
    package func set(milliseconds instant: Int64) {
        let due: [Sleeper] = state.withLock { state in
            state.now = max(state.now, instant)
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func sleep(until date: Date) async throws {
        let deadline = date.millisecondsSince1970
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let immediate: Result<Void, any Error>? = state.withLock { state in
                    if state.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= state.now { return .success(()) }
                    state.sleepers[id] = Sleeper(deadline: deadline, continuation: continuation)
                    return nil
                }
                if let immediate { continuation.resume(with: immediate) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { state in
                if let sleeper = state.sleepers.removeValue(forKey: id) { return sleeper }
                state.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }
}
