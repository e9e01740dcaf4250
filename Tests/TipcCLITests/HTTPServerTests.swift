import Dispatch
import Foundation
import Testing
import TipRuntime
import TipService
@testable import TipServiceHTTP

/// The server's workers: one queue, oldest first, drained before the server stops.
@Suite("HTTP server workers")
struct HTTPServerTests {
    @Test func oneWorkerRunsJobsOldestFirstAndCloseRunsWhatWasQueued() {
        let queue = RequestQueue(workers: 1)
        let order = RuntimeLock<[Int]>([])
        let release = DispatchSemaphore(value: 0)
        // The first job holds the only worker until every other job is queued.
        #expect(queue.submit(beforeQueueing: {}) {
            _ = release.wait(timeout: .now() + 10)
            order.withLock { $0.append(0) }
        })
        for index in 1...20 {
            #expect(queue.submit(beforeQueueing: {}) { order.withLock { $0.append(index) } })
        }
        release.signal()
        queue.close()
        #expect(order.withLock { $0 } == Array(0...20))
        var ran = false
        #expect(!queue.submit(beforeQueueing: { ran = true }) {})
        #expect(!ran)
    }

    @Test func aJobThatRanIsReleasedWhileOthersWait() {
        let queue = RequestQueue(workers: 1)
        let releaseFirst = DispatchSemaphore(value: 0), releaseThird = DispatchSemaphore(value: 0)
        let thirdStarted = DispatchSemaphore(value: 0)
        weak var released: Captured?
        #expect(queue.submit(beforeQueueing: {}) { _ = releaseFirst.wait(timeout: .now() + 10) })
        do {
            let captured = Captured()
            released = captured
            #expect(queue.submit(beforeQueueing: {}) { withExtendedLifetime(captured) {} })
        }
        #expect(queue.submit(beforeQueueing: {}) {
            thirdStarted.signal()
            _ = releaseThird.wait(timeout: .now() + 10)
        })
        #expect(queue.submit(beforeQueueing: {}) {})
        releaseFirst.signal()
        #expect(thirdStarted.wait(timeout: .now() + 10) == .success)
        // The second job ran, and the queue is not empty: what it captured (a request and its
        // answer, in the server) must be gone all the same.
        #expect(released == nil)
        releaseThird.signal()
        queue.close()
    }

    @Test func aRequestWaitingOnItsHandlerHoldsUpNoOtherConnection() throws {
        let fastAnswered = DispatchSemaphore(value: 0)
        let listener = try ListenSocket(ListenAddress(host: "127.0.0.1", port: 0))
        let server = try HTTPServer(listener: listener, threads: 2, admit: { _ in .read(bodyLimit: 1_024) }) { request in
            if request.path == "/slow" {
                // Answers only once /fast was answered: with one worker busy here, /fast must
                // reach the other.
                let answered = fastAnswered.wait(timeout: .now() + 10) == .success
                return HTTPResponse(status: answered ? 200 : 504)
            }
            defer { fastAnswered.signal() }
            return HTTPResponse(status: 200)
        }
        defer { server.stop() }
        let slow = BackgroundRequest(port: server.address.port, path: "/slow")
        // Several fast requests, each on a connection of its own, while /slow waits.
        for _ in 0..<5 {
            #expect(try HTTPClient.send(port: server.address.port, method: "GET", path: "/fast", body: nil).status == 200)
        }
        #expect(slow.reply()?.status == 200)
    }

    @Test func pastTheGraceRequestsNoWorkerStartedAreAnswered503NotRun() throws {
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let ran = RuntimeLock(0)
        let listener = try ListenSocket(ListenAddress(host: "127.0.0.1", port: 0))
        let server = try HTTPServer(listener: listener, threads: 1, admit: { _ in .read(bodyLimit: 1_024) }) { _ in
            ran.withLock { $0 += 1 }
            started.signal()
            _ = release.wait(timeout: .now() + 10)
            return HTTPResponse(status: 200)
        }
        let first = BackgroundRequest(port: server.address.port, path: "/x")
        #expect(started.wait(timeout: .now() + 10) == .success)
        // Two more, queued behind the first on the one worker.
        let queued = [BackgroundRequest(port: server.address.port, path: "/y"), BackgroundRequest(port: server.address.port, path: "/z")]
        #expect(waitUntil { server.requestsInFlight == 3 })
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            server.stop(graceSeconds: 0)
            stopped.signal()
        }.start()
        #expect(waitUntil { server.isStopping })
        release.signal()
        #expect(stopped.wait(timeout: .now() + 20) == .success)
        #expect(first.reply()?.status == 200)
        for request in queued {
            let reply = request.reply()
            #expect(reply?.status == 503)
            #expect(reply?.json?["error"]?["code"] == .string("stopping"), "\(reply?.text ?? "no answer")")
        }
        // Every handler that ran had its answer sent; the queued ones never ran.
        #expect(ran.withLock { $0 } == 1)
    }

    @Test func stopAnswersTheRequestsAWorkerHolds() throws {
        let started = DispatchSemaphore(value: 0), release = DispatchSemaphore(value: 0)
        let listener = try ListenSocket(ListenAddress(host: "127.0.0.1", port: 0))
        let server = try HTTPServer(listener: listener, threads: 1, admit: { _ in .read(bodyLimit: 1_024) }) { _ in
            started.signal()
            _ = release.wait(timeout: .now() + 10)
            return HTTPResponse(status: 200, headers: [], body: Array("late\n".utf8))
        }
        let request = BackgroundRequest(port: server.address.port, path: "/x")
        #expect(started.wait(timeout: .now() + 10) == .success)
        // The handler is released once the stopping thread runs: stop must wait for its answer
        // and send it, not drop the suspended connection.
        let stopping = DispatchSemaphore(value: 0), stopped = DispatchSemaphore(value: 0)
        Thread {
            stopping.signal()
            server.stop(graceSeconds: 10)
            stopped.signal()
        }.start()
        #expect(stopping.wait(timeout: .now() + 10) == .success)
        release.signal()
        #expect(stopped.wait(timeout: .now() + 20) == .success)
        let reply = request.reply()
        #expect(reply?.status == 200)
        #expect(reply?.text == "late\n")
    }
}

/// Whether `condition` became true within 10 s, checked every millisecond (a state another
/// thread reaches, not a length of time).
private func waitUntil(_ condition: () -> Bool) -> Bool {
    for _ in 0..<10_000 {
        if condition() { return true }
        usleep(1_000)
    }
    return false
}

/// An object whose release a test watches.
private final class Captured: Sendable {}

/// A GET sent on a thread of its own; `reply()` waits for its answer (nil: none in 20 s).
private final class BackgroundRequest: Sendable {
    private let answer = RuntimeLock<HTTPReply?>(nil)
    private let done = DispatchSemaphore(value: 0)

    init(port: Int, path: String) {
        Thread { [answer, done] in
            let reply = try? HTTPClient.send(port: port, method: "GET", path: path, body: nil)
            answer.withLock { $0 = reply }
            done.signal()
        }.start()
    }

    func reply() -> HTTPReply? {
        guard done.wait(timeout: .now() + 20) == .success else { return nil }
        return answer.withLock { $0 }
    }
}
