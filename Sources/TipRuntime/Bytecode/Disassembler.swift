/// Renders verified bytecode as text, one instruction per line: word offset, mnemonic and
/// operands with names resolved (`0003  CMP_INT_K >= 3`). `WHERE` predicates are indented.
public struct Disassembler {
    public let pack: RulePack

    public init(pack: RulePack) { self.pack = pack }

    /// One line per instruction of `code`.
    public func lines(_ code: [UInt32]) -> [String] {
        var lines: [String] = []
        var events: [Int] = []
        render(code, from: 0, to: code.count, depth: 0, fieldEvent: nil, events: &events, into: &lines)
        return lines
    }

    /// The disassembly of `code` as one string (lines joined by newlines).
    public func text(_ code: [UInt32]) -> String { lines(code).joined(separator: "\n") }

    private func quoted(_ index: Int) -> String {
        index < pack.strings.count ? "\"\(escape(pack.strings[index]))\"" : "<string \(index)>"
    }

    private func escape(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            default:
                if scalar.value < 0x20 { result += "\\u{\(String(scalar.value, radix: 16))}" } else { result.unicodeScalars.append(scalar) }
            }
        }
        return result
    }

    private func eventName(_ index: Int) -> String { index < pack.events.count ? pack.events[index].name : "<event \(index)>" }

    private func fieldName(_ event: Int?, _ index: Int) -> String {
        guard let event, event < pack.events.count, index < pack.events[event].fields.count else { return "<field \(index)>" }
        return pack.events[event].fields[index].name
    }

    private func render(_ code: [UInt32], from start: Int, to end: Int, depth: Int, fieldEvent: Int?,
                        events: inout [Int], into lines: inout [String]) {
        var pc = start
        let indent = String(repeating: "  ", count: depth)
        while pc < end {
            let word = code[pc]
            let a = Int(word >> 8)
            guard let opcode = Opcode(rawValue: UInt8(truncatingIfNeeded: word)) else {
                lines.append(pad(pc) + "  " + indent + "<unknown 0x\(String(word, radix: 16))>")
                pc += 1
                continue
            }
            let extra = opcode.extraWords(operand: UInt32(a))
            guard pc + extra < end else {
                lines.append(pad(pc) + "  " + indent + opcode.mnemonic + " <truncated>")
                return
            }
            func immediate(_ index: Int = 0) -> Int64 { Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index]) }
            func comparison() -> String { ComparisonCode(rawValue: UInt32(a))?.symbol ?? "<op \(a)>" }
            var operands = ""
            switch opcode {
            case .pushBool: operands = a == 0 ? "false" : "true"
            case .pushInt: operands = String(immediate())
            case .pushDouble: operands = String(Double(bitPattern: UInt64(bitPattern: immediate())))
            case .pushString: operands = quoted(a)
            case .pushDate: operands = "\(immediate()) ms"
            case .pushDuration: operands = DurationFormatting.describe(milliseconds: immediate())
            case .loadParameter: operands = a < pack.parameters.count ? "$" + pack.parameters[a].name : "<parameter \(a)>"
            case .loadField: operands = fieldName(fieldEvent, a)
            case .jumpIfFalse, .jumpIfTrue: operands = "-> " + pad(pc + 1 + a)
            case .compareInt, .compareDouble, .compareString, .compareBool: operands = comparison()
            case .compareIntImmediate: operands = "\(comparison()) \(immediate())"
            case .compareDoubleImmediate: operands = "\(comparison()) \(Double(bitPattern: UInt64(bitPattern: immediate())))"
            case .compareStringImmediate: operands = "\(comparison()) \(quoted(Int(code[pc + 1])))"
            case .inInts: operands = "[" + (0..<a).map { String(immediate($0)) }.joined(separator: ", ") + "]"
            case .inDoubles: operands = "[" + (0..<a).map { String(Double(bitPattern: UInt64(bitPattern: immediate($0)))) }.joined(separator: ", ") + "]"
            case .inStrings: operands = "[" + (0..<a).map { quoted(Int(code[pc + 1 + $0])) }.joined(separator: ", ") + "]"
            case .inBools: operands = "[" + [a & 1 != 0 ? "false" : nil, a & 2 != 0 ? "true" : nil].compactMap { $0 }.joined(separator: ", ") + "]"
            case .event: operands = eventName(a); events.append(a)
            case .countEvent: operands = eventName(a)
            case .countEventWithin: operands = "\(eventName(a)) within \(DurationFormatting.describe(milliseconds: immediate()))"
            case .within: operands = DurationFormatting.describe(milliseconds: immediate())
            case .largestSubset, .smallestSubset: operands = fieldName(events.last, a)
            case .distinct: operands = fieldName(events.last, a); _ = events.popLast()
            case .count: _ = events.popLast()
            case .filter: operands = "{ \(a) words"
            default: break
            }
            lines.append(pad(pc) + "  " + indent + opcode.mnemonic + (operands.isEmpty ? "" : " " + operands))
            if opcode == .filter {
                let blockEnd = min(end, pc + 1 + a)
                var inner: [Int] = []
                render(code, from: pc + 1, to: blockEnd, depth: depth + 1, fieldEvent: events.last, events: &inner, into: &lines)
                lines.append("      " + indent + "}")
                pc = blockEnd
            } else {
                pc += 1 + extra
            }
        }
    }

    private func pad(_ pc: Int) -> String {
        let digits = String(pc)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
