import Foundation
import Testing
import TipRuntime
import TipcTestSupport

@Suite("Experiment assignment")
struct ExperimentAssignmentTests {
    static let copyArms: [(name: String, weight: Int)] = [("control", 45), ("short", 45), ("holdout", 10)]

    /// Python's own SHA-256 and the same bucket and range arithmetic, written from the
    /// definition: for each case `[salt, unit, weights]`, `[bucket, arm index]`.
    static let pythonAssignment = """
        import hashlib, json, sys
        def assign(salt, unit, weights):
            digest = hashlib.sha256(salt.encode('utf-8') + b'\\x00' + unit.encode('utf-8')).digest()
            bucket = int.from_bytes(digest[:8], 'big') % 10000
            total, before = sum(weights), 0
            for index, weight in enumerate(weights):
                if 10000 * before // total <= bucket < 10000 * (before + weight) // total:
                    return [bucket, index]
                before += weight
        print(json.dumps([assign(*case) for case in json.load(sys.stdin)]))
        """

    @Test func sha256MatchesFIPS180Vectors() {
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(SHA256.hex([UInt8](repeating: 0x61, count: 1_000_000)) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    }

    /// Every length around the padding's edges (55, 56, 63, 64 bytes …), against hashlib.
    @Test func sha256MatchesPythonAtEveryPaddingLength() throws {
        let messages = (0...130).map { length in String((0..<length).map { Character(UnicodeScalar(UInt8(97 + $0 % 26))) }) }
        let script = "import hashlib, json, sys\nprint(json.dumps([hashlib.sha256(m.encode()).hexdigest() for m in json.load(sys.stdin)]))"
        let expected = try #require(try SystemPython.run(script, input: messages) as? [String])
        #expect(messages.map { SHA256.hex(Array($0.utf8)) } == expected)
        // A sequence without contiguous storage takes the same path.
        #expect(SHA256.hex(messages[100].utf8.lazy.map { $0 }) == expected[100])
    }

    @Test func bucketsAndArmsMatchAnIndependentImplementation() throws {
        let weightSets: [[(name: String, weight: Int)]] = [
            Self.copyArms, [("a", 1), ("b", 1)], [("a", 1), ("b", 1), ("c", 1)], [("a", 0), ("b", 3), ("c", 0), ("d", 7)],
            [("a", 1), ("b", 9_999)], [("only", 5)], [("a", 1_000_000_007), ("b", 3)],
        ]
        let units = ["", "user-1", "é", "e\u{301}", "👍🏽", "👩‍👩‍👧", "日本語のユーザー", "a\u{0}b", "\u{10FFFF}",
                     String(repeating: "x", count: 55), String(repeating: "y", count: 200)]
            + (0..<200).map { "account-\($0 * 7_919)" }
        let salts = ["favoriteCopy-1", "", "café", "🧪", String(repeating: "s", count: 70)]
        var cases: [(salt: String, unit: String, arms: [(name: String, weight: Int)])] = []
        for (index, unit) in units.enumerated() {
            cases.append((salts[index % salts.count], unit, weightSets[index % weightSets.count]))
        }
        let input = cases.map { [$0.salt, $0.unit, $0.arms.map(\.weight)] as [Any] }
        let expected = try #require(try SystemPython.run(Self.pythonAssignment, input: input) as? [[Int]])
        try #require(expected.count == cases.count)
        for (testCase, pair) in zip(cases, expected) {
            let assignment = try ExperimentAssignment(salt: testCase.salt, arms: testCase.arms)
            #expect(assignment.bucket(for: testCase.unit) == pair[0], "salt \(testCase.salt.debugDescription), unit \(testCase.unit.debugDescription)")
            #expect(assignment.arm(for: testCase.unit).name == testCase.arms[pair[1]].name,
                    "salt \(testCase.salt.debugDescription), unit \(testCase.unit.debugDescription)")
        }
    }

    /// UTF-8, not UTF-16 or Unicode normalization: canonically equal units are different units.
    @Test func unitsAreHashedAsTheirUTF8Bytes() throws {
        let assignment = try ExperimentAssignment(salt: "favoriteCopy", arms: [("control", 1), ("variant", 1)])
        #expect("é" == "e\u{301}")  // Swift's string equality is canonical equivalence …
        #expect(assignment.bucket(for: "é") == 9785)  // … the bytes differ, and so do the buckets
        #expect(assignment.bucket(for: "e\u{301}") == 9411)
    }

