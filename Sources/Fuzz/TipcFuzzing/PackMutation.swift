import TipRuntime
import TipcCompiler
import TipcDriver

/// Structure-aware pack fuzzing: the input is read as a list of mutation instructions applied
/// to a valid pack (compiled from the example manifests, or from a program that uses every
/// opcode); the mutated pack's body length and checksum are recomputed, so that the loader's
/// structural checks and the bytecode verifier, not the checksum, must catch the damage.
///
/// Instruction format: one opcode byte, then its operands (missing operand bytes read as 0).
/// Model mutations change a decoded `RulePack` (rule code words, indices, types, limits) and
/// re-encode it; byte mutations change the encoded body.
public enum PackMutation {
    /// The packs mutated, compiled once.
    public static let basePacks: [[UInt8]] = compileBases()

    /// Applies the instructions in `input` to a base pack, then loads, verifies and evaluates it.
    public static func run(_ input: [UInt8]) {
        PackFuzzing.pack(mutatedPack(input))
    }

    /// The pack `input` describes (exposed for regression tests and corpus inspection).
    public static func mutatedPack(_ input: [UInt8]) -> [UInt8] {
        var reader = InstructionReader(bytes: input)
        let base = basePacks[Int(reader.byte()) % basePacks.count]
        guard var model = try? RulePackLoader.decodeModel(base) else { preconditionFailure("a base pack does not load") }
        var modelSteps = 0
        // First the model mutations (until opcode 0xFF or the end), then byte mutations.
        while !reader.isAtEnd, modelSteps < 64 {
            let opcode = reader.byte()
            if opcode == 0xFF { break }
            mutateModel(&model, opcode: opcode, reader: &reader)
            modelSteps += 1
        }
        var bytes = RulePackWriter.encode(model)
        var byteSteps = 0
        while !reader.isAtEnd, byteSteps < 64 {
            mutateBytes(&bytes, opcode: reader.byte(), reader: &reader)
            byteSteps += 1
        }
        return resealed(bytes)
    }

