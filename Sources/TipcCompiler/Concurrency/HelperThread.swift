import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one thread the front end hands work to, besides the caller's: started on first use
/// and kept, so that every check in a process uses the same second thread (and so the same
/// heap arena: work of successive checks, and of successive passes of one check, reuses the
/// memory the previous one freed instead of growing another arena).
///
/// Jobs run one after another, in the order given. A job may wait for its caller (a reader
/// waiting for room in a channel) but never for another job, so no job can block the queue
/// forever: work handed over from the helper thread itself is refused (`run` returns false),
/// and the caller does it in place.
final class HelperThread: Sendable {
    /// The process's helper thread.
    static let shared = HelperThread()

    private struct State: ~Copyable {
        var jobs: [@Sendable () -> Void] = []
        var head = 0
        /// nil until first use; false when the thread could not be started.
        var running: Bool?
        /// The helper thread, once it runs.
        var thread: pthread_t?
    }

    private let state = Mutex(State())
    private let available = DispatchSemaphore(value: 0)

    private init() {}

    /// Queues `job` for the helper thread; false (and nothing queued) when there is no helper
    /// thread, in which case the caller does the work itself.
    func run(_ job: @escaping @Sendable () -> Void) -> Bool {
        let current = pthread_self()
        let queued = state.withLock { state -> Bool in
            if let thread = state.thread, pthread_equal(thread, current) != 0 { return false }
            if state.running == nil {
                state.running = DedicatedThread.start { [self] in serve() }
            }
            guard state.running == true else { return false }
            state.jobs.append(job)
            return true
        }
        if queued { available.signal() }
        return queued
    }

    private func serve() {
        let current = pthread_self()
        state.withLock { state in state.thread = current }
        while true {
            available.wait()
            let job = state.withLock { state -> @Sendable () -> Void in
                let job = state.jobs[state.head]
                state.head += 1
                if state.head == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.head = 0
                }
                return job
            }
            job()
        }
    }
}
