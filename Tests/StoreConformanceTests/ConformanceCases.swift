import Testing
import TipRuntime
import TipcTestSupport

/// One case of the suite: scripts of store operations, each run on a new, empty store.
struct ConformanceCase: Sendable, CustomTestStringConvertible {
    let name: String
    let scripts: [[StoreOperation]]
    /// Every script ends in the same state (a law: the order of merges or writes does not matter).
    let isLaw: Bool

    init(_ name: String, law: Bool = false, _ scripts: [[StoreOperation]]) {
        self.name = name
        self.scripts = scripts
        isLaw = law
    }

    var testDescription: String { name }
}

extension ConformanceCase {
    static let all: [ConformanceCase] = writesAndReads + parameters + tipRecords + analyticsRecords + assignments + donationLimits + deletions
        + merges + bounds

    // MARK: - Fixtures

    static func donation(_ id: String, event: String = "e", _ date: Int64, _ value: [String: RuntimeValue] = [:]) -> DonationRecord {
        DonationRecord(id: id, event: event, date: date, value: value)
    }

    static func stamp(_ milliseconds: Int64, device: String = "a") -> Stamp { Stamp(milliseconds: milliseconds, device: device) }

    static func parameter(_ value: RuntimeValue, _ milliseconds: Int64, device: String = "a") -> ParameterRecord {
        ParameterRecord(value: value, stamp: stamp(milliseconds, device: device))
    }

    static func record(_ id: String, tip: String = "t", key: TipKey? = nil, _ milliseconds: Int64, device: String = "a",
                       _ kind: TipEventRecord.Kind, date: Int64? = nil, arm: String? = nil) -> TipEventRecord {
        TipEventRecord(id: id, tip: tip, key: key, stamp: stamp(milliseconds, device: device), kind: kind, date: date, arm: arm)
    }

    static func assignment(_ id: String, experiment: String = "x", salt: String = "x", arm: String = "control", _ date: Int64) -> AssignmentRecord {
        AssignmentRecord(id: id, experiment: experiment, salt: salt, arm: arm, date: date)
    }

    /// Strings a store must keep exactly: U+0000, combining marks, other planes, separators.
    static let strings = ["", "a\u{0}b\u{0}", "\u{0}", "é", "e\u{301}", "\u{301}leading mark", "🧑‍🚀", "=;\\", "tab\tnew\nline",
                          "\u{FFFF}\u{10FFFF}", String(repeating: "x", count: 70_000)]
    /// Values of every type, at their extremes.
    static let values: [RuntimeValue] = strings.map { .string($0) } + [
        .int(.min), .int(.max), .int(0), .int(-1), .double(-0.0), .double(.pi), .double(.infinity), .double(-.infinity),
        .double(.leastNonzeroMagnitude), .double(.greatestFiniteMagnitude), .bool(true), .bool(false),
        .date(milliseconds: .min), .date(milliseconds: .max), .duration(milliseconds: 0), .duration(milliseconds: .max),
    ]

    // MARK: - Writes and reads

