#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Synchronization
import Testing
@testable import TipcCompiler

/// What the queue's `work` saw: every batch in the order it began, on which thread, and how
/// many inputs have been fully processed.
private final class WorkLog: Sendable {
    struct Batch: Sendable {
        var inputs: [Int]
        var thread: UInt
    }

    private let batches = Mutex<[Batch]>([])
    private let completedCount = Atomic<Int>(0)

    var recorded: [Batch] { batches.withLock { $0 } }
    /// Inputs whose work has returned (counted just before it returns).
    var completed: Int { completedCount.load(ordering: .sequentiallyConsistent) }

    func begin(_ inputs: [Int]) {
        let batch = Batch(inputs: inputs, thread: currentThread())
        batches.withLock { $0.append(batch) }
    }

    func end(_ inputs: [Int]) {
        completedCount.add(inputs.count, ordering: .sequentiallyConsistent)
    }

    /// How many times each of `0..<count` was handed to `work`.
    func timesProcessed(count: Int) -> [Int] {
        var times = Array(repeating: 0, count: count)
        for batch in recorded {
            for input in batch.inputs { times[input] += 1 }
        }
        return times
    }
}

/// Set once, read from any thread.
private final class ReleaseFlag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .sequentiallyConsistent) }
    func set() { value.store(true, ordering: .sequentiallyConsistent) }
}

private func currentThread() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// How a queue is set up for a test.
struct QueueShape: Sendable, CustomTestStringConvertible {
    var helperThreshold: Int
    var batchSize: Int
    var maximumPending: Int

    var testDescription: String { "threshold \(helperThreshold), batch \(batchSize), pending \(maximumPending)" }
}

@Suite struct OrderedWorkQueueTests {
    private static let shapes = [
        QueueShape(helperThreshold: 8, batchSize: 1, maximumPending: 1),
        QueueShape(helperThreshold: 8, batchSize: 3, maximumPending: 16),
        QueueShape(helperThreshold: 64, batchSize: 16, maximumPending: 256),
        QueueShape(helperThreshold: 1, batchSize: 7, maximumPending: 7),
        QueueShape(helperThreshold: 1000, batchSize: 64, maximumPending: 64),
    ]

    /// Sizes around each shape's threshold and batch size, and large ones.
    private static let sizes = [0, 1, 2, 6, 7, 8, 9, 15, 16, 17, 63, 64, 65, 999, 1000, 1001, 5000]

    private func makeQueue(_ shape: QueueShape, log: WorkLog) -> OrderedWorkQueue<Int, String> {
        OrderedWorkQueue(helperThreshold: shape.helperThreshold, batchSize: shape.batchSize,
                         maximumPending: shape.maximumPending) { inputs in
            log.begin(inputs)
            defer { log.end(inputs) }
            return inputs.map { "item \($0)" }
        }
    }

