import Foundation
import TipRuntime
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The server's open connections, each with the instant its current request began to arrive
/// (nil while a worker holds it): what bounds both the time one request may take and the
/// number of connections. A connection past `requestSeconds` is closed by a reaper thread; a
/// connection opened when `limit` are open closes the one reading longest. Closing is
/// `shutdown(2)` on the socket: libmicrohttpd then reads its end and closes the connection
/// on its own thread, and since it reports a connection closed before it closes the socket,
/// a socket is only ever shut down while it is still the connection's.
final class ConnectionTable: Sendable {
    private struct Entry {
        var socket: Int32
        /// When the current request began to arrive (or its answer to leave); nil while a
        /// worker holds the request.
        var since: Double?
    }

    private struct State {
        var open: [Int: Entry] = [:]
        var reaping = false
    }

    private let state = RuntimeLock(State())
    private let limit: Int
    private let requestSeconds: Double
    private let clock: @Sendable () -> Double
    private let reaperStopped = RuntimeLock<Bool>(true)

    init(limit: Int, requestSeconds: Double, clock: @escaping @Sendable () -> Double = ConnectionTable.monotonicSeconds) {
        self.limit = max(1, limit)
        self.requestSeconds = requestSeconds
        self.clock = clock
    }

    /// Connections open now.
    var count: Int { state.withLock { $0.open.count } }

    func opened(_ connection: OpaquePointer, socket: Int32) {
        let now = clock()
        state.withLock { state in
            state.open[Int(bitPattern: connection)] = Entry(socket: socket, since: now)
            guard state.open.count > limit else { return }
            // The connection reading longest makes room (never the newcomer: it is the newest).
            if let (key, oldest) = state.open.filter({ $0.value.since != nil }).min(by: { $0.value.since! < $1.value.since! }) {
                shutdown(oldest.socket, Int32(SHUT_RDWR))
                state.open[key]?.since = nil
                state.open[key]?.socket = -1
            }
        }
    }

    func closed(_ connection: OpaquePointer) {
        _ = state.withLock { $0.open.removeValue(forKey: Int(bitPattern: connection)) }
    }

    /// A request on `connection` went to a worker: its time there does not count.
    func handling(_ connection: OpaquePointer) {
        state.withLock { state in
            if state.open[Int(bitPattern: connection)]?.socket ?? -1 >= 0 { state.open[Int(bitPattern: connection)]?.since = nil }
        }
    }

    /// `connection` starts to read a request or to write an answer: its time counts from now.
    func reading(_ connection: OpaquePointer) {
        let now = clock()
        state.withLock { state in
            if state.open[Int(bitPattern: connection)]?.socket ?? -1 >= 0 { state.open[Int(bitPattern: connection)]?.since = now }
        }
    }

    /// Closes every connection whose request has taken longer than `requestSeconds`; their count.
    @discardableResult
    func closeOverdue() -> Int {
        let now = clock()
        return state.withLock { state in
            var closed = 0
            for (key, entry) in state.open where entry.socket >= 0 {
                guard let since = entry.since, now - since > requestSeconds else { continue }
                shutdown(entry.socket, Int32(SHUT_RDWR))
                state.open[key]?.since = nil
                state.open[key]?.socket = -1
                closed += 1
            }
            return closed
        }
    }

    /// Starts the thread that closes overdue connections, a few times per `requestSeconds`.
    func startReaping() {
        state.withLock { $0.reaping = true }
        reaperStopped.withLock { $0 = false }
        let interval = UInt32(min(1, max(0.05, requestSeconds / 4)) * 1_000_000)
        let thread = Thread { [self] in
            while state.withLock({ $0.reaping }) {
                usleep(interval)
                closeOverdue()
            }
            reaperStopped.withLock { $0 = true }
        }
        thread.name = "tipc-reaper"
        thread.start()
    }

    /// Stops the reaper thread; returns once it stopped.
    func stopReaping() {
        state.withLock { $0.reaping = false }
        while !reaperStopped.withLock({ $0 }) { usleep(10_000) }
    }

    static func monotonicSeconds() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }
}
