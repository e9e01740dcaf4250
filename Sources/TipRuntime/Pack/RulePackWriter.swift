/// Encodes a `RulePack` as `.tippack` bytes (layout in docs/bytecode.md). Deterministic: the
/// same pack always gives the same bytes (strings are interned in a fixed walk order; nothing
/// is iterated in hash order).
package enum RulePackWriter {
    package static func encode(_ pack: RulePack) -> [UInt8] {
        // Every table but the strings interns its names and texts as it is written, in table
        // order, so the string table is complete (and deterministic) once they are done.
        var interner = StringInterner(pack.strings)
        var settings = ByteWriter()
        settings.i64(pack.displayFrequencyMilliseconds)
        let parameters = encode(pack.parameters, &interner)
        let events = encode(pack.events, &interner)
        let tips = encode(pack.tips, &interner)
        let groups = encode(pack.groups, &interner)
        // Always written (empty when nothing needs them): a pack that lacks them is a format-1 pack.
        let tipKeys = encodeTipKeys(pack.tips, &interner)
        let texts = encode(pack.texts ?? PackTexts(defaultLocale: nil, tips: []), &interner)
        var tables: [(PackFormat.TableKind, [UInt8])] = [
            (.strings, []), (.settings, settings.bytes), (.parameters, parameters),
            (.events, events), (.tips, tips), (.groups, groups), (.tipKeys, tipKeys), (.texts, texts),
        ]
        // Interned before the string table is written; absent (not empty) without experiments.
        let experiments = pack.experiments.isEmpty ? nil : encode(pack.experiments, &interner)
        tables[0].1 = encode(interner.strings)
        var body = ByteWriter()
        var encoded = tables.map { ($0.0.rawValue, $0.1) }
        if pack.tips.contains(where: { $0.goal != nil }) { encoded.append((PackFormat.tipGoalsTableKind, encodeTipGoals(pack.tips))) }
        if let experiments { encoded.append((PackFormat.experimentsTableKind, experiments)) }
        if let producer = pack.producer { encoded.append((PackFormat.producerTableKind, Array(producer.utf8))) }
        body.u32(UInt32(encoded.count))
        for (kind, bytes) in encoded {
            body.u16(kind)
            body.u32(UInt32(bytes.count))
            body.bytes.append(contentsOf: bytes)
        }
        return header(for: body.bytes) + body.bytes
    }

    private static func header(for body: [UInt8]) -> [UInt8] {
        var header = ByteWriter()
        header.bytes.append(contentsOf: PackFormat.magic)
        header.u32(PackFormat.version)
        header.u32(0)  // flags
        header.i64(PackFormat.testInteger)
        header.u64(PackFormat.testDouble.bitPattern)
        header.u32(UInt32(body.count))
        header.u32(CRC32.checksum(body))
        return header.bytes
    }

    private static func encode(_ strings: [String]) -> [UInt8] {
        var table = ByteWriter()
        table.u32(UInt32(strings.count))
        for string in strings {
            let utf8 = Array(string.utf8)
            table.u32(UInt32(utf8.count))
            table.bytes.append(contentsOf: utf8)
        }
        return table.bytes
    }

    private static func encode(_ parameters: [PackParameter], _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        table.u32(UInt32(parameters.count))
        for parameter in parameters {
            table.u32(interner.index(parameter.name))
            table.u8(parameter.type.rawValue)
            table.u8((parameter.isTransient ? 1 : 0) | (parameter.values != nil ? 2 : 0))
            table.i64(slot(parameter.defaultValue, &interner))
            if let values = parameter.values {
                table.u32(UInt32(values.count))
                for value in values { table.u32(interner.index(value)) }
            }
        }
        return table.bytes
    }

    private static func encode(_ events: [PackEvent], _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        table.u32(UInt32(events.count))
        for event in events {
            table.u32(interner.index(event.name))
            table.u8((event.maximumCount != nil ? 1 : 0) | (event.maximumAgeMilliseconds != nil ? 2 : 0))
            table.i64(event.maximumCount ?? 0)
            table.i64(event.maximumAgeMilliseconds ?? 0)
            table.u32(UInt32(event.fields.count))
            for field in event.fields {
                table.u32(interner.index(field.name))
                table.u8(field.type.rawValue)
            }
        }
        return table.bytes
    }

    private static func encode(_ tips: [PackTip], _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        table.u32(UInt32(tips.count))
        for tip in tips {
            table.u32(interner.index(tip.name))
            table.u32(interner.index(tip.title))
            table.u32(tip.message.map { interner.index($0) } ?? PackFormat.noString)
            switch tip.image {
            case nil: table.u8(0); table.u32(PackFormat.noString)
            case .symbol(let name): table.u8(1); table.u32(interner.index(name))
            case .asset(let name): table.u8(2); table.u32(interner.index(name))
            }
            table.u8((tip.ignoresDisplayFrequency ? 1 : 0) | (tip.maxDisplayCount != nil ? 2 : 0)
                     | (tip.maxDisplayDurationMilliseconds != nil ? 4 : 0))
            table.i64(tip.maxDisplayCount ?? 0)
            table.i64(tip.maxDisplayDurationMilliseconds ?? 0)
            table.u32(0)  // reserved: tip key and localized texts
            table.u32(UInt32(tip.actions.count))
            for action in tip.actions {
                table.u32(interner.index(action.id))
                table.u32(interner.index(action.title))
            }
            table.u32(UInt32(tip.rules.count))
            for rule in tip.rules { encode(rule, into: &table, &interner) }
        }
        return table.bytes
    }

    private static func encode(_ rule: RuleProgram, into table: inout ByteWriter, _ interner: inout StringInterner) {
        if let range = rule.range {
            table.u8(1)
            writeRange(range, to: &table, &interner)
        } else {
            table.u8(0)
        }
        table.u32(UInt32(rule.code.count))
        for word in rule.code { table.u32(word) }
        table.u32(UInt32(rule.sourceMap.count))
        for entry in rule.sourceMap {
            table.u32(entry.pc)
            writeRange(entry.range, to: &table, &interner)
        }
    }

    private static func encode(_ groups: [PackGroup], _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        table.u32(UInt32(groups.count))
        for group in groups {
            table.u32(interner.index(group.name))
            table.u8(group.priority.rawValue)
            table.u32(UInt32(group.tips.count))
            for tip in group.tips { table.u32(UInt32(truncatingIfNeeded: tip)) }
        }
        return table.bytes
    }

    /// The `tipKeys` table (kind 7): count, then (tip index u32, key name string u32, key type u8)
    /// per keyed tip, in tip order.
    private static func encodeTipKeys(_ tips: [PackTip], _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        let keyed = tips.enumerated().filter { $0.element.key != nil }
        table.u32(UInt32(keyed.count))
        for (index, tip) in keyed {
            guard let key = tip.key else { continue }
            table.u32(UInt32(truncatingIfNeeded: index))
            table.u32(interner.index(key.name))
            table.u8(key.type.rawValue)
        }
        return table.bytes
    }

    /// The optional `tipGoals` table (see `PackFormat.tipGoalsTableKind`).
    private static func encodeTipGoals(_ tips: [PackTip]) -> [UInt8] {
        var table = ByteWriter()
        let withGoals = tips.enumerated().compactMap { index, tip in tip.goal.map { (index, $0) } }
        table.u32(UInt32(withGoals.count))
        for (index, goal) in withGoals {
            table.u32(UInt32(truncatingIfNeeded: index))
            table.u32(UInt32(truncatingIfNeeded: goal.event))
            table.i64(goal.windowMilliseconds)
        }
        return table.bytes
    }

    private static func slot(_ value: RuntimeValue, _ interner: inout StringInterner) -> Int64 {
        ValueSlot.slot(value) { Int64(interner.index($0)) }
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
