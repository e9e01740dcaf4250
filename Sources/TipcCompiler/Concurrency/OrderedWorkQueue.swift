import Dispatch
import Synchronization

/// Work handed over piece by piece and done by two threads at once: the thread that submits
/// it (once it has finished submitting) and one helper thread, started when enough work has
/// arrived to be worth it. Results come back in submission order, whichever thread made them,
/// so the outcome is the same as doing the work in order on one thread.
///
/// Small jobs never start a thread: below `helperThreshold` items, `finish()` does them all.
/// The submitter never runs far ahead of the work: with more than `maximumPending` items
/// waiting, `submit` does a batch itself before returning, so waiting inputs stay few.
final class OrderedWorkQueue<Input: Sendable, Output: Sendable>: Sendable {
    private struct State: ~Copyable {
        /// Submitted inputs; each is set to nil once taken, so its memory goes with its work.
        var inputs: [Input?] = []
        var outputs: [Output?] = []
        /// The first input not yet taken.
        var next = 0
        var isClosed = false
        var helperStarted = false
        var helperIsWaiting = false
    }

    private let state = Mutex(State())
    /// Signalled when the waiting helper has work again, or the queue closes.
    private let wake = DispatchSemaphore(value: 0)
    /// Signalled by the helper as it stops.
    private let helperStopped = DispatchSemaphore(value: 0)
    private let helperThreshold: Int
    private let batchSize: Int
    private let maximumPending: Int
    private let work: @Sendable ([Input]) -> [Output]

    /// - Parameters:
    ///   - helperThreshold: the number of submitted items at which the helper thread starts.
    ///   - batchSize: how many items a thread takes at once (fewer lock round trips).
    ///   - maximumPending: how many submitted items may wait before the submitter works too.
    ///   - work: what to do with a batch of items, one output per input in order; it runs on
    ///     either thread, and may set up once what all the items of a batch need.
    init(helperThreshold: Int = 64, batchSize: Int = 16, maximumPending: Int = 256,
         work: @escaping @Sendable ([Input]) -> [Output]) {
        self.helperThreshold = max(1, helperThreshold)
        self.batchSize = max(1, batchSize)
        self.maximumPending = max(self.batchSize, maximumPending)
        self.work = work
    }

    /// Adds one item. Call from one thread only, before `finish()`.
    func submit(_ input: Input) {
        let (startHelper, wakeHelper, tooManyPending) = state.withLock { state -> (Bool, Bool, Bool) in
            state.inputs.append(input)
            state.outputs.append(nil)
            let pending = state.inputs.count - state.next
            if !state.helperStarted, state.inputs.count >= helperThreshold {
                state.helperStarted = true
                return (true, false, false)
            }
            if state.helperIsWaiting, pending >= batchSize {
                state.helperIsWaiting = false
                return (false, true, false)
            }
            return (false, false, pending > maximumPending)
        }
        if startHelper {
            DispatchQueue.global().async { self.runHelper() }
        }
        if wakeHelper { wake.signal() }
        if tooManyPending, let batch = takeBatch(evenIfSmall: false) {
            store(work(batch.inputs), for: batch.inputs.count, from: batch.start)
        }
    }

    /// Closes the queue, does the work not yet taken together with the helper, and returns
    /// every result in submission order.
    func finish() -> [Output] {
        let (helperStarted, helperIsWaiting) = state.withLock { state -> (Bool, Bool) in
            state.isClosed = true
            defer { state.helperIsWaiting = false }
            return (state.helperStarted, state.helperIsWaiting)
        }
        if helperIsWaiting { wake.signal() }
        while let batch = takeBatch(evenIfSmall: true) {
            store(work(batch.inputs), for: batch.inputs.count, from: batch.start)
        }
        if helperStarted { helperStopped.wait() }
        return state.withLock { state in
            let outputs = state.outputs.map { $0! }
            state.outputs = []
            return outputs
        }
    }

    private enum HelperStep {
        case work(start: Int, inputs: [Input])
        case wait
        case stop
    }

    private func runHelper() {
        while true {
            // Deciding and announcing a wait happen under one lock, so a submission or the
            // close either sees the helper waiting (and wakes it) or comes before the decision.
            let step = state.withLock { state -> HelperStep in
                if let batch = Self.take(from: &state, batchSize: batchSize, evenIfSmall: false) {
                    return .work(start: batch.start, inputs: batch.inputs)
                }
                if state.isClosed { return .stop }
                state.helperIsWaiting = true
                return .wait
            }
            switch step {
            case .work(let start, let inputs):
                store(work(inputs), for: inputs.count, from: start)
            case .wait:
                wake.wait()
            case .stop:
                helperStopped.signal()
                return
            }
        }
    }

    private func takeBatch(evenIfSmall: Bool) -> (start: Int, inputs: [Input])? {
        state.withLock { state in Self.take(from: &state, batchSize: batchSize, evenIfSmall: evenIfSmall) }
    }

    /// Takes up to `batchSize` inputs; a smaller remainder only when `evenIfSmall` or closed.
    private static func take(from state: inout State, batchSize: Int, evenIfSmall: Bool) -> (start: Int, inputs: [Input])? {
        let available = state.inputs.count - state.next
        guard available > 0, available >= batchSize || evenIfSmall || state.isClosed else { return nil }
        let start = state.next
        let count = min(available, batchSize)
        var inputs: [Input] = []
        inputs.reserveCapacity(count)
        for index in start..<start + count {
            inputs.append(state.inputs[index]!)
            state.inputs[index] = nil
        }
        state.next = start + count
        return (start, inputs)
    }

    private func store(_ outputs: [Output], for inputCount: Int, from start: Int) {
        precondition(outputs.count == inputCount, "the work must return one output per input")
        state.withLock { state in
            for (offset, output) in outputs.enumerated() { state.outputs[start + offset] = output }
        }
    }
}