    @Test(arguments: shapes, sizes)
    func resultsComeBackInSubmissionOrderAndEachInputIsDoneOnce(shape: QueueShape, count: Int) {
        let log = WorkLog()
        let queue = makeQueue(shape, log: log)
        for input in 0..<count { queue.submit(input) }
        let outputs = queue.finish()

        #expect(outputs == (0..<count).map { "item \($0)" })
        #expect(log.timesProcessed(count: count).allSatisfy { $0 == 1 })
        #expect(log.completed == count)
        let batches = log.recorded
        #expect(batches.allSatisfy { !$0.inputs.isEmpty && $0.inputs.count <= shape.batchSize })
        // A batch is a run of consecutive submissions.
        #expect(batches.allSatisfy { batch in batch.inputs.indices.dropFirst().allSatisfy { batch.inputs[$0] == batch.inputs[$0 - 1] + 1 } })
        if count == 0 { #expect(batches.isEmpty) }
    }

    @Test func defaultShapeKeepsOrderForAThousandItems() {
        let log = WorkLog()
        let queue = OrderedWorkQueue<Int, Int> { inputs in
            log.begin(inputs)
            defer { log.end(inputs) }
            return inputs.map { $0 * $0 }
        }
        for input in 0..<1000 { queue.submit(input) }
        #expect(queue.finish() == (0..<1000).map { $0 * $0 })
        #expect(log.timesProcessed(count: 1000).allSatisfy { $0 == 1 })
    }

    @Test func belowTheThresholdEverythingIsDoneByTheCallingThreadInFinish() {
        let log = WorkLog()
        let queue = makeQueue(QueueShape(helperThreshold: 50, batchSize: 8, maximumPending: 100), log: log)
        for input in 0..<49 { queue.submit(input) }
        // Nothing is waiting beyond `maximumPending` and no helper started: no work yet.
        #expect(log.recorded.isEmpty)
        let outputs = queue.finish()
        #expect(outputs == (0..<49).map { "item \($0)" })
        let thread = currentThread()
        #expect(log.recorded.allSatisfy { $0.thread == thread })
        #expect(log.recorded.map(\.inputs.count) == [8, 8, 8, 8, 8, 8, 1])
    }

    /// Without a helper (its threshold never reached) the submitter's share of the work is
    /// exact: a batch each time more than `maximumPending` items wait.
    @Test(arguments: [(batchSize: 4, maximumPending: 10), (batchSize: 1, maximumPending: 1), (batchSize: 5, maximumPending: 5),
                      (batchSize: 16, maximumPending: 100)])
    func submitterWorksABatchWheneverTooManyWait(batchSize: Int, maximumPending: Int) {
        let log = WorkLog()
        let queue = makeQueue(QueueShape(helperThreshold: .max, batchSize: batchSize, maximumPending: maximumPending), log: log)
        let thread = currentThread()
        var modelPending = 0, modelCompleted = 0, largestWaiting = 0
        for input in 0..<500 {
            queue.submit(input)
            modelPending += 1
            if modelPending > maximumPending {
                modelPending -= batchSize
                modelCompleted += batchSize
            }
            #expect(log.completed == modelCompleted, "after submitting \(input + 1)")
            largestWaiting = max(largestWaiting, input + 1 - log.completed)
        }
        #expect(largestWaiting == maximumPending)
        let submissionBatches = log.recorded.count
        #expect(log.recorded.allSatisfy { $0.inputs.count == batchSize })
        #expect(queue.finish() == (0..<500).map { "item \($0)" })
        // `finish` does the rest in full batches and one smaller remainder.
        let finishBatches = log.recorded.dropFirst(submissionBatches).map(\.inputs.count)
        #expect(finishBatches.reduce(0, +) == 500 - modelCompleted)
        #expect(finishBatches.dropLast().allSatisfy { $0 == batchSize })
        #expect(log.recorded.allSatisfy { $0.thread == thread })
    }

    @Test func batchSizeBelowOneMeansBatchesOfOne() {
        let log = WorkLog()
        let queue = makeQueue(QueueShape(helperThreshold: .max, batchSize: 0, maximumPending: 3), log: log)
        for input in 0..<10 { queue.submit(input) }
        #expect(queue.finish().count == 10)
        #expect(log.recorded.map(\.inputs) == (0..<10).map { [$0] })
    }

    @Test func maximumPendingIsAtLeastOneBatch() {
        let log = WorkLog()
        let queue = makeQueue(QueueShape(helperThreshold: .max, batchSize: 4, maximumPending: 0), log: log)
        for input in 0..<4 { queue.submit(input) }
        #expect(log.completed == 0)
        queue.submit(4)
        #expect(log.completed == 4)
        #expect(log.recorded.map(\.inputs) == [[0, 1, 2, 3]])
        #expect(queue.finish() == (0..<5).map { "item \($0)" })
    }

    /// Inputs submitted and not yet done stay within `maximumPending + batchSize` (a batch may
    /// be in the helper's hands) whenever `submit` returns, however the helper is scheduled.
    /// Here the helper is held inside its first batch until everything is submitted, so the
    /// submitter alone must keep the waiting inputs few.
    @Test(arguments: [QueueShape(helperThreshold: 8, batchSize: 4, maximumPending: 16),
                      QueueShape(helperThreshold: 1, batchSize: 1, maximumPending: 1),
                      QueueShape(helperThreshold: 100, batchSize: 8, maximumPending: 20)])
    func waitingInputsStayBoundedWhileTheHelperIsHeld(shape: QueueShape) {
        let log = WorkLog()
        let submitter = currentThread()
        let released = ReleaseFlag()
        let gate = DispatchSemaphore(value: 0)
        let queue = OrderedWorkQueue<Int, String>(helperThreshold: shape.helperThreshold, batchSize: shape.batchSize,
                                                  maximumPending: shape.maximumPending) { inputs in
            log.begin(inputs)
            if currentThread() != submitter, !released.isSet { gate.wait() }
            defer { log.end(inputs) }
            return inputs.map { "item \($0)" }
        }
        let count = 3000
        var largestWaiting = 0
        for input in 0..<count {
            queue.submit(input)
            largestWaiting = max(largestWaiting, input + 1 - log.completed)
        }
        released.set()
        gate.signal()
        let outputs = queue.finish()

        #expect(largestWaiting <= shape.maximumPending + shape.batchSize)
        #expect(outputs == (0..<count).map { "item \($0)" })
        #expect(log.timesProcessed(count: count).allSatisfy { $0 == 1 })
    }

    @Test(arguments: [QueueShape(helperThreshold: 8, batchSize: 4, maximumPending: 16),
                      QueueShape(helperThreshold: 64, batchSize: 16, maximumPending: 256)])
    func waitingInputsStayBoundedWithAFreeHelper(shape: QueueShape) {
        let log = WorkLog()
        let queue = makeQueue(shape, log: log)
        let count = 5000
        var largestWaiting = 0
        for input in 0..<count {
            queue.submit(input)
            largestWaiting = max(largestWaiting, input + 1 - log.completed)
        }
        let outputs = queue.finish()
        #expect(largestWaiting <= shape.maximumPending + shape.batchSize)
        #expect(outputs == (0..<count).map { "item \($0)" })
        #expect(log.timesProcessed(count: count).allSatisfy { $0 == 1 })
    }

    @Test func outputsMayBeLargerValuesThanInputs() {
        let queue = OrderedWorkQueue<Int, [Int]>(helperThreshold: 2, batchSize: 3, maximumPending: 5) { inputs in
            inputs.map { Array(0..<$0) }
        }
        for input in 0..<40 { queue.submit(input) }
        #expect(queue.finish() == (0..<40).map { Array(0..<$0) })
    }
}
