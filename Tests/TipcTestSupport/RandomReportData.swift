import TipRuntime

/// Users' records for the report's differential tests: the same seeded users are counted by
/// the Swift definition and by each store's SQL. Names are fixed so that a test can build the
/// report's plan: experiment `copy` on tip `hint` (salt `copy-2`, arms `control` 2, `short` 2,
/// `holdout` 1, goal `used` within `goalWindow`), experiment `other` on tip `hint2` (salt
/// `other`, arms `a` 1, `b` 1, goal `used` within `goalWindow`), and tips `plain` (goal `used`
/// within `plainWindow`) and `bare` (no goal). Some users hold assignments of an old salt or of
/// an arm the pack no longer has, records carrying another arm, and records and donations
/// dated around `cutoff`, so that every rule of the counts is exercised.
public enum RandomReportData {
    public static let start: Int64 = 1_780_000_000_000
    public static let goalWindow: Int64 = 2_000
    public static let plainWindow: Int64 = 1_000
    /// An instant inside the records' range, for reports "at" it.
    public static let cutoff: Int64 = start + 6_000

    /// The experiments the users are made for: name, tip, salt, goal event and window, arms.
    public static let experiments: [(name: String, tip: String, salt: String, goalEvent: String, goalWindow: Int64, arms: [(name: String, weight: Int)])] = [
        ("copy", "hint", "copy-2", "used", goalWindow, [("control", 2), ("short", 2), ("holdout", 1)]),
        ("other", "hint2", "other", "used", goalWindow, [("a", 1), ("b", 1)]),
    ]
    /// The tips outside experiments, with their goals.
    public static let tips: [(id: String, goal: (event: String, windowMilliseconds: Int64)?)] = [("plain", ("used", plainWindow)), ("bare", nil)]

    /// `count` users: their ids and records (each user's records on one device).
    public static func users(_ count: Int, _ g: inout SeededGenerator) -> [(id: String, snapshot: StoreSnapshot)] {
        (0..<count).map { index in
            let id = "user-\(index)"
            return (id, snapshot(user: id, &g))
        }
    }

    static func snapshot(user: String, _ g: inout SeededGenerator) -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        // On a coarse grid (100 ms, as the windows and the cutoff are), so that donations fall
        // exactly on an exposure, a window's end or the cutoff often.
        func date() -> Int64 { start + 100 * Int64.random(in: 0..<100, using: &g) }
        func pick<T>(_ values: [T]) -> T { values[Int.random(in: 0..<values.count, using: &g)] }
        var arms: [String: String] = [:]
        for (experiment, salts, names) in [("copy", ["copy-2", "copy-2", "copy-2", "copy-1"], ["control", "short", "holdout", "gone"]),
                                           ("other", ["other"], ["a", "b"])] where Int.random(in: 0..<10, using: &g) < 8 {
            let assignment = AssignmentRecord(id: "as-\(user)-\(experiment)", experiment: experiment, salt: pick(salts), arm: pick(names), date: date())
            snapshot.assignments[assignment.key] = assignment
            arms[experiment] = assignment.arm
        }
        var serial = 0
        for _ in 0..<Int.random(in: 0..<12, using: &g) {
            serial += 1
            let tip = pick(["hint", "hint", "hint2", "plain", "bare"])
            let experiment = tip == "hint" ? "copy" : "other"
            let kind: TipEventRecord.Kind
            var arm: String?
            switch Int.random(in: 0..<10, using: &g) {
            case 0..<4:
                kind = .display(count: pick([1, 1, 1, 0]), milliseconds: Int64.random(in: 0..<5_000, using: &g))
                if tip == "hint" || tip == "hint2" { arm = pick([arms[experiment], arms[experiment], "short", nil]) }
            case 4:
                kind = .exposure(experiment: pick([experiment, experiment, "elsewhere"]))
                arm = pick([arms[experiment] ?? "holdout", "holdout"])
            case 5, 6: kind = .action(pick(["ok", "later", "é"]))
            case 7, 8: kind = .invalidation(pick(InvalidationReason.allCases))
            default: kind = .reset
            }
            let when = date()
            let record = TipEventRecord(id: "r-\(user)-\(serial)", tip: tip, stamp: Stamp(milliseconds: when + 1, device: "device-\(user)"),
                                        kind: kind, date: when, arm: arm)
            snapshot.tipRecords[record.id] = record
        }
        for _ in 0..<Int.random(in: 0..<6, using: &g) {
            serial += 1
            let donation = DonationRecord(id: "d-\(user)-\(serial)", event: pick(["used", "used", "opened"]), date: date(), value: [:])
            snapshot.donations[donation.id] = donation
        }
        return snapshot
    }
}
