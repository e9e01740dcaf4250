#if canImport(Glibc)
import Glibc
#endif

/// Timing and memory measurement for the benchmarks: medians of repeated runs on a monotonic
/// clock, and the process's peak resident memory.
enum Measure {
    /// Nanoseconds on the monotonic clock.
    static func now() -> UInt64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
    }

    /// The median wall time of `runs` executions of `body`, in nanoseconds.
    static func median(runs: Int, _ body: () -> Void) -> Double {
        var samples: [UInt64] = []
        samples.reserveCapacity(runs)
        for _ in 0..<runs {
            let start = now()
            body()
            samples.append(now() - start)
        }
        samples.sort()
        return Double(samples[samples.count / 2])
    }

    /// The median of `samples` (the upper one of an even count).
    static func median(of samples: [Double]) -> Double {
        guard !samples.isEmpty else { return 0 }
        return samples.sorted()[samples.count / 2]
    }

    /// The peak resident set size so far (`VmHWM`), in bytes.
    static func peakResidentBytes() -> Int {
        residentField("VmHWM:")
    }

    /// The current resident set size (`VmRSS`), in bytes.
    static func residentBytes() -> Int {
        residentField("VmRSS:")
    }

    /// Gives memory freed so far back to the system, so that a later resident-size reading
    /// shows what is really held (glibc keeps freed heap otherwise).
    static func releaseFreedMemory() {
        // glibc's malloc_trim, looked up at run time (its header is not part of the Glibc module).
        typealias Trim = @convention(c) (Int) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "malloc_trim") else { return }
        _ = unsafeBitCast(symbol, to: Trim.self)(0)
    }

    /// Makes glibc's malloc serve every block of at least `bytes` from its own mapping, unmapped
    /// when freed, from now on (`mallopt(M_MMAP_THRESHOLD, bytes)`, which also stops the
    /// threshold from moving), so that resident sizes follow what is allocated.
    static func fixMmapThreshold(_ bytes: Int32) {
        // mallopt, looked up at run time like malloc_trim; M_MMAP_THRESHOLD is -3.
        typealias Option = @convention(c) (Int32, Int32) -> Int32
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "mallopt") else { return }
        precondition(unsafeBitCast(symbol, to: Option.self)(-3, bytes) == 1, "mallopt refused the threshold")
    }

    /// Resets the peak resident size to the current one, so a later `peakResidentBytes()`
    /// measures only what comes after (Linux: write 5 to /proc/self/clear_refs).
    static func resetPeak() {
        if let file = fopen("/proc/self/clear_refs", "w") {
            fputs("5", file)
            fclose(file)
        }
    }

    private static func residentField(_ name: String) -> Int {
        guard let file = fopen("/proc/self/status", "r") else { return 0 }
        defer { fclose(file) }
        var line = [CChar](repeating: 0, count: 256)
        while fgets(&line, Int32(line.count), file) != nil {
            let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            if text.hasPrefix(name) {
                let digits = text.dropFirst(name.count).filter { $0.isNumber }
                return (Int(digits) ?? 0) * 1024
            }
        }
        return 0
    }
}

/// One line of benchmark output: a figure beside its floor and their ratio.
struct Report {
    static func header(_ title: String) {
        print("\n== \(title)")
    }

    static func ratio(_ label: String, value: Double, floor: Double, floorLabel: String, unit: String, target: Double? = nil) {
        let ratio = value / floor
        var line = "\(label): \(format(value)) \(unit)  |  \(floorLabel): \(format(floor)) \(unit)  |  ratio \(format(ratio, digits: 2))×"
        if let target { line += ratio <= target ? "  (target ≤ \(format(target, digits: 1))×: met)" : "  (target ≤ \(format(target, digits: 1))×: NOT met)" }
        print(line)
    }

    static func figure(_ label: String, _ value: Double, unit: String, note: String = "") {
        print("\(label): \(format(value)) \(unit)\(note.isEmpty ? "" : "  \(note)")")
    }

    static func format(_ value: Double, digits: Int = 1) -> String {
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let rounded = (value * scale).rounded() / scale
        var text = String(rounded)
        if let dot = text.firstIndex(of: ".") {
            let decimals = text.distance(from: dot, to: text.endIndex) - 1
            if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
        }
        return text
    }
}
