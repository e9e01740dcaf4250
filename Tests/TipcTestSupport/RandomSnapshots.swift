import TipRuntime

/// Random replicas of one user's store, for the merge laws and the store conformance suite:
/// every record (experiment assignments, actions, exposures and arms included) comes from one universe (an id always names the same record on every replica,
/// as copies of a store share records), each replica holds a random subset of it, parameters
/// collide on stamps as copies of one device do, and strings hold what a store must keep
/// exactly (U+0000, non-ASCII, ids whose Unicode and byte orders differ).
public enum RandomSnapshots {
    public static let devices = ["a", "b", "c", "a\u{0}", "é", "e\u{301}"]

    public static func stamp(_ g: inout SeededGenerator) -> Stamp {
        Stamp(milliseconds: Int64.random(in: 0..<20, using: &g), device: devices.randomElement(using: &g)!)
    }

    public struct Universe: Sendable {
        public var donations: [DonationRecord] = []
        public var tipRecords: [TipEventRecord] = []
        /// Several per experiment and salt (devices that assigned before they synced), so that
        /// replicas disagree and the merge must pick the earliest.
        public var assignments: [AssignmentRecord] = []
    }

    public static func universe(_ g: inout SeededGenerator) -> Universe {
        var universe = Universe()
        for index in 0..<12 {
            universe.donations.append(DonationRecord(id: "d\(index)", event: "e\(index % 3)", date: Int64.random(in: 0..<8, using: &g) * 1000,
                                                     value: index % 2 == 0 ? ["n": .int(Int64(index)), "s": .string("x\u{0}\(index)")] : [:]))
        }
        for index in 0..<12 {
            let kind: TipEventRecord.Kind
            var arm: String?
            switch Int.random(in: 0..<5, using: &g) {
            case 0:
                kind = .display(count: Int64.random(in: 0...1, using: &g), milliseconds: Int64.random(in: 0..<5, using: &g) * 1000)
                arm = ["control", "short", nil].randomElement(using: &g)!
            case 1: kind = .invalidation(InvalidationReason.allCases.randomElement(using: &g)!)
            case 2: kind = .action(["favorite", "a\u{0}é"].randomElement(using: &g)!)
            case 3:
                kind = .exposure(experiment: "copy")
                arm = "holdout"
            default: kind = .reset
            }
            // Format 2: records of instances of a keyed tip (keys of both types), and records
            // dated before their stamp.
            let key: TipKey? = [nil, .int(Int64.random(in: -2...2, using: &g)), .string("k\u{0}é")].randomElement(using: &g)!
            let stamp = stamp(&g)
            universe.tipRecords.append(TipEventRecord(id: "r\(index)", tip: ["t1", "t2"].randomElement(using: &g)!, key: key, stamp: stamp,
                                                      kind: kind, date: stamp.milliseconds - Int64.random(in: 0...1, using: &g), arm: arm))
        }
        for index in 0..<8 {
            // Ids whose Unicode and byte orders differ, and dates that tie.
            universe.assignments.append(AssignmentRecord(id: ["a\(index)", "e\u{301}\(index)", "é\(index)"].randomElement(using: &g)!,
                                                         experiment: ["copy", "x\u{0}"].randomElement(using: &g)!,
                                                         salt: ["copy", "copy-2"].randomElement(using: &g)!,
                                                         arm: ["control", "short", "holdout"].randomElement(using: &g)!,
                                                         date: Int64.random(in: 0..<3, using: &g)))
        }
        return universe
    }

    /// A replica: a random part of `universe`, random parameters, a latest first display and
    /// donation deletions.
    public static func snapshot(_ universe: Universe, _ g: inout SeededGenerator) -> StoreSnapshot {
        var snapshot = StoreSnapshot()
        for donation in universe.donations where Bool.random(using: &g) { snapshot.donations[donation.id] = donation }
        for record in universe.tipRecords where Bool.random(using: &g) { snapshot.tipRecords[record.id] = record }
        for assignment in universe.assignments where Bool.random(using: &g) { try! snapshot.insert(assignment) }
        let values: [RuntimeValue] = [.int(0), .int(1), .string(""), .string("\u{0}"), .string("é"), .double(-0.5)]
        for name in ["p", "q"] where Bool.random(using: &g) {
            snapshot.parameters[name] = ParameterRecord(value: values.randomElement(using: &g)!, stamp: stamp(&g))
        }
        if Bool.random(using: &g) { snapshot.latestFirstDisplay = Int64.random(in: 0..<10, using: &g) }
        for event in ["e0", "e1", "e2"] where Int.random(in: 0..<3, using: &g) == 0 {
            snapshot.donationDeletions[event] = Int64.random(in: 0..<8, using: &g) * 1000
        }
        return snapshot
    }
}
