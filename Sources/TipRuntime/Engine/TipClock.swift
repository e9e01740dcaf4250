#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The runtime's source of time: the current instant, and waiting until an instant. Injected
/// so that tests control time instead of sleeping.
public protocol TipClock: Sendable {
    /// Milliseconds since 1970-01-01T00:00:00Z.
    func now() -> Int64
    /// Returns at or after `deadline`; throws `CancellationError` when the task is cancelled.
    func sleep(until deadline: Int64) async throws
}

/// The system's wall clock.
public struct SystemClock: TipClock {
    public init() {}

    public func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }

    public func sleep(until deadline: Int64) async throws {
        while true {
            let remaining = deadline - now()
            if remaining <= 0 { return }
            // `Task.sleep(nanoseconds:)` (iOS 13 / macOS 10.15), not `sleep(for:)` (iOS 16 /
            // macOS 13): apps embed the runtime from iOS 15 on. Long waits go in steps of a day.
            try await Task.sleep(nanoseconds: UInt64(min(remaining, 86_400_000)) * 1_000_000)
        }
    }
}

/// A clock that moves only when told to: `advance(by:)` and `set(to:)` wake every sleeper whose
/// deadline has come, in deadline order.
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

    public init(now: Int64) {
        state = RuntimeLock(State(now: now))
    }

    public func now() -> Int64 { state.withLock { $0.now } }

    /// The deadlines of the tasks sleeping now, earliest first.
    public var pendingDeadlines: [Int64] {
        state.withLock { $0.sleepers.values.map(\.deadline).sorted() }
    }

    public func advance(by milliseconds: Int64) {
        set(to: now() + milliseconds)
    }

    /// Moves the clock to `instant` (never backwards) and resumes the sleepers now due.
    public func set(to instant: Int64) {
        let due: [Sleeper] = state.withLock { state in
            state.now = max(state.now, instant)
            let ready = state.sleepers.filter { $0.value.deadline <= state.now }
            for id in ready.keys { state.sleepers[id] = nil }
            return ready.values.sorted { $0.deadline < $1.deadline }
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    public func sleep(until deadline: Int64) async throws {
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
