import TipRuntime

/// Experiment assignment: `ExperimentAssignment.arm(for:)` per call, beside SHA-256 alone over
/// the same messages (salt, zero byte and unit, built before timing), which the assignment
/// cannot beat: it hashes the same bytes, then copies the unit in and finds the arm. One
/// thread, CPU time: run under `taskset -c 0`.
func runExperimentBenchmarks() {
    Report.header("Experiment assignment (one thread, CPU time)")
    let salt = "favoriteCopy-1"
    let assignment: ExperimentAssignment
    do {
        assignment = try ExperimentAssignment(salt: salt, arms: [("control", 45), ("short", 45), ("holdout", 10)])
    } catch {
        fatalError("the benchmark's arms are refused: \(error)")
    }
    // Units of the lengths apps use: numeric ids, prefixed ids, UUIDs.
    let caseCount = 1 << 14
    var generator = SeededRandom(seed: 7)
    let units: [String] = (0..<caseCount).map { index in
        switch index % 3 {
        case 0: String(generator.next() % 10_000_000)
        case 1: "user-\(generator.next() % 1_000_000)"
        default: uuidText(generator.next(), generator.next())
        }
    }
    let messages = units.map { Array(salt.utf8) + [0] + Array($0.utf8) }
    let mask = caseCount - 1
    let timing = PairedTiming(clock: .threadCPU, iterations: 200_000,
        measured: { index in assignment.arm(for: units[index & mask]).weight },
        floor: { index in
            messages[index & mask].withUnsafeBytes { Int(SHA256.words($0)[0] & 0xFF) }
        })
    // Check the arms against the buckets: the assignment must be the one the floor's hash gives.
    for (unit, message) in zip(units, messages) {
        let words = SHA256.words(message)
        let bucket = Int((UInt64(words[0]) << 32 | UInt64(words[1])) % 10_000)
        precondition(assignment.bucket(for: unit) == bucket, "the assignment's bucket differs from SHA-256's")
        precondition(assignment.arm(for: unit).weight == (bucket < 9_000 ? 45 : 10), "a unit is in the wrong arm")
    }
    Report.ratio("arm(for:) of a unit (45/45/10, ids of 7–36 bytes)", value: timing.measured, floor: timing.floor,
                 floorLabel: "SHA-256 of the same message", unit: "ns")
}

/// A UUID's text from two random words.
private func uuidText(_ high: UInt64, _ low: UInt64) -> String {
    let digits = Array("0123456789ABCDEF")
    var text = ""
    for index in 0..<32 {
        if index == 8 || index == 12 || index == 16 || index == 20 { text.append("-") }
        let word = index < 16 ? high : low
        let shift = UInt64(60 - 4 * (index % 16))
        text.append(digits[Int((word >> shift) & 0xF)])
    }
    return text
}
