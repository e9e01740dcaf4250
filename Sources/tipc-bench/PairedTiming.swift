#if canImport(Glibc)
import Glibc
#endif

/// A figure and its floor, timed in turns in one process so that load from other processes
/// falls on both alike.
struct PairedTiming {
    /// What a run's time is read from.
    enum TimeSource {
        /// Wall time: for work that waits (fsync, I/O).
        case wall
        /// The calling thread's CPU time: for work on one thread that never waits, so that
        /// time the thread spends descheduled by other processes is not counted.
        case threadCPU

        func now() -> UInt64 {
            switch self {
            case .wall:
                return Measure.now()
            case .threadCPU:
                var spec = timespec()
                clock_gettime(CLOCK_THREAD_CPUTIME_ID, &spec)
                return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
            }
        }
    }

    /// Median nanoseconds per call.
    var measured: Double
    var floor: Double
    /// The sum of every call's result in one run of `iterations` calls (the same in every run).
    var measuredSum: Int
    var floorSum: Int

    var ratio: Double { measured / floor }

    /// Times `measured` and `floor` in turns: `samples` runs of each, every run calling its body
    /// with 0..<`iterations`. Each call's result is summed, and every run of a body must give the
    /// same sum: the work is deterministic, so a different sum is a bug, and a sum that is used
    /// keeps the optimiser from dropping the calls. A body that throws stops the benchmark.
    init(clock: TimeSource, samples: Int = 11, iterations: Int, measured: (Int) throws -> Int, floor: (Int) throws -> Int) rethrows {
        var measuredSamples: [Double] = [], floorSamples: [Double] = []
        var measuredSums: Set<Int> = [], floorSums: Set<Int> = []
        for _ in 0..<samples {
            let (measuredTime, measuredSum) = try Self.run(clock, iterations, measured)
            measuredSamples.append(measuredTime)
            measuredSums.insert(measuredSum)
            let (floorTime, floorSum) = try Self.run(clock, iterations, floor)
            floorSamples.append(floorTime)
            floorSums.insert(floorSum)
        }
        precondition(measuredSums.count == 1 && floorSums.count == 1,
                     "runs of the same work gave different results: \(measuredSums.sorted()), floor \(floorSums.sorted())")
        self.measured = Measure.median(of: measuredSamples)
        self.floor = Measure.median(of: floorSamples)
        measuredSum = measuredSums.first!
        floorSum = floorSums.first!
    }

    /// Nanoseconds per call of one run, and the sum of the calls' results.
    private static func run(_ clock: TimeSource, _ iterations: Int, _ body: (Int) throws -> Int) rethrows -> (Double, Int) {
        var sum = 0
        let start = clock.now()
        for index in 0..<iterations { sum &+= try body(index) }
        return (Double(clock.now() - start) / Double(iterations), sum)
    }
}
