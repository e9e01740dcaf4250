import Testing
import TipRuntime
import TipcTestSupport

/// `DurationText` and `ValueText`: the one grammar and spelling of durations, and the one text
/// form of values, which every reader and printer uses.
@Suite("Value text")
struct ValueTextTests {
    /// A random duration, mostly of the shapes people use (whole units, some milliseconds),
    /// and any 64-bit count now and then.
    static func randomDuration(_ generator: inout SeededGenerator) -> Int64 {
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: return Int64(bitPattern: generator.next())
        case 1: return Int64.random(in: -10_000...10_000, using: &generator)
        case 2: return Int64.random(in: 0...1_000_000, using: &generator) * [1_000, 60_000, 3_600_000, 86_400_000].randomElement(using: &generator)!
        default: return Int64.random(in: -(1 << 45)...(1 << 45), using: &generator)
        }
    }

    @Test func everyDurationPrintsAsTextThatReadsBack() {
        var generator = SeededGenerator(seed: 73)
        var durations: [Int64] = [0, 1, -1, 999, 1_000, 1_500, 90_000, 129_600_000, 604_800_000, .max, .min, .min + 1, .max - 1]
        for _ in 0..<5_000 { durations.append(Self.randomDuration(&generator)) }
        for milliseconds in durations {
            let text = DurationText.string(milliseconds: milliseconds)
            #expect((try? DurationText.milliseconds(of: text, allowsNegative: true).get()) == milliseconds, "\(milliseconds) → \(text)")
            if milliseconds >= 0 {
                #expect((try? DurationText.milliseconds(of: text, allowsNegative: false).get()) == milliseconds, "\(text)")
                #expect((try? ValueText.parse(text, as: .duration).get()) == .duration(milliseconds: milliseconds), "\(text)")
            }
            if milliseconds >= 0, milliseconds % 1000 == 0 {
                #expect((try? DurationText.seconds(of: text).get()) == Int(milliseconds / 1000), "\(text)")
                #expect(DurationText.string(seconds: Int(milliseconds / 1000)) == text)
            }
        }
    }

    @Test func spellings() {
        #expect(DurationText.string(milliseconds: 0) == "0s")
        #expect(DurationText.string(milliseconds: 1_500) == "1500ms")
        #expect(DurationText.string(milliseconds: 90_000) == "1m30s")
        #expect(DurationText.string(milliseconds: 129_600_000) == "1d12h")
        #expect(DurationText.string(milliseconds: 1_209_600_000) == "14d")
        #expect(DurationText.string(milliseconds: -7_200_000) == "-2h")
        #expect(DurationText.string(milliseconds: .min) == "-9223372036854775808ms")
        #expect(DurationText.string(seconds: .min) == "-106751991167300d15h30m8s")
    }

    /// Every unit, digit separators and concatenations are read the same everywhere.
    @Test func readsEveryUnit() {
        let cases: [(String, Int64)] = [("1500ms", 1_500), ("45s", 45_000), ("30m", 1_800_000), ("12h", 43_200_000), ("3d", 259_200_000),
                                        ("2w", 1_209_600_000), ("1d12h", 129_600_000), ("1_000ms", 1_000), ("1s500ms", 1_500), ("0s", 0)]
        for (text, milliseconds) in cases {
            #expect((try? DurationText.milliseconds(of: text, allowsNegative: false).get()) == milliseconds, "\(text)")
            #expect((try? ValueText.parse(text, as: .duration).get()) == .duration(milliseconds: milliseconds), "\(text)")
        }
        #expect((try? DurationText.seconds(of: "2w").get()) == 1_209_600)
        #expect((try? DurationText.seconds(of: "3000ms").get()) == 3)
    }

    /// Bad input gets a reason that names the problem.
    @Test func badDurationsSayWhy() {
        func failure(_ text: String, negative: Bool = false) -> DurationText.Failure? {
            if case .failure(let failure) = DurationText.milliseconds(of: text, allowsNegative: negative) { return failure }
            return nil
        }
        #expect(failure("3y") == .unknownUnit("y", hint: "years have no fixed length; write days instead (365d)"))
        #expect(failure("2mo") == .unknownUnit("mo", hint: "months have no fixed length; write days instead (30d)"))
        #expect(failure("3days") == .unknownUnit("days", hint: "did you mean '3d'? (units are ms, s, m, h, d and w)"))
        #expect(failure("5millis")?.help == "units are ms, s, m, h, d and w (e.g. 1d12h)")
        #expect(failure("") == .malformed)
        #expect(failure("-") == .malformed)
        #expect(failure("d") == .malformed)
        #expect(failure("1.5h") == .malformed)
        #expect(failure("1d 2h") == .malformed)
        #expect(failure("-2h") == .negative)
        #expect(failure("-2h", negative: true) == nil)
        #expect(failure("9223372036854776s") == .overflow)
        #expect(failure("9223372036854775808ms") == .overflow)
        #expect(failure("-9223372036854775809ms", negative: true) == .overflow)
        #expect(failure("-9223372036854775808ms", negative: true) == nil)
        if case .failure(let failure) = DurationText.seconds(of: "1500ms") { #expect(failure == .fractionalSeconds) } else { Issue.record("1500ms read as seconds") }
        #expect(ValueText.parse("-3d", as: .duration).failure?.description
                == "'-3d' is not a Duration: a duration cannot be negative; write it without '-'")
        #expect(ValueText.parse("90x", as: .duration).failure?.message(for: "parameter 'd'")
                == "'90x' is not a Duration (parameter 'd'): unknown duration unit 'x'; units are ms, s, m, h, d and w (e.g. 1d12h)")
        #expect(ValueText.parse("yes", as: .int).failure?.message(for: "parameter 'n'") == "'yes' is not an Int (parameter 'n')")
    }

    /// What `display` prints, `parse` reads back as the same value, for every type.
    @Test func displayAndParseAgree() {
        var generator = SeededGenerator(seed: 74)
        var values: [RuntimeValue] = [.bool(true), .bool(false), .int(.min), .int(.max), .int(0), .double(0.1), .double(-0.0),
                                      .double(.greatestFiniteMagnitude), .double(.leastNonzeroMagnitude), .double(1e-7),
                                      .string(""), .string("a b"), .string("\"quoted\""), .string("1d"), .string("é\u{301}\n"),
                                      .date(milliseconds: 0), .date(milliseconds: 1_772_355_600_250), .date(milliseconds: -62_167_219_200_000),
                                      .date(milliseconds: 253_402_300_799_999),
                                      .duration(milliseconds: 0), .duration(milliseconds: 1_500), .duration(milliseconds: .max)]
        for _ in 0..<2_000 {
            values.append(.int(Int64(bitPattern: generator.next())))
            let double = Double(bitPattern: generator.next())
            if double.isFinite { values.append(.double(double)) }
            values.append(.date(milliseconds: Int64.random(in: -62_167_219_200_000...253_402_300_799_999, using: &generator)))
            values.append(.duration(milliseconds: abs(Self.randomDuration(&generator) / 2)))
        }
        for value in values {
            let text = ValueText.display(value)
            let read = try? ValueText.parse(text, as: value.type).get()
            #expect(read == value, "\(value) → '\(text)'")
        }
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}
