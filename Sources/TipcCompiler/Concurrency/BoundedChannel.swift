import Dispatch
import Synchronization

/// Hands values from one producing thread to one consuming thread, in order, holding at most
/// `capacity` of them: a producer that runs ahead waits for room, so what is in flight stays
/// small. Closing it passes a final value (the producer's result) to the consumer.
final class BoundedChannel<Element: Sendable, Final: Sendable>: Sendable {
    private struct State: ~Copyable {
        /// Elements sent; each is set to nil as it is received, so that the channel never
        /// keeps what it handed on.
        var queue: [Element?] = []
        /// The first element of `queue` not yet received.
        var head = 0
        var final: Final?
        var isClosed = false
    }

    private let state = Mutex(State())
    /// One signal per element sent, and one for the close.
    private let available = DispatchSemaphore(value: 0)
    /// Room left for elements.
    private let room: DispatchSemaphore

    init(capacity: Int) {
        // Made empty and then filled: Dispatch refuses to free a semaphore whose count is below
        // its initial one, which a channel dropped before it is drained would be.
        room = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, capacity) { room.signal() }
    }

    /// Sends `element`, waiting while the channel is full. Producer only.
    func send(_ element: Element) {
        room.wait()
        state.withLock { state in state.queue.append(element) }
        available.signal()
    }

    /// Closes the channel with the producer's final value. Producer only, once.
    func close(with final: Final) {
        state.withLock { state in
            state.final = final
            state.isClosed = true
        }
        available.signal()
    }

    /// The next element in the order sent, waiting for one; nil once the channel is closed
    /// and empty. Consumer only.
    func receive() -> Element? {
        available.wait()
        let element = state.withLock { state -> Element? in
            guard state.head < state.queue.count else { return nil }
            let element = state.queue[state.head].take()
            state.head += 1
            if state.head == state.queue.count {
                state.queue.removeAll(keepingCapacity: true)
                state.head = 0
            } else if state.head >= 64 {
                // A producer that stays ahead never lets the queue empty: drop the received slots.
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            return element
        }
        if element != nil { room.signal() }
        return element
    }

    /// The producer's final value, once `receive()` has returned nil.
    func takeFinal() -> Final? {
        state.withLock { state in state.final.take() }
    }
}