    static let writesAndReads: [ConformanceCase] = [
        ConformanceCase("every value and string is kept exactly", [[
            .append(values.enumerated().map { index, value in
                donation("d\(index)\u{0}", event: "ev\u{0}\(index % 3)", Int64(index) - 5, ["f\u{0}=": value, "g": .int(1)])
            }),
            .write(parameters: Dictionary(uniqueKeysWithValues: values.enumerated().map { index, value in
                ("p\(index)\u{0}", parameter(value, .max - Int64(index), device: "dev\u{0}ice"))
            })),
            .add([record("r\u{0}", tip: "tip\u{0}é", .min, device: "", .display(count: .max, milliseconds: .max))]
                 + InvalidationReason.allCases.map { record("i-\($0.rawValue)", 1, device: "d", .invalidation($0)) }
                 + [record("reset", 2, device: "d", .reset)],
                 latestFirstDisplay: .min + 1),
        ]]),
        ConformanceCase("records of keyed tips keep their key's type, and dates apart from stamps", [[
            .add([record("k1", key: .int(-2), 5, .display(count: 1, milliseconds: 0), date: 4),
                  record("k2", key: .string("-2"), 5, .display(count: 1, milliseconds: 0)),
                  record("k3", key: .string("k\u{0}é"), 6, .invalidation(.tipClosed), date: .min),
                  record("k4", key: .int(.max), 7, .reset, date: .max)], latestFirstDisplay: nil),
        ]]),
        ConformanceCase("donations are listed by date, then by their ids' bytes", [[
            // "e\u{301}" sorts after "f" by Unicode and before it by bytes.
            .append([donation("f", 1), donation("e\u{301}", 1), donation("a", 2), donation("z", 0)]),
        ]]),
        ConformanceCase("the same donation again changes nothing; another under its id collides and nothing is added", [[
            .append([donation("x", 1, ["n": .int(1)]), donation("y", 2)]),
            .append([donation("x", 1, ["n": .int(1)])]),
            .append([donation("z", 3), donation("x", 1, ["n": .int(2)])]),
            .append([donation("w", 4), donation("w", 5)]),
            .append([donation("v", 6), donation("v", 6)]),
        ]]),
        ConformanceCase("clear removes everything, and writes work again afterwards", [[
            .append([donation("x", 1)]),
            .write(parameters: ["p": parameter(.int(1), 5)]),
            .add([record("r", 1, .reset)], latestFirstDisplay: 7),
            .deleteDonations(event: "e", through: 0),
            .clear,
            .add([record("r", 1, .invalidation(.actionPerformed))], latestFirstDisplay: 3),
            .write(parameters: ["p": parameter(.int(2), 1)]),
        ]]),
    ]

    // MARK: - Parameters: last writer wins

    static let parameters: [ConformanceCase] = [
        ConformanceCase("the later stamp wins, whichever is written first", law: true, [
            [.write(parameters: ["p": parameter(.int(1), 1)]), .write(parameters: ["p": parameter(.int(2), 2)])],
            [.write(parameters: ["p": parameter(.int(2), 2)]), .write(parameters: ["p": parameter(.int(1), 1)])],
        ]),
        ConformanceCase("at one instant the device's bytes decide", law: true, [
            // "é" is greater than "e\u{301}" by bytes, though Unicode calls them equal.
            [.write(parameters: ["p": parameter(.int(1), 5, device: "é")]), .write(parameters: ["p": parameter(.int(2), 5, device: "e\u{301}")]),
             .write(parameters: ["p": parameter(.int(3), 5, device: "a\u{0}")])],
            [.write(parameters: ["p": parameter(.int(3), 5, device: "a\u{0}")]), .write(parameters: ["p": parameter(.int(2), 5, device: "e\u{301}")]),
             .write(parameters: ["p": parameter(.int(1), 5, device: "é")])],
        ]),
        ConformanceCase("on one stamp the greater stored value's bytes win", law: true, [
            [.write(parameters: ["p": parameter(.string("b"), 5), "q": parameter(.int(9), 5)]),
             .write(parameters: ["p": parameter(.string("a\u{0}"), 5), "q": parameter(.int(10), 5)])],
            [.write(parameters: ["p": parameter(.string("a\u{0}"), 5), "q": parameter(.int(10), 5)]),
             .write(parameters: ["p": parameter(.string("b"), 5), "q": parameter(.int(9), 5)])],
        ]),
        ConformanceCase("writing a parameter again is idempotent", [[
            .write(parameters: ["p": parameter(.double(-0.5), 3)]), .write(parameters: ["p": parameter(.double(-0.5), 3)]),
        ]]),
    ]

    // MARK: - Tip records

