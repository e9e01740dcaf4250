/// Encodes a `RulePack` as `.tippack` bytes (layout in docs/bytecode.md). Deterministic: the
/// same pack always gives the same bytes (strings are interned in a fixed walk order; nothing
/// is iterated in hash order).
public enum RulePackWriter {
    public static func encode(_ pack: RulePack) -> [UInt8] {
        var interner = StringInterner(pack.strings)
        // Intern every name and text in table order first, so the string table is complete.
        var settings = ByteWriter(), parameters = ByteWriter(), events = ByteWriter(), tips = ByteWriter(), groups = ByteWriter()

        settings.i64(pack.displayFrequencyMilliseconds)

        parameters.u32(UInt32(pack.parameters.count))
        for parameter in pack.parameters {
            parameters.u32(interner.index(parameter.name))
            parameters.u8(parameter.type.rawValue)
            parameters.u8((parameter.isTransient ? 1 : 0) | (parameter.values != nil ? 2 : 0))
            parameters.i64(slot(parameter.defaultValue, &interner))
            if let values = parameter.values {
                parameters.u32(UInt32(values.count))
                for value in values { parameters.u32(interner.index(value)) }
            }
        }

        events.u32(UInt32(pack.events.count))
        for event in pack.events {
            events.u32(interner.index(event.name))
            events.u8((event.maximumCount != nil ? 1 : 0) | (event.maximumAgeMilliseconds != nil ? 2 : 0))
            events.i64(event.maximumCount ?? 0)
            events.i64(event.maximumAgeMilliseconds ?? 0)
            events.u32(UInt32(event.fields.count))
            for field in event.fields {
                events.u32(interner.index(field.name))
                events.u8(field.type.rawValue)
            }
        }

        tips.u32(UInt32(pack.tips.count))
        for tip in pack.tips {
            tips.u32(interner.index(tip.name))
            tips.u32(interner.index(tip.title))
            tips.u32(tip.message.map { interner.index($0) } ?? PackFormat.noString)
            switch tip.image {
            case nil: tips.u8(0); tips.u32(PackFormat.noString)
            case .symbol(let name): tips.u8(1); tips.u32(interner.index(name))
            case .asset(let name): tips.u8(2); tips.u32(interner.index(name))
            }
            tips.u8((tip.ignoresDisplayFrequency ? 1 : 0) | (tip.maxDisplayCount != nil ? 2 : 0)
                    | (tip.maxDisplayDurationMilliseconds != nil ? 4 : 0))
            tips.i64(tip.maxDisplayCount ?? 0)
            tips.i64(tip.maxDisplayDurationMilliseconds ?? 0)
            tips.u32(0)  // reserved: tip key and localized texts (SPEC §7)
            tips.u32(UInt32(tip.actions.count))
            for action in tip.actions {
                tips.u32(interner.index(action.id))
                tips.u32(interner.index(action.title))
            }
            tips.u32(UInt32(tip.rules.count))
            for rule in tip.rules {
                if let range = rule.range {
                    tips.u8(1)
                    writeRange(range, to: &tips, &interner)
                } else {
                    tips.u8(0)
                }
                tips.u32(UInt32(rule.code.count))
                for word in rule.code { tips.u32(word) }
                tips.u32(UInt32(rule.sourceMap.count))
                for entry in rule.sourceMap {
                    tips.u32(entry.pc)
                    writeRange(entry.range, to: &tips, &interner)
                }
            }
        }

        groups.u32(UInt32(pack.groups.count))
        for group in pack.groups {
            groups.u32(interner.index(group.name))
            groups.u8(group.priority.rawValue)
            groups.u32(UInt32(group.tips.count))
            for tip in group.tips { groups.u32(UInt32(truncatingIfNeeded: tip)) }
        }

        var strings = ByteWriter()
        strings.u32(UInt32(interner.strings.count))
        for string in interner.strings {
            let utf8 = Array(string.utf8)
            strings.u32(UInt32(utf8.count))
            strings.bytes.append(contentsOf: utf8)
        }

        var body = ByteWriter()
        let tables: [(PackFormat.TableKind, [UInt8])] = [
            (.strings, strings.bytes), (.settings, settings.bytes), (.parameters, parameters.bytes),
            (.events, events.bytes), (.tips, tips.bytes), (.groups, groups.bytes),
        ]
        body.u32(UInt32(tables.count))
        for (kind, bytes) in tables {
            body.u16(kind.rawValue)
            body.u32(UInt32(bytes.count))
            body.bytes.append(contentsOf: bytes)
        }

        var header = ByteWriter()
        header.bytes.append(contentsOf: PackFormat.magic)
        header.u32(PackFormat.version)
        header.u32(0)  // flags
        header.i64(PackFormat.testInteger)
        header.u64(PackFormat.testDouble.bitPattern)
        header.u32(UInt32(body.bytes.count))
        header.u32(CRC32.checksum(body.bytes))
        return header.bytes + body.bytes
    }

    private static func slot(_ value: RuntimeValue, _ interner: inout StringInterner) -> Int64 {
        switch value {
        case .bool(let flag): return flag ? 1 : 0
        case .int(let number), .date(let number), .duration(let number): return number
        case .double(let number): return Int64(bitPattern: number.bitPattern)
        case .string(let text): return Int64(interner.index(text))
        }
    }

    private static func writeRange(_ range: PackSourceRange, to writer: inout ByteWriter, _ interner: inout StringInterner) {
        writer.u32(interner.index(range.file))
        writer.i32(range.startLine)
        writer.i32(range.startColumn)
        writer.i32(range.endLine)
        writer.i32(range.endColumn)
    }
}

/// Strings by first use, compared by their UTF-8 bytes (texts stay byte-exact); the
/// dictionary is only looked up, never iterated.
struct StringInterner {
    private(set) var strings: [String]
    private var indexes: [[UInt8]: UInt32] = [:]

    init(_ initial: [String]) {
        strings = initial
        for (index, string) in initial.enumerated() where indexes[Array(string.utf8)] == nil {
            indexes[Array(string.utf8)] = UInt32(index)
        }
    }

    mutating func index(_ string: String) -> UInt32 {
        let key = Array(string.utf8)
        if let index = indexes[key] { return index }
        let index = UInt32(strings.count)
        strings.append(string)
        indexes[key] = index
        return index
    }
}