    @Test func armsTakeConsecutiveRangesInDeclaredOrder() throws {
        let copy = try ExperimentAssignment(salt: "s", arms: Self.copyArms)
        #expect((0..<3).map { copy.buckets(ofArm: $0) } == [0..<4_500, 4_500..<9_000, 9_000..<10_000])
        let thirds = try ExperimentAssignment(salt: "s", arms: [("a", 1), ("b", 1), ("c", 1)])
        #expect((0..<3).map { thirds.buckets(ofArm: $0) } == [0..<3_333, 3_333..<6_666, 6_666..<10_000])
        let gaps = try ExperimentAssignment(salt: "s", arms: [("off", 0), ("a", 1), ("paused", 0), ("b", 1), ("end", 0)])
        #expect((0..<5).map { gaps.buckets(ofArm: $0) } == [0..<0, 0..<5_000, 5_000..<5_000, 5_000..<10_000, 10_000..<10_000])
        // Weights whose products overflow 64 bits are divided exactly.
        let huge = try ExperimentAssignment(salt: "s", arms: [("a", Int.max / 2), ("b", Int.max / 2)])
        #expect(huge.buckets(ofArm: 0) == 0..<5_000)
    }

    @Test func zeroWeightArmsGetNoUnits() throws {
        let assignment = try ExperimentAssignment(salt: "onboarding", arms: [("a", 1), ("off", 0), ("b", 1), ("last", 0)])
        let names = Set((0..<2_000).map { assignment.arm(for: "device-\($0)").name })
        #expect(names == ["a", "b"])
    }

    @Test func badArmsAreRefusedWithTheReason() {
        func refusal(_ arms: [(name: String, weight: Int)]) -> ExperimentAssignmentError? {
            do {
                _ = try ExperimentAssignment(salt: "s", arms: arms)
                return nil
            } catch {
                return error
            }
        }
        #expect(refusal([]) == .noArms)
        #expect(refusal([("a", 0), ("b", 0)]) == .zeroTotalWeight)
        #expect(refusal([("a", 1), ("b", -1)]) == .negativeWeight(arm: "b", weight: -1))
        #expect(refusal([("a", 1), ("a", 2)]) == .duplicateArm("a"))
        #expect(refusal([("a", Int.max), ("b", 1)]) == .totalWeightTooLarge)
        #expect(refusal([("a", 1), ("b", -1)])?.description == "the arm 'b' has the weight -1; weights are zero or more")
    }

    @Test func unitsFallIntoArmsInProportionToTheirWeights() throws {
        let assignment = try ExperimentAssignment(salt: "favoriteCopy-1", arms: Self.copyArms)
        var counts = [String: Int]()
        let units = 100_000
        for index in 0..<units { counts[assignment.arm(for: "user-\(index)").name, default: 0] += 1 }
        for arm in Self.copyArms {
            let share = Double(counts[arm.name, default: 0]) / Double(units)
            #expect(abs(share - Double(arm.weight) / 100) < 0.01, "\(arm.name): \(share)")
        }
    }

    /// A new salt re-buckets: which arm a unit was in under one salt says nothing about the
    /// other, so about half of the units of a 50/50 experiment change arm.
    @Test func aNewSaltRebucketsEveryone() throws {
        let arms: [(name: String, weight: Int)] = [("a", 1), ("b", 1)]
        let first = try ExperimentAssignment(salt: "favoriteCopy-1", arms: arms)
        let second = try ExperimentAssignment(salt: "favoriteCopy-2", arms: arms)
        let units = (0..<20_000).map { "user-\($0)" }
        let same = units.filter { first.arm(for: $0) == second.arm(for: $0) }.count
        #expect(abs(Double(same) / Double(units.count) - 0.5) < 0.02, "\(same) of \(units.count) kept their arm")
        let sameBucket = units.filter { first.bucket(for: $0) == second.bucket(for: $0) }.count
        #expect(sameBucket < 20)
    }

    /// The table in docs/experiments.md is what the code computes.
    @Test func theDocumentedGoldenVectorsHold() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let page = try String(contentsOf: root.appendingPathComponent("docs/experiments.md"), encoding: .utf8)
        let rows = page.split(separator: "\n").filter { $0.hasPrefix("| `\"") }
        #expect(rows.count >= 10)
        for row in rows {
            let cells = row.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count == 6, "\(row)")
            func json(_ cell: String) throws -> String {
                try JSONDecoder().decode(String.self, from: Data(cell.trimmingCharacters(in: CharacterSet(charactersIn: "`")).utf8))
            }
            let salt = try json(cells[0]), unit = try json(cells[1])
            let arms = try cells[2].components(separatedBy: ", ").map { part -> (name: String, weight: Int) in
                let words = part.split(separator: " ")
                return (String(words[0]), try #require(Int(words[1])))
            }
            let assignment = try ExperimentAssignment(salt: salt, arms: arms)
            let words = SHA256.words(Array(salt.utf8) + [0] + Array(unit.utf8))
            #expect(String(format: "`%08x%08x`", words[0], words[1]) == cells[3], "\(row)")
            #expect(assignment.bucket(for: unit) == Int(cells[4]), "\(row)")
            #expect(assignment.arm(for: unit).name == cells[5], "\(row)")
        }
    }
}