    static let tipRecords: [ConformanceCase] = [
        ConformanceCase("tip records are a union; another record under an id collides and nothing of its write is kept", [[
            .add([record("r1", 1, .display(count: 1, milliseconds: 10)), record("r2", 2, .reset)], latestFirstDisplay: 5),
            .add([record("r1", 1, .display(count: 1, milliseconds: 10))], latestFirstDisplay: 3),
            .add([record("r3", 3, .reset), record("r2", 2, .invalidation(.tipClosed))], latestFirstDisplay: 9),
            .add([record("r4", 4, .reset), record("r4", 4, device: "b", .reset)], latestFirstDisplay: nil),
            .add([], latestFirstDisplay: 8),
        ]]),
        ConformanceCase("copies of one version-1 display counter merge to the larger figures and the earlier stamp", law: true, [
            [.add([record("v1-display:t:a::", 7, .display(count: 3, milliseconds: 100))], latestFirstDisplay: nil),
             .add([record("v1-display:t:a::", 4, .display(count: 2, milliseconds: 900))], latestFirstDisplay: nil)],
            [.add([record("v1-display:t:a::", 4, .display(count: 2, milliseconds: 900))], latestFirstDisplay: nil),
             .add([record("v1-display:t:a::", 7, .display(count: 3, milliseconds: 100))], latestFirstDisplay: nil)],
            [.add([record("v1-display:t:a::", 4, .display(count: 2, milliseconds: 900)),
                   record("v1-display:t:a::", 7, .display(count: 3, milliseconds: 100))], latestFirstDisplay: nil)],
        ]),
        ConformanceCase("records under a version-1 id that are not copies of one counter collide", [[
            .add([record("v1-display:t:a::", 7, .display(count: 3, milliseconds: 100))], latestFirstDisplay: nil),
            // Another tip, another device, a key, a date apart from the stamp, another kind.
            .add([record("v1-display:t:a::", tip: "u", 8, .display(count: 4, milliseconds: 100))], latestFirstDisplay: nil),
            .add([record("v1-display:t:a::", 8, device: "b", .display(count: 4, milliseconds: 100))], latestFirstDisplay: nil),
            .add([record("v1-display:t:a::", key: .int(1), 8, .display(count: 4, milliseconds: 100))], latestFirstDisplay: nil),
            .add([record("v1-display:t:a::", 8, .display(count: 4, milliseconds: 100), date: 2)], latestFirstDisplay: nil),
            .add([record("v1-display:t:a::", 8, .reset)], latestFirstDisplay: nil),
            // The prefix is exact: other letters' case is another id space.
            .add([record("V1-DISPLAY:t:a::", 7, .display(count: 3, milliseconds: 100))], latestFirstDisplay: nil),
            .add([record("V1-DISPLAY:t:a::", 8, .display(count: 4, milliseconds: 100))], latestFirstDisplay: nil),
        ]]),
    ]

    // MARK: - Actions, exposures and arms

    static let analyticsRecords: [ConformanceCase] = [
        ConformanceCase("actions, exposures and arms are kept exactly, of keyed tips too", [[
            .add([record("a1", 1, .action("favorite")),
                  record("a2", key: .int(-3), 2, .action("a\u{0}é=;"), date: -5),
                  record("e1", key: .string("k\u{0}"), 3, .exposure(experiment: "copy\u{0}é"), arm: "hold\u{0}out"),
                  record("d1", 4, .display(count: 1, milliseconds: 20), arm: "e\u{301}"),
                  record("d2", 5, .display(count: 1, milliseconds: 0))], latestFirstDisplay: 4),
        ]]),
        ConformanceCase("an action tapped again is a record of its own; the same tap again changes nothing", [[
            .add([record("tap1", 1, .action("favorite"))], latestFirstDisplay: nil),
            .add([record("tap1", 1, .action("favorite"))], latestFirstDisplay: nil),
            .add([record("tap2", 1, .action("favorite"))], latestFirstDisplay: nil),
        ]]),
        ConformanceCase("a record under an action's id that differs in action, arm or kind collides", [[
            .add([record("r", 1, .action("favorite")), record("s", 1, .display(count: 1, milliseconds: 0), arm: "short"),
                  record("x", 1, .exposure(experiment: "copy"), arm: "holdout")], latestFirstDisplay: nil),
            .add([record("r", 1, .action("other"))], latestFirstDisplay: nil),
            .add([record("s", 1, .display(count: 1, milliseconds: 0), arm: "control")], latestFirstDisplay: nil),
            .add([record("s", 1, .display(count: 1, milliseconds: 0))], latestFirstDisplay: nil),
            .add([record("x", 1, .exposure(experiment: "copy2"), arm: "holdout")], latestFirstDisplay: nil),
            .add([record("r", 1, .exposure(experiment: "favorite"), arm: "holdout")], latestFirstDisplay: nil),
        ]]),
        ConformanceCase("copies of a version-1 display counter with an arm do not merge: they collide", [[
            .add([record("v1-display:t:a::", 7, .display(count: 3, milliseconds: 100))], latestFirstDisplay: nil),
            .add([record("v1-display:t:a::", 8, .display(count: 4, milliseconds: 100), arm: "short")], latestFirstDisplay: nil),
        ]]),
    ]

    // MARK: - Assignments: the earliest holds

