import Dispatch
import Foundation
import TipRuntime

/// The server's workers: a fixed number of threads taking requests' work from one queue, oldest
/// first. One shared queue keeps every request's wait the same: libmicrohttpd's own thread pool
/// ties each connection to one thread for its life, so the clients that land on a crowded
/// thread wait behind its other connections (and behind their database round trips) while
/// other threads idle, and those waits made the tail of the latency.
final class RequestQueue: Sendable {
    private struct State {
        var jobs: [(@Sendable () -> Void)?] = []
        /// The index of the oldest job in `jobs` (taken jobs before it are compacted away).
        var next = 0
        var closed = false
    }

    private let state = RuntimeLock(State())
    /// Signalled once per job, and once per worker when the queue closes.
    private let ready = DispatchSemaphore(value: 0)
    private let stopped = DispatchGroup()
    private let workers: Int

    /// Starts `workers` threads (at least one).
    init(workers: Int) {
        self.workers = max(1, workers)
        for index in 0..<self.workers {
            stopped.enter()
            let thread = Thread { [self] in
                while let job = take() { job() }
                stopped.leave()
            }
            thread.name = "tipc-worker-\(index)"
            // As much stack as libmicrohttpd's threads, where handlers ran before.
            thread.stackSize = 8 << 20
            thread.start()
        }
    }

    /// Queues `job` for a worker, `beforeQueueing` run first (under the queue's lock, so a job
    /// never starts before it); false, and neither run, once the queue is closed.
    func submit(beforeQueueing: () -> Void, _ job: @escaping @Sendable () -> Void) -> Bool {
        let queued = state.withLock { state -> Bool in
            if state.closed { return false }
            beforeQueueing()
            state.jobs.append(job)
            return true
        }
        if queued { ready.signal() }
        return queued
    }

    /// Lets the workers finish every queued job, then stops them; returns when they stopped.
    /// Jobs submitted after this are refused.
    func close() {
        let wasOpen = state.withLock { state -> Bool in
            defer { state.closed = true }
            return !state.closed
        }
        if wasOpen {
            for _ in 0..<workers { ready.signal() }
        }
        stopped.wait()
    }

    /// The oldest job, waiting for one; nil when the queue is closed and empty.
    private func take() -> (@Sendable () -> Void)? {
        while true {
            ready.wait()
            let job = state.withLock { state -> (@Sendable () -> Void)? in
                guard state.next < state.jobs.count else { return nil }
                // Taken out of its slot: a job that ran must not keep its request and answer.
                let job = state.jobs[state.next].take()
                state.next += 1
                if state.next == state.jobs.count {
                    state.jobs.removeAll(keepingCapacity: true)
                    state.next = 0
                } else if state.next >= 64, state.next * 2 >= state.jobs.count {
                    // A queue that never empties under steady load: drop the taken slots.
                    state.jobs.removeFirst(state.next)
                    state.next = 0
                }
                return job
            }
            if let job { return job }
            // Woken with nothing queued: only `close` does that.
            if state.withLock({ $0.closed }) { return nil }
        }
    }
}
