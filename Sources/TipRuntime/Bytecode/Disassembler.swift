/// Renders verified bytecode as text, one instruction per line: word offset, mnemonic and
/// operands with names resolved (`0003  CMP_INT_K >= 3`). `WHERE` predicates are indented.
package struct Disassembler {
    package let pack: RulePack

    package init(pack: RulePack) { self.pack = pack }

    /// One line per instruction of `code`.
    package func lines(_ code: [UInt32]) -> [String] {
        var lines: [String] = []
        var events: [Int] = []
        render(code, from: 0, to: code.count, depth: 0, fieldEvent: nil, events: &events, into: &lines)
        return lines
    }

    /// The disassembly of `code` as one string (lines joined by newlines).
    package func text(_ code: [UInt32]) -> String { lines(code).joined(separator: "\n") }

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
        if event == pack.events.count + 1, index == 0 { return "reason" }
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
            guard let opcode = Opcode(rawValue: Instruction.opcodeByte(word)) else {
                lines.append(pad(pc) + "  " + indent + "<unknown 0x\(String(word, radix: 16))>")
                pc += 1
                continue
            }
            let info = opcode.info
            let extra = info.extra.count(operand: UInt32(a))
            guard pc + extra < end else {
                lines.append(pad(pc) + "  " + indent + info.mnemonic + " <truncated>")
                return
            }
            // Operand A and the extra words, rendered as the table says what they are.
            func immediate(_ index: Int = 0) -> Int64 { Instruction.immediate(code[pc + 1 + 2 * index], code[pc + 2 + 2 * index]) }
            func double(_ index: Int = 0) -> String { String(ValueSlot.double(immediate(index))) }
            func list(_ items: [String]) -> String { "[" + items.joined(separator: ", ") + "]" }
            var operands: [String] = []
            switch info.operand {
            case .none, .listLength: break
            case .flag: operands.append(a == 0 ? "false" : "true")
            case .boolMask: operands.append(list([a & 1 != 0 ? "false" : nil, a & 2 != 0 ? "true" : nil].compactMap { $0 }))
            case .comparison, .equality: operands.append(ComparisonCode(rawValue: UInt32(a))?.symbol ?? "<op \(a)>")
            case .string: operands.append(quoted(a))
            case .parameter: operands.append(a < pack.parameters.count ? "$" + pack.parameters[a].name : "<parameter \(a)>")
            case .event: operands.append(eventName(a))
            case .field: operands.append(fieldName(fieldEvent, a))
            case .collectionField: operands.append(fieldName(events.last, a))
            case .jump: operands.append("-> " + pad(pc + 1 + a))
            case .blockLength: operands.append("{ \(a) words")
            case .tip, .keyedTip: operands.append(a < pack.tips.count ? "tip(\(pack.tips[a].name))" : "<tip \(a)>")
            }
            switch info.extra {
            case .none: break
            case .int: operands.append(String(immediate()))
            case .double: operands.append(double())
            case .date: operands.append("\(immediate()) ms")
            case .duration: operands.append(DurationText.string(milliseconds: immediate()))
            // After an event: `searched within 3d`.
            case .window: operands.append((operands.isEmpty ? "" : "within ") + DurationText.string(milliseconds: immediate()))
            case .string: operands.append(quoted(Int(code[pc + 1])))
            case .ints: operands.append(list((0..<a).map { String(immediate($0)) }))
            case .doubles: operands.append(list((0..<a).map { double($0) }))
            case .strings: operands.append(list((0..<a).map { quoted(Int(code[pc + 1 + $0])) }))
            }
            switch info.result {
            case .tipDisplays: events.append(pack.events.count)
            case .tipInvalidations: events.append(pack.events.count + 1)
            default: if info.opensCollection { events.append(a) }
            }
            if info.closesCollection { _ = events.popLast() }
            lines.append(pad(pc) + "  " + indent + ([info.mnemonic] + operands).joined(separator: " "))
            if info.operand == .blockLength {
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