    static let assignments: [ConformanceCase] = [
        ConformanceCase("the earliest assignment holds, whichever is stored first", law: true, [
            [.assign([assignment("b", arm: "short", 5)]), .assign([assignment("a", arm: "control", 7)]), .assign([assignment("c", 5)])],
            [.assign([assignment("c", 5)]), .assign([assignment("a", arm: "control", 7)]), .assign([assignment("b", arm: "short", 5)])],
            [.assign([assignment("a", arm: "control", 7), assignment("c", 5), assignment("b", arm: "short", 5)])],
            [.merge(StoreSnapshot(assignments: [assignment("c", 5).key: assignment("c", 5)])), .assign([assignment("b", arm: "short", 5)])],
        ]),
        ConformanceCase("at one date the id's bytes decide", law: true, [
            // "é" is greater than "e\u{301}" by bytes, though Unicode calls them equal.
            [.assign([assignment("é", arm: "one", 1)]), .assign([assignment("e\u{301}", arm: "two", 1)])],
            [.assign([assignment("e\u{301}", arm: "two", 1)]), .assign([assignment("é", arm: "one", 1)])],
        ]),
        ConformanceCase("experiments and salts each keep their own assignment; strings are kept exactly", [[
            .assign([assignment("1", experiment: "x\u{0}é", salt: "s\u{0}", arm: "a\u{0}", .min + 1),
                     assignment("2", experiment: "x\u{0}é", salt: "s2", arm: "b", .max),
                     assignment("3", experiment: "y", salt: "s\u{0}", arm: "c", 0),
                     assignment("4", experiment: "e\u{301}", salt: "é", arm: "d", 0),
                     assignment("5", experiment: "é", salt: "é", arm: "e", 0)]),
        ]]),
        ConformanceCase("the same assignment again changes nothing; another under its id collides and nothing of its write is kept", [[
            .assign([assignment("a", 5)]),
            .assign([assignment("a", 5)]),
            .assign([assignment("b", experiment: "other", 1), assignment("a", arm: "short", 5)]),
            .assign([assignment("c", experiment: "third", 1), assignment("a", 9)]),
            .merge(StoreSnapshot(donations: ["d": donation("d", 1)], assignments: [assignment("a", 2).key: assignment("a", 2)])),
        ]]),
        ConformanceCase("clear removes assignments", [[
            .assign([assignment("a", 5)]),
            .clear,
            .assign([assignment("b", arm: "short", 9)]),
        ]]),
    ]

    // MARK: - donationLimit

    static let donationLimits: [ConformanceCase] = {
        var cases = [
            ConformanceCase("trimming keeps the newest, same-instant ones by their ids' bytes", [[
                .append([donation("f", 1), donation("e\u{301}", 1), donation("g", 0), donation("other", event: "o", 0)]),
                .trim(event: "e", maximumCount: 2, maximumAgeMilliseconds: nil, now: 10),
                .trim(event: "e", maximumCount: 1, maximumAgeMilliseconds: nil, now: 10),
            ]]),
            ConformanceCase("trimming by age is relative to now, never to the newest donation", [[
                .append([donation("a", 0), donation("b", 5), donation("c", 1_000_000)]),
                .trim(event: "e", maximumCount: nil, maximumAgeMilliseconds: 3, now: 5),
                .trim(event: "e", maximumCount: nil, maximumAgeMilliseconds: .max, now: .min),
                .trim(event: "e", maximumCount: -1, maximumAgeMilliseconds: .min, now: 0),
            ]]),
        ]
        var g = SeededGenerator(seed: 99)
        var scripts: [[StoreOperation]] = []
        for _ in 0..<12 {
            let donations = (0..<10).map { index in
                donation(RecordID.random(), event: index % 4 == 0 ? "other" : "e", Int64.random(in: 0..<6, using: &g) * 1000)
            }
            let count: Int64? = Bool.random(using: &g) ? Int64.random(in: -1..<8, using: &g) : nil
            let age: Int64? = Bool.random(using: &g) ? Int64.random(in: 0..<6, using: &g) * 1000 : nil
            scripts.append([.append(donations),
                            .trim(event: "e", maximumCount: count, maximumAgeMilliseconds: age, now: Int64.random(in: 2..<8, using: &g) * 1000)])
        }
        cases.append(ConformanceCase("random limits trim what the definition trims", scripts))
        return cases
    }()

    // MARK: - deleteDonations

