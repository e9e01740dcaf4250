import Testing
import TipRuntime
import TipcCompiler
import TipcTestSupport

/// Damaged and hostile packs are refused with a typed error, or accepted and safe to evaluate.
@Suite struct PackRobustnessTests {
    static let now: Int64 = 1_750_000_000_000
    static let example = try! ExampleProgram.compiled()
    static let exampleStore = ExampleProgram.store(for: example, now: now)

    /// Loads `bytes`; when accepted, evaluates every rule of every tip (must not trap).
    static func loadAndExercise(_ bytes: [UInt8]) -> RulePackError? {
        do {
            let verified = try RulePackLoader.decode(bytes)
            let evaluator = RuleEvaluator(pack: verified)
            let store = verified.pack.events == example.events ? exampleStore : ExampleProgram.store(for: verified.pack, now: now)
            let parameters = ParameterValues(pack: verified.pack)
            for tip in verified.pack.tips.indices {
                _ = evaluator.evaluateTip(tip, parameters: parameters, store: store, now: now, allRules: true)
            }
            return nil
        } catch {
            return error
        }
    }

    /// Rewrites the header's body length and checksum to match the (damaged) body, so the
    /// structural checks and the bytecode verifier, not the checksum, must catch the damage.
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= PackFormat.headerSize else { return bytes }
        var copy = bytes
        let length = UInt32(bytes.count - PackFormat.headerSize)
        let crc = CRC32.checksum(bytes, in: PackFormat.headerSize..<bytes.count)
        for index in 0..<4 {
            copy[32 + index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index))
            copy[36 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index))
        }
        return copy
    }

    @Test func intactPackLoadsAndRoundTrips() throws {
        let pack = try ExampleProgram.compiled()
        let bytes = RulePackWriter.encode(pack)
        let loaded = try RulePackLoader.decode(bytes)
        #expect(RulePackWriter.encode(loaded.pack) == bytes)
        #expect(loaded.pack.tips.count == pack.tips.count)
        #expect(loaded.pack.parameters == pack.parameters)
        #expect(loaded.pack.events == pack.events)
        #expect(Self.loadAndExercise(bytes) == nil)
    }

    /// Every single-bit flip, split into interleaved shares that run in parallel.
    @Test(arguments: 0..<4) func everyBitFlipIsRefusedOrSafe(share: Int) throws {
        let bytes = RulePackWriter.encode(Self.example)
        var refusedSealed = 0, flips = 0, refusedResealed: [RulePackError.Kind: Int] = [:]
        for bit in stride(from: share, to: bytes.count * 8, by: 4) {
            var damaged = bytes
            damaged[bit / 8] ^= 1 << UInt8(bit % 8)
            flips += 1
            if Self.loadAndExercise(damaged) != nil { refusedSealed += 1 }
            if let error = Self.loadAndExercise(Self.resealed(damaged)) { refusedResealed[error.kind, default: 0] += 1 }
        }
        // With the checksum intact, every flip is caught (CRC-32 detects all single-bit errors).
        #expect(refusedSealed == flips)
        // Resealed, the structural checks and the bytecode verifier must refuse damage themselves.
        #expect(refusedResealed[.invalidBytecode, default: 0] > 0)
        #expect(refusedResealed[.indexOutOfBounds, default: 0] > 0)
        #expect(refusedResealed[.malformed, default: 0] > 0)
        #expect(refusedResealed.values.reduce(0, +) > flips / 4)
    }

    @Test func everyTruncationIsRefused() throws {
        let bytes = RulePackWriter.encode(try ExampleProgram.compiled())
        for length in 0..<bytes.count {
            let prefix = Array(bytes[0..<length])
            #expect(Self.loadAndExercise(prefix) != nil)
            #expect(Self.loadAndExercise(Self.resealed(prefix)) != nil, "resealed truncation to \(length) bytes was accepted")
        }
    }

    @Test func randomByteRunsAreRefusedOrSafe() throws {
        let bytes = RulePackWriter.encode(try ExampleProgram.compiled())
        var random = SeededGenerator(seed: 42)
        var accepted = 0
        for _ in 0..<3000 {
            var damaged = bytes
            let start = PackFormat.headerSize + Int(random.next() % UInt64(bytes.count - PackFormat.headerSize))
            let length = 1 + Int(random.next() % 16)
            for index in start..<min(bytes.count, start + length) { damaged[index] = UInt8(truncatingIfNeeded: random.next()) }
            if Self.loadAndExercise(Self.resealed(damaged)) == nil { accepted += 1 }
            #expect(Self.loadAndExercise(damaged) != nil || damaged == bytes)
        }
        #expect(accepted < 3000)
    }

    @Test func headerDamageIsNamed() throws {
        let bytes = RulePackWriter.encode(try ExampleProgram.compiled())
        func error(_ bytes: [UInt8]) -> RulePackError? { Self.loadAndExercise(bytes) }

        var crlf = bytes
        crlf.remove(at: 4)  // CR LF → LF
        #expect(error(crlf)?.kind == .badMagic)
        #expect(error(crlf)?.message.contains("line-ending") == true)

        var sevenBit = bytes
        sevenBit[0] &= 0x7F
        #expect(error(sevenBit)?.message.contains("high bit") == true)

        var version = bytes
        version[8] = 3
        #expect(error(version)?.kind == .unsupportedVersion)
        #expect(error(version)?.offset == 8)
        #expect(error(version)?.message == "format version 3; this runtime reads versions 1 and 2")

        var order = bytes
        order.replaceSubrange(16..<24, with: order[16..<24].reversed())
        #expect(error(order)?.kind == .incompatibleEncoding)

        var float = bytes
        float[30] ^= 0x01
        #expect(error(float)?.kind == .incompatibleEncoding)

        var body = bytes
        body[bytes.count - 1] ^= 0xFF
        #expect(error(body)?.kind == .checksumMismatch)

        #expect(error(bytes + [0])?.kind == .malformed)
        #expect(error([])?.kind == .truncated)
    }

    @Test func hostileBytecodeIsRefused() throws {
        let base = try ExampleProgram.compiled()
        func refusal(_ code: [UInt32]) -> RulePackError? {
            var pack = base
            pack.tips[0].rules = [RuleProgram(code: code)]
            do { _ = try RulePackVerifier.verify(pack); return nil } catch { return error }
        }
        let ret = Instruction.word(.ret)
        let push = Instruction.word(.pushBool, 1)
        #expect(refusal([])?.kind == .invalidBytecode)
        #expect(refusal([0xFF])?.message.contains("unknown opcode") == true)
        #expect(refusal([push])?.message.contains("RETURN") == true)
        #expect(refusal([ret])?.message.contains("one Bool") == true)
        #expect(refusal([push, push, ret]) != nil)
        // A jump backwards cannot be written (unsigned offsets); one past the end is refused.
        #expect(refusal([push, Instruction.word(.jumpIfFalse, 5), push, ret])?.message.contains("outside") == true)
        // A jump into the middle of an instruction.
        #expect(refusal([push, Instruction.word(.jumpIfFalse, 1)] + [Instruction.word(.pushInt)] + Instruction.immediate(1) +
                        [Instruction.word(.compareIntImmediate, 0)] + Instruction.immediate(1) + [ret]) != nil)
        // Type errors.
        #expect(refusal([Instruction.word(.pushInt)] + Instruction.immediate(1) + [ret])?.message.contains("Bool") == true)
        #expect(refusal([push, Instruction.word(.pushInt)] + Instruction.immediate(1) + [Instruction.word(.add), ret]) != nil)
        #expect(refusal([Instruction.word(.loadParameter, 99), ret])?.message.contains("out of bounds") == true)
        #expect(refusal([Instruction.word(.loadField, 0), ret])?.message.contains("outside a WHERE") == true)
        #expect(refusal([Instruction.word(.countEvent, 1000), Instruction.word(.compareIntImmediate, 9)] + Instruction.immediate(0) + [ret]) != nil)
        #expect(refusal([Instruction.word(.event, 0), Instruction.word(.distinct, 0), Instruction.word(.compareIntImmediate, 0)] + Instruction.immediate(0) + [ret])?.message.contains("field") == true)
        #expect(refusal([Instruction.word(.pushString, 9999), ret]) != nil)
        #expect(refusal([push, Instruction.word(.not, 3), ret])?.message.contains("no operand") == true)
        // A predicate that escapes its block.
        #expect(refusal([Instruction.word(.event, 1), Instruction.word(.filter, 9), push, ret]) != nil)
        // Stack overflow.
        #expect(refusal(Array(repeating: push, count: 300) + [ret])?.kind == .limitExceeded)
        // The offset points into the pack bytes.
        var pack = base
        pack.tips[0].rules = [RuleProgram(code: [push, 0xEE, ret])]
        let bytes = RulePackWriter.encode(pack)
        do {
            _ = try RulePackLoader.decode(bytes)
            Issue.record("accepted an unknown opcode")
        } catch {
            #expect(error.kind == .invalidBytecode)
            #expect(bytes[error.offset] == 0xEE)
        }
    }
}
