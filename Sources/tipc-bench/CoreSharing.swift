import Dispatch

/// Whether the machine's two cores run two threads at full speed at the moment: a fixed integer
/// workload timed on one thread, then on two at once. The host of a virtual machine sometimes
/// runs its two CPUs on one physical core for a stretch of seconds: two threads then take up to
/// twice as long, which slows the front end's two threads but not a floor measured on one.
enum CoreSharing {
    /// How much slower the workload ran on two threads at once than on one (1.0: two free cores).
    static func slowdown() -> Double {
        var sink: UInt64 = 0
        let seed = Measure.now()
        var start = Measure.now()
        sink &+= spin(seed)
        let alone = Measure.now() - start
        start = Measure.now()
        let done = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            _ = spin(seed)
            done.signal()
        }
        sink &+= spin(seed &+ 2)
        done.wait()
        let pair = Measure.now() - start
        // The workload's result is used, so that it is not optimised away.
        return sink == 0 ? 0 : Double(pair) / Double(alone)
    }

    /// Four independent streams of two million multiply-adds (a few milliseconds), which keep
    /// a core's multipliers busy: two of them share a core's time only if they share a core.
    private static func spin(_ seed: UInt64) -> UInt64 {
        var (a, b, c, d) = (seed | 1, seed | 3, seed | 5, seed | 7)
        for _ in 0..<2_000_000 {
            a = a &* 6_364_136_223_846_793_005 &+ 1
            b = b &* 6_364_136_223_846_793_005 &+ 3
            c = c &* 6_364_136_223_846_793_005 &+ 5
            d = d &* 6_364_136_223_846_793_005 &+ 7
        }
        return a ^ b ^ c ^ d
    }
}
