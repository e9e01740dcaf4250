import Testing
@testable import TipRuntime
import TipcCompiler
import TipcTestSupport

/// `ValueSlot`, the one 64-bit slot form of values: −0.0 and NaN normalised, everything else
/// exact, and every writer of slots (parameters, packs, payload columns) using it.
@Suite("Value slots")
struct ValueSlotTests {
    @Test func negativeZeroIsHeldAsZero() {
        #expect(ValueSlot.slot(-0.0) == 0)
        #expect(ValueSlot.slot(0.0) == 0)
        #expect(ValueSlot.double(ValueSlot.slot(-0.0)).sign == .plus)
        #expect(ValueSlot.slot(RuntimeValue.double(-0.0)) { _ in -1 } == 0)
    }

    @Test func everyNaNIsHeldAsOneQuietNaN() {
        let nans: [Double] = [.nan, -.nan, .signalingNaN, Double(nan: 0x1234, signaling: false), Double(nan: 7, signaling: true), -Double(nan: 1, signaling: false)]
        for nan in nans {
            #expect(ValueSlot.slot(nan) == ValueSlot.canonicalNaN, "\(nan.bitPattern)")
            #expect(ValueSlot.double(ValueSlot.slot(nan)).isNaN)
            #expect(!ValueSlot.double(ValueSlot.slot(nan)).isSignalingNaN)
        }
    }

    @Test func everyOtherValueRoundTripsExactly() {
        var generator = SeededGenerator(seed: 41)
        var doubles: [Double] = [.infinity, -.infinity, .leastNonzeroMagnitude, -.leastNonzeroMagnitude, .greatestFiniteMagnitude, 1.5, -2.5]
        for _ in 0..<2_000 {
            let number = Double(bitPattern: generator.next())
            if !number.isNaN && number != 0 { doubles.append(number) }
        }
        for number in doubles {
            #expect(ValueSlot.double(ValueSlot.slot(number)).bitPattern == number.bitPattern, "\(number)")
        }
        let strings = ["a", "bc"]
        let values: [RuntimeValue] = [.bool(true), .bool(false), .int(.min), .int(.max), .date(milliseconds: -1), .duration(milliseconds: .max),
                                      .string("bc"), .double(2.5)]
        for value in values {
            let slot = ValueSlot.slot(value) { Int64(strings.firstIndex(of: $0)!) }
            #expect(ValueSlot.value(slot, as: value.type) { strings[Int($0)] } == value)
        }
    }

    /// A parameter set to −0.0 has the same slot as one set to 0.0 (it kept −0.0's bits).
    @Test func parametersHoldNegativeZeroAsZero() throws {
        let pack = try verifiedPack("tipkit 1\nparam ratio: Double = 1.0\ntip t {\n  title \"T\"\n  rule $ratio == 0.0\n}\n").pack
        var negative = ParameterValues(pack: pack), positive = ParameterValues(pack: pack)
        try negative.set(0, to: .double(-0.0))
        try positive.set(0, to: .double(0.0))
        #expect(negative.slots == positive.slots)
        var nan = ParameterValues(pack: pack)
        try nan.set(0, to: .double(.signalingNaN))
        #expect(nan.slots == [ValueSlot.canonicalNaN])
    }

    /// A pack written with −0.0 (a default, a constant) holds 0.0, and reads back as 0.0.
    @Test func packsHoldNegativeZeroAsZero() throws {
        let source = "tipkit 1\nparam ratio: Double = -0.0\ntip t {\n  title \"T\"\n  rule $ratio == -0.0\n}\n"
        let read = try RulePackLoader.decodeModel(RulePackWriter.encode(try verifiedPack(source).pack))
        guard case .double(let number) = read.parameters[0].defaultValue else { Issue.record("not a Double"); return }
        #expect(number == 0 && number.sign == .plus)
        let code = Disassembler(pack: read).lines(read.tips[0].rules[0].code).joined(separator: "\n")
        #expect(code.contains("0.0") && !code.contains("-0.0"), "\(code)")
    }

    /// Payload columns group −0.0 with 0.0, and their values read back as 0.0.
    @Test func payloadColumnsHoldNegativeZeroAsZero() throws {
        let pack = try verifiedPack("tipkit 1\nevent e { x: Double }\ntip t {\n  title \"T\"\n  rule e.count >= 1\n}\n").pack
        var store = InMemoryDonationStore(events: pack.events)
        try store.donate(event: 0, at: 1, payload: [.double(-0.0)])
        try store.donate(event: 0, at: 2, payload: [.double(0.0)])
        let column = store.donations(ofEvent: 0).fields[0]
        #expect(column.slots == [0, 0])
        #expect(column.value(at: 0) == .double(0))
    }
}