    static let deletions: [ConformanceCase] = [
        ConformanceCase("a deletion removes its event's donations through its instant; the later deletion stays", [[
            .append([donation("a", 1), donation("b", 2), donation("c", 3), donation("o", event: "other", 1)]),
            .deleteDonations(event: "e", through: 2),
            .deleteDonations(event: "e", through: 1),
            .deleteDonations(event: "absent", through: -7),
        ]]),
        ConformanceCase("donations a merged deletion covers stay stored until the next deletion", [[
            .merge(StoreSnapshot(donations: ["a": donation("a", 1), "b": donation("b", 5)], donationDeletions: ["e": 3])),
            .append([donation("c", 2)]),
            .deleteDonations(event: "e", through: 0),
        ]]),
        ConformanceCase("deletions merge to the later instant", law: true, [
            [.merge(StoreSnapshot(donationDeletions: ["e": 3, "f": 1])), .merge(StoreSnapshot(donationDeletions: ["e": 2, "g": 0]))],
            [.merge(StoreSnapshot(donationDeletions: ["e": 2, "g": 0])), .merge(StoreSnapshot(donationDeletions: ["e": 3, "f": 1]))],
            [.deleteDonations(event: "e", through: 2), .merge(StoreSnapshot(donationDeletions: ["e": 3, "f": 1, "g": 0]))],
        ]),
    ]

    // MARK: - Merges

    static let merges: [ConformanceCase] = {
        var cases = [
            ConformanceCase("a collision merges nothing of the snapshot", [[
                .merge(StoreSnapshot(donations: ["x": donation("x", 1)], tipRecords: ["r": record("r", 5, .reset)])),
                .merge(StoreSnapshot(donations: ["y": donation("y", 2), "x": donation("x", 3)],
                                     parameters: ["p": parameter(.int(1), 5)], latestFirstDisplay: 9, donationDeletions: ["e": 9])),
                .merge(StoreSnapshot(donations: ["y": donation("y", 2)], tipRecords: ["r": record("r", 5, .invalidation(.tipClosed))])),
            ]]),
        ]
        // Random replicas of one universe, merged in every order the laws allow.
        var g = SeededGenerator(seed: 20_261_201)
        for number in 1...6 {
            let universe = RandomSnapshots.universe(&g)
            let a = RandomSnapshots.snapshot(universe, &g), b = RandomSnapshots.snapshot(universe, &g)
            let c = RandomSnapshots.snapshot(universe, &g)
            // Replicas of one universe never collide.
            let ab = try! a.merged(with: b), bc = try! b.merged(with: c)
            cases.append(ConformanceCase("random replicas \(number): commutative, associative and idempotent", law: true, [
                [.merge(a), .merge(b), .merge(c)],
                [.merge(c), .merge(b), .merge(a)],
                [.merge(a), .merge(bc)],
                [.merge(ab), .merge(c)],
                [.merge(b), .merge(a), .merge(c), .merge(c), .merge(ab)],
            ]))
        }
        return cases
    }()

    // MARK: - RecordBounds

    static let bounds: [ConformanceCase] = {
        let earliest = RecordBounds.earliestMilliseconds, latest = RecordBounds.latestMilliseconds
        let atBounds = StoreSnapshot(
            donations: ["first": donation("first", earliest), "last": donation("last", latest)],
            parameters: ["p": parameter(.int(1), latest, device: "z"), "q": parameter(.int(2), earliest)],
            tipRecords: ["r": record("r", earliest, .reset, date: latest), "s": record("s", latest, .invalidation(.tipClosed), date: earliest)],
            latestFirstDisplay: latest, donationDeletions: ["e": earliest],
            assignments: [assignment("a", experiment: "x", earliest).key: assignment("a", experiment: "x", earliest),
                          assignment("b", experiment: "y", latest).key: assignment("b", experiment: "y", latest)])
        return [
            ConformanceCase("records at the bounds are kept exactly, and a write stamped earlier loses to them", [[
                .merge(atBounds),
                .write(parameters: ["p": parameter(.int(9), latest - 1, device: "z"), "q": parameter(.int(9), earliest, device: "b")]),
                .add([], latestFirstDisplay: latest - 1),
                .assign([assignment("c", experiment: "x", earliest), assignment("d", experiment: "y", latest - 1)]),
            ]]),
        ]
    }()
}