    /// Rewrites the header's body length and CRC-32 to match the body.
    public static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        guard bytes.count >= PackFormat.headerSize else { return bytes }
        var copy = bytes
        let length = UInt32(truncatingIfNeeded: bytes.count - PackFormat.headerSize)
        let crc = CRC32.checksum(bytes, in: PackFormat.headerSize..<bytes.count)
        for index in 0..<4 {
            copy[32 + index] = UInt8(truncatingIfNeeded: length >> UInt32(8 * index))
            copy[36 + index] = UInt8(truncatingIfNeeded: crc >> UInt32(8 * index))
        }
        return copy
    }

    static let interestingWords: [UInt32] = [0, 1, 2, 3, 7, 8, 0xFF, 0x100, 0xFFFF, 0x1_0000, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFE, 0xFFFF_FFFF]
    static let interestingIntegers: [Int64] = [0, 1, -1, 2, Int64.max, Int64.min, Int64(Int32.max), Int64(Int32.min), 1 << 53, 86_400_000]

    private static func mutateModel(_ pack: inout RulePack, opcode: UInt8, reader: inout InstructionReader) {
        switch opcode % 12 {
        case 0, 1, 2:
            // One code word of one rule: set, xor, or set one byte of it.
            guard let (tip, rule) = pickRule(pack, &reader) else { return }
            let code = pack.tips[tip].rules[rule].code
            guard !code.isEmpty else { return }
            let index = Int(reader.word()) % code.count
            let operand = reader.word()
            switch opcode % 12 {
            case 0: pack.tips[tip].rules[rule].code[index] = interestingWords[Int(operand) % interestingWords.count]
            case 1: pack.tips[tip].rules[rule].code[index] ^= operand
            default:
                let shift = UInt32(operand % 4) * 8
                let word = code[index] & ~(0xFF << shift) | (UInt32(reader.byte()) << shift)
                pack.tips[tip].rules[rule].code[index] = word
            }
        case 3:
            // Insert, remove or duplicate code words.
            guard let (tip, rule) = pickRule(pack, &reader) else { return }
            var code = pack.tips[tip].rules[rule].code
            let index = code.isEmpty ? 0 : Int(reader.word()) % (code.count + 1)
            switch reader.byte() % 3 {
            case 0: code.insert(reader.word(), at: index)
            case 1: if index < code.count { code.remove(at: index) }
            default: if index < code.count { code.insert(code[index], at: index) }
            }
            pack.tips[tip].rules[rule].code = code
        case 4:
            // Move a rule from one tip to another, or copy it.
            guard let (tip, rule) = pickRule(pack, &reader), !pack.tips.isEmpty else { return }
            let target = Int(reader.byte()) % pack.tips.count
            let program = pack.tips[tip].rules[rule]
            if reader.byte() % 2 == 0 { pack.tips[tip].rules.remove(at: rule) }
            pack.tips[target].rules.append(program)
        case 5:
            // Change a parameter's type (its default keeps the old type) or default.
            guard !pack.parameters.isEmpty else { return }
            let index = Int(reader.byte()) % pack.parameters.count
            if reader.byte() % 2 == 0, let type = ValueType(rawValue: reader.byte() % 6) {
                pack.parameters[index].type = type
            } else {
                pack.parameters[index].defaultValue = PackFuzzing.value(of: pack.parameters[index].type, variant: Int(reader.byte()))
            }
        case 6:
            // Change a payload field's type, or drop or add a field.
            guard !pack.events.isEmpty else { return }
            let event = Int(reader.byte()) % pack.events.count
            let choice = reader.byte() % 3
            if choice == 0, !pack.events[event].fields.isEmpty, let type = ValueType(rawValue: reader.byte() % 6) {
                pack.events[event].fields[Int(reader.byte()) % pack.events[event].fields.count].type = type
            } else if choice == 1, !pack.events[event].fields.isEmpty {
                pack.events[event].fields.removeLast()
            } else if let type = ValueType(rawValue: reader.byte() % 6) {
                pack.events[event].fields.append(PackField(name: "f\(pack.events[event].fields.count)", type: type))
            }
        case 7:
            // Drop a table entry: a string, a parameter, an event or a tip.
            switch reader.byte() % 4 {
            case 0: if !pack.strings.isEmpty { pack.strings.removeLast() }
            case 1: if !pack.parameters.isEmpty { pack.parameters.removeLast() }
            case 2: if !pack.events.isEmpty { pack.events.removeLast() }
            default: if !pack.tips.isEmpty { pack.tips.removeLast() }
            }
        case 8:
            // Limits and options at extreme values.
            let value = interestingIntegers[Int(reader.byte()) % interestingIntegers.count]
            switch reader.byte() % 4 {
            case 0: pack.displayFrequencyMilliseconds = value
            case 1: if !pack.events.isEmpty { pack.events[Int(reader.byte()) % pack.events.count].maximumCount = value }
            case 2: if !pack.events.isEmpty { pack.events[Int(reader.byte()) % pack.events.count].maximumAgeMilliseconds = value }
            default: if !pack.tips.isEmpty { pack.tips[Int(reader.byte()) % pack.tips.count].maxDisplayCount = value }
            }
        case 9:
            // Group members pointing anywhere.
            guard !pack.groups.isEmpty else { return }
            let group = Int(reader.byte()) % pack.groups.count
            pack.groups[group].tips.append(Int(reader.word() % 64))
        case 10:
            // Strings: empty, long, odd.
            guard !pack.strings.isEmpty else { return }
            let index = Int(reader.byte()) % pack.strings.count
            let texts = ["", "\u{0}", "é\u{301}", String(repeating: "🙂", count: 100), "\u{FEFF}x"]
            pack.strings[index] = texts[Int(reader.byte()) % texts.count]
        default:
            // Source map entries pointing past the code.
            guard let (tip, rule) = pickRule(pack, &reader), let first = pack.tips[tip].rules[rule].sourceMap.first else { return }
            pack.tips[tip].rules[rule].sourceMap.append(SourceMapEntry(pc: reader.word() % 4096, range: first.range))
        }
    }

    private static func mutateBytes(_ bytes: inout [UInt8], opcode: UInt8, reader: inout InstructionReader) {
        guard bytes.count > PackFormat.headerSize else { return }
        let body = bytes.count - PackFormat.headerSize
        let offset = PackFormat.headerSize + Int(reader.word()) % body
        switch opcode % 6 {
        case 0: bytes[offset] = reader.byte()
        case 1: bytes[offset] ^= 1 << (reader.byte() % 8)
        case 2:
            // An interesting little-endian word.
            let word = interestingWords[Int(reader.byte()) % interestingWords.count]
            for index in 0..<4 where offset + index < bytes.count {
                bytes[offset + index] = UInt8(truncatingIfNeeded: word >> UInt32(8 * index))
            }
        case 3: bytes.insert(contentsOf: [UInt8](repeating: reader.byte(), count: Int(reader.byte() % 16) + 1), at: offset)
        case 4: bytes.removeSubrange(offset..<min(bytes.count, offset + Int(reader.byte() % 32) + 1))
        default: bytes.removeSubrange(offset...)
        }
    }

    private static func pickRule(_ pack: RulePack, _ reader: inout InstructionReader) -> (Int, Int)? {
        let all = pack.tips.indices.flatMap { tip in pack.tips[tip].rules.indices.map { (tip, $0) } }
        guard !all.isEmpty else { return nil }
        return all[Int(reader.word()) % all.count]
    }

    private static func compileBases() -> [[UInt8]] {
        var sources = ExampleSources.programs()
        sources.append([SourceFile(path: "every-opcode.tips", text: ExampleSources.everyOpcode)])
        return sources.map { program in
            let result = Frontend.check(sources: program)
            guard let checked = result.program else {
                preconditionFailure("a base program does not check: \(result.diagnostics.map(\.message))")
            }
            var diagnostics: [Diagnostic] = []
            guard let bytes = RulePackCompiler.compileToBytes(checked, diagnostics: &diagnostics) else {
                preconditionFailure("a base program does not compile: \(diagnostics.map(\.message))")
            }
            return bytes
        }
    }
}

/// Reads operands from the fuzz input; past its end every read is 0.
struct InstructionReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset >= bytes.count }

    mutating func byte() -> UInt8 {
        guard offset < bytes.count else { return 0 }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func word() -> UInt32 {
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(byte()) << UInt32(8 * index) }
        return value
    }
}
