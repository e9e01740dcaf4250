import Testing
@testable import TipRuntime

/// The opcode table (`Opcode.info`) is the one description of every opcode: the disassembler
/// and the verifier must step over exactly the words it says each takes.
@Suite struct OpcodeTableTests {
    /// A pack with one string, one parameter and one event with one field, enough for every
    /// operand to be in bounds.
    static let pack = RulePack(
        strings: ["s"], displayFrequencyMilliseconds: 0, parameters: [PackParameter(name: "p", type: .bool, defaultValue: .bool(true))],
        events: [PackEvent(name: "e", fields: [PackField(name: "f", type: .int)])], tips: [], groups: [])

    @Test func everyOpcodeHasOneRowWithItsOwnMnemonic() {
        let mnemonics = Opcode.allCases.map(\.info.mnemonic)
        #expect(Set(mnemonics).count == Opcode.allCases.count)
        #expect(mnemonics.allSatisfy { !$0.isEmpty && $0 == $0.uppercased() })
        for opcode in Opcode.allCases {
            let info = opcode.info
            #expect(opcode.mnemonic == info.mnemonic)
            #expect((info.pops == 0) == (info.popped == nil), "\(info.mnemonic)")
            if info.result == .operandType { #expect(info.pops > 0, "\(info.mnemonic)") }
            // The fused rows are 0xF0 and up, with the layout and stack effect of the word they rewrite.
            #expect((opcode.rawValue >= 0xF0) == (info.fusedFrom != nil), "\(info.mnemonic)")
            if let base = info.fusedFrom {
                let row = base.info
                #expect(base.info.fusedFrom == nil)
                #expect(info.operand == row.operand && info.extra == row.extra && info.pops == row.pops && info.popped == row.popped
                        && info.result == row.result, "\(info.mnemonic)")
                #expect(Opcode.unfused(opcode.rawValue) == base.rawValue)
            } else {
                #expect(Opcode.unfused(opcode.rawValue) == opcode.rawValue)
            }
        }
        #expect(Opcode.packOpcodes == Opcode.allCases.filter { $0.rawValue < 0xF0 })
    }

    /// A fused opcode is made when a pack is loaded, never read from one: the verifier knows
    /// only the pack's rows.
    @Test(arguments: Opcode.allCases.filter { $0.info.fusedFrom != nil })
    func theVerifierRejectsFusedOpcodes(_ opcode: Opcode) {
        let base = opcode.info.fusedFrom!
        let code = [Instruction.word(opcode, 0)] + [UInt32](repeating: 0, count: base.extraWords(operand: 0)) + [Instruction.word(.ret)]
        #expect {
            _ = try BytecodeVerifier.verify(code, context: BytecodeContext(pack: Self.pack))
        } throws: { error in
            (error as? RulePackError)?.message.contains("unknown opcode 0x\(String(opcode.rawValue, radix: 16))") == true
        }
    }

    /// For each opcode and a few operands, the disassembler puts the next instruction where
    /// the table's extra words say, and the verifier finds an instruction cut short of them.
    @Test(arguments: Opcode.packOpcodes)
    func disassemblerAndVerifierStepOverTheTablesExtraWords(_ opcode: Opcode) throws {
        let operands: [UInt32] = opcode.info.extra.count(operand: 2) == opcode.info.extra.count(operand: 0) ? [0] : [0, 1, 3]
        for a in operands {
            let extra = opcode.extraWords(operand: a)
            // The extra words hold 0: string 0 and Int 0 are in bounds.
            let code = [Instruction.word(opcode, a)] + [UInt32](repeating: 0, count: extra) + [Instruction.word(.ret)]
            let lines = Disassembler(pack: Self.pack).lines(code)
            if opcode.info.operand != .blockLength {
                #expect(lines.count == 2, "\(opcode.mnemonic) \(a)")
                #expect(lines.last?.hasPrefix(String(format4(1 + extra))) == true, "\(opcode.mnemonic) \(a): \(lines)")
                #expect(lines.first?.contains(opcode.info.mnemonic) == true)
            }
            if extra > 0 {
                let truncated = Array(code.prefix(extra))
                do {
                    _ = try BytecodeVerifier.verify(truncated, context: BytecodeContext(pack: Self.pack))
                    Issue.record("\(opcode.mnemonic) cut short verified")
                } catch {
                    #expect(error.message.contains("\(opcode.info.mnemonic) runs past the end of its block"), "\(error.message)")
                }
            }
        }
    }

    /// The straight-line flag picks the opcodes the evaluator's fast path runs (none can fail).
    @Test func straightLineOpcodesAreThoseTheFastPathRuns() {
        let straightLine = Set(Opcode.allCases.filter(\.info.isStraightLine))
        #expect(straightLine == [.ret, .pushBool, .pushInt, .pushDate, .pushDuration, .loadNow, .loadParameter, .not,
                                 .jumpIfFalse, .jumpIfTrue, .compareInt, .compareBool, .compareIntImmediate,
                                 .countEvent, .countEventWithin, .tipInvalidated,
                                 .countEventWithinCompareImmediate, .jumpIfParameterFalse, .countTipDisplays, .countTipInvalidations,
                                 .countEventWhere])
    }

    private func format4(_ pc: Int) -> String {
        let digits = String(pc)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
