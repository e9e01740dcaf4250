#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Decodes `.tippack` bytes and verifies all of it before use: magic, version,
/// byte-order and float-format tests, body length and CRC-32, every table's layout, every index
/// and length in bounds, every rule's bytecode (well formed and well typed). A damaged or hostile pack
/// is refused with a `RulePackError` saying what is wrong and where; it never traps.
public enum RulePackLoader {
    /// Decodes and verifies a pack; a damaged one is `TipError.invalidPack`.
    public static func load(_ bytes: [UInt8]) throws(TipError) -> VerifiedRulePack {
        do {
            return try decode(bytes)
        } catch {
            throw .invalidPack(error)
        }
    }

    /// Decodes and verifies the pack in a file (an app's bundled resource:
    /// `Bundle.main.url(forResource: "tips", withExtension: "tippack")`); a file that cannot be
    /// read is `TipError.unreadablePack`, a damaged one `TipError.invalidPack`.
    public static func load(contentsOf url: URL) throws(TipError) -> VerifiedRulePack {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            throw .unreadablePack(path: url.path, reason: "\(error)")
        }
        return try load([UInt8](data))
    }

    /// `load(_:)` with the pack's own error, which says where in the bytes it went wrong (for
    /// tipc's tools).
    package static func decode(_ bytes: [UInt8]) throws(RulePackError) -> VerifiedRulePack {
        var decoder = PackDecoder(bytes: bytes)
        return try decoder.decode()
    }

    /// Decodes and verifies a pack, keeping only the model (for inspection).
    package static func decodeModel(_ bytes: [UInt8]) throws(RulePackError) -> RulePack {
        try decode(bytes).pack
    }
}

struct PackDecoder {
    let bytes: [UInt8]
    var strings: [String] = []
    /// The format version the header states (checked to be readable).
    var version: UInt32 = PackFormat.version

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func decode() throws(RulePackError) -> VerifiedRulePack {
        try checkHeader()
        var reader = ByteReader(bytes, offset: PackFormat.headerSize)
        let tableCount = try reader.count("table count", elementSize: 6)
        var nextRequired = 0
        let required = PackFormat.TableKind.allCases.filter { $0.introducedIn <= version }
        var displayFrequency: Int64 = 0
        var parameters: [PackParameter] = [], events: [PackEvent] = [], tips: [PackTip] = [], groups: [PackGroup] = []
        var texts: PackTexts?
        var producer: String?
        var hasGoals = false
        var experiments: [PackExperiment]?
        var codeOffsets: [[Int]] = []
        for _ in 0..<tableCount {
            let kindOffset = reader.offset
            let rawKind = try reader.u16("table kind")
            let length = Int(try reader.u32("table length"))
            try reader.need(length, "table \(rawKind)")
            var table = ByteReader(bytes, offset: reader.offset, limit: reader.offset + length)
            reader.offset += length
            if rawKind == PackFormat.producerTableKind {
                guard producer == nil else { throw RulePackError(.malformed, "the producer table is repeated", offset: kindOffset) }
                guard length <= PackFormat.maximumProducerLength,
                      let text = String(validating: bytes[table.offset..<table.offset + length], as: UTF8.self) else {
                    throw RulePackError(.malformed, "the producer is not UTF-8 text of at most \(PackFormat.maximumProducerLength) bytes", offset: kindOffset)
                }
                producer = text
                continue
            }
            if rawKind == PackFormat.tipGoalsTableKind {
                guard !hasGoals else { throw RulePackError(.malformed, "the tip goals table is repeated", offset: kindOffset) }
                guard nextRequired == required.count else {
                    throw RulePackError(.malformed, "the tip goals table comes before the required tables", offset: kindOffset)
                }
                try readTipGoals(&table, into: &tips, eventCount: events.count)
                if table.remaining != 0 {
                    throw RulePackError(.malformed, "\(table.remaining) unexpected byte(s) at the end of the tip goals table", offset: table.offset)
                }
                hasGoals = true
                continue
            }
            if rawKind == PackFormat.experimentsTableKind {
                guard experiments == nil else { throw RulePackError(.malformed, "the experiments table is repeated", offset: kindOffset) }
                guard nextRequired == required.count else {
                    throw RulePackError(.malformed, "the experiments table comes before the required tables", offset: kindOffset)
                }
                experiments = try readExperiments(&table, tips: tips, eventCount: events.count, parameterCount: parameters.count,
                                                  texts: texts)
                if table.remaining != 0 {
                    throw RulePackError(.malformed, "\(table.remaining) unexpected byte(s) at the end of the experiments table", offset: table.offset)
                }
                continue
            }
            if rawKind & PackFormat.optionalTableBit != 0 { continue }
            guard let kind = PackFormat.TableKind(rawValue: rawKind) else {
                throw RulePackError(.unsupportedVersion, "unknown required table kind \(rawKind) (written by a newer tipc?)", offset: kindOffset)
            }
            guard nextRequired < required.count, kind == required[nextRequired] else {
                let what = kind.introducedIn > version ? "not part of format \(version)" : "out of order or repeated"
                throw RulePackError(.malformed, "table \(kind) \(what)", offset: kindOffset)
            }
            nextRequired += 1
            switch kind {
            case .strings: try readStrings(&table)
            case .settings: displayFrequency = try table.i64("display frequency")
            case .parameters: parameters = try readParameters(&table)
            case .events: events = try readEvents(&table)
            case .tips: (tips, codeOffsets) = try readTips(&table)
            case .groups: groups = try readGroups(&table, tipCount: tips.count)
            case .tipKeys: try readTipKeys(&table, into: &tips)
            case .texts: texts = try readTexts(&table, tips: tips, parameterCount: parameters.count)
            }
            if table.remaining != 0 {
                throw RulePackError(.malformed, "\(table.remaining) unexpected byte(s) at the end of the \(kind) table", offset: table.offset)
            }
        }
        if nextRequired < required.count {
            throw RulePackError(.malformed, "the \(required[nextRequired]) table is missing", offset: reader.offset)
        }
        if reader.remaining != 0 {
            throw RulePackError(.malformed, "unexpected bytes after the last table", offset: reader.offset)
        }
        if displayFrequency < 0 {
            throw RulePackError(.malformed, "negative display frequency", offset: PackFormat.headerSize)
        }
        for group in groups {
            if let keyed = group.tips.first(where: { tips[$0].key != nil }) {
                throw RulePackError(.malformed, "group '\(group.name)' lists tip '\(tips[keyed].name)', which has a key", offset: PackFormat.headerSize)
            }
        }
        // Bytecode is verified once every table is read: a rule's types depend on the keys
        // of the tips it reads (the tip keys table follows the tips).
        let pack = RulePack(formatVersion: version, strings: strings, displayFrequencyMilliseconds: displayFrequency,
                            parameters: parameters, events: events, tips: tips, groups: groups, texts: texts, producer: producer,
                            experiments: experiments ?? [])
        var rules: [[VerifiedRule]] = []
        // One context for the pack (its per-tip key types are a pass over all tips), and each
        // tip's own key type set in it.
        var context = BytecodeContext(pack: pack)
        for (index, tip) in tips.enumerated() {
            context.keyType = tip.key?.type
            var verified: [VerifiedRule] = []
            for (rule, offset) in zip(tip.rules, codeOffsets[index]) {
                let shape = try BytecodeVerifier.verify(rule.code, context: context, baseOffset: offset)
                verified.append(VerifiedRule(code: rule.code, shape: shape))
            }
            rules.append(verified)
        }
        return VerifiedRulePack(pack: pack, rules: rules)
    }

    mutating func checkHeader() throws(RulePackError) {
        let magic = PackFormat.magic
        for index in 0..<min(bytes.count, magic.count) where bytes[index] != magic[index] {
            var message = "not a rule pack (bad magic bytes)"
            if bytes[0] == 0x09 { message = "the high bit of the first byte was lost (a 7-bit transfer)" }
            else if bytes.count >= 5 && bytes[1...3].elementsEqual(magic[1...3]) {
                if bytes[4] == 0x0A { message = "CR LF became LF (line-ending conversion)" }
                else if bytes[4] == 0x0D && bytes.count > 5 && bytes[5] == 0x0D { message = "LF became CR LF (line-ending conversion)" }
                else { message = "damaged magic bytes (line-ending or text-mode conversion?)" }
            }
            throw RulePackError(.badMagic, message, offset: index)
        }
        var reader = ByteReader(bytes)
        try reader.need(PackFormat.headerSize, "the header")
        reader.offset = magic.count
        let version = try reader.u32("version")
        guard PackFormat.readableVersions.contains(version) else {
            let readable = PackFormat.readableVersions.map(String.init).joined(separator: " and ")
            throw RulePackError(.unsupportedVersion, "format version \(version); this runtime reads versions \(readable)", offset: 8)
        }
        self.version = version
        let flags = try reader.u32("flags")
        if flags & ~PackFormat.knownFlags != 0 {
            throw RulePackError(.unsupportedVersion, "unknown header flags 0x\(String(flags, radix: 16))", offset: 12)
        }
        if try reader.i64("test integer") != PackFormat.testInteger {
            throw RulePackError(.incompatibleEncoding, "the test integer does not read back (byte order or integer size)", offset: 16)
        }
        if try reader.u64("test double") != PackFormat.testDouble.bitPattern {
            throw RulePackError(.incompatibleEncoding, "the test double does not read back (floating-point format)", offset: 24)
        }
        let bodyLength = Int(try reader.u32("body length"))
        let checksum = try reader.u32("checksum")
        let actual = bytes.count - PackFormat.headerSize
        if bodyLength > actual {
            throw RulePackError(.truncated, "the body should be \(bodyLength) bytes but \(actual) remain", offset: bytes.count)
        }
        if bodyLength < actual {
            throw RulePackError(.malformed, "\(actual - bodyLength) unexpected byte(s) after the body", offset: PackFormat.headerSize + bodyLength)
        }
        let computed = CRC32.checksum(bytes, in: PackFormat.headerSize..<bytes.count)
        if computed != checksum {
            throw RulePackError(.checksumMismatch, "the body's CRC-32 is 0x\(String(computed, radix: 16)), the header says 0x\(String(checksum, radix: 16))", offset: 36)
        }
    }

    mutating func readStrings(_ reader: inout ByteReader) throws(RulePackError) {
        let count = try reader.count("string count", elementSize: 4)
        strings.reserveCapacity(count)
        for index in 0..<count {
            let start = reader.offset
            let length = Int(try reader.u32("string length"))
            try reader.need(length, "string \(index)")
            guard let string = String(validating: bytes[reader.offset..<reader.offset + length], as: UTF8.self) else {
                throw RulePackError(.malformed, "string \(index) is not valid UTF-8", offset: start)
            }
            strings.append(string)
            reader.offset += length
        }
    }

    /// A goal (a tip's or an experiment's): an event in bounds and a positive window.
    func readGoal(_ reader: inout ByteReader, of what: String, eventCount: Int) throws(RulePackError) -> PackTipGoal {
        let eventOffset = reader.offset
        let event = Int(try reader.u32("event of the goal of \(what)"))
        guard event < eventCount else {
            throw RulePackError(.indexOutOfBounds, "the goal of \(what) names event \(event); the pack has \(eventCount)", offset: eventOffset)
        }
        let windowOffset = reader.offset
        let window = try reader.i64("window of the goal of \(what)")
        guard window > 0 else {
            throw RulePackError(.malformed, "the goal of \(what) has a window of \(window) ms; it must be positive", offset: windowOffset)
        }
        return PackTipGoal(event: event, windowMilliseconds: window)
    }

    func string(_ reader: inout ByteReader, _ what: String) throws(RulePackError) -> String {
        let offset = reader.offset
        let index = Int(try reader.u32(what))
        guard index < strings.count else {
            throw RulePackError(.indexOutOfBounds, "\(what): string \(index) out of bounds (\(strings.count) strings)", offset: offset)
        }
        return strings[index]
    }

    /// A name that must not be in `seen` (and is added to it): `what` says of what, as in
    /// "tip name".
    func uniqueName(_ reader: inout ByteReader, _ what: String, _ seen: inout Set<String>) throws(RulePackError) -> String {
        let offset = reader.offset
        let name = try string(&reader, what)
        guard seen.insert(name).inserted else {
            throw RulePackError(.duplicateName, "duplicate \(what): '\(name)'", offset: offset)
        }
        return name
    }

    func optionalString(_ reader: inout ByteReader, _ what: String) throws(RulePackError) -> String? {
        let offset = reader.offset
        let index = try reader.u32(what)
        if index == PackFormat.noString { return nil }
        guard Int(index) < strings.count else {
            throw RulePackError(.indexOutOfBounds, "\(what): string \(index) out of bounds (\(strings.count) strings)", offset: offset)
        }
        return strings[Int(index)]
    }

    func type(_ reader: inout ByteReader, _ what: String) throws(RulePackError) -> ValueType {
        let offset = reader.offset
        let raw = try reader.u8(what)
        guard let type = ValueType(rawValue: raw) else { throw RulePackError(.malformed, "\(what): unknown type code \(raw)", offset: offset) }
        return type
    }

    func flags(_ reader: inout ByteReader, _ what: String, known: UInt8) throws(RulePackError) -> UInt8 {
        let offset = reader.offset
        let flags = try reader.u8(what)
        if flags & ~known != 0 { throw RulePackError(.malformed, "\(what): unknown flags 0x\(String(flags, radix: 16))", offset: offset) }
        return flags
    }

    func readParameters(_ reader: inout ByteReader) throws(RulePackError) -> [PackParameter] {
        let count = try reader.count("parameter count", elementSize: 14)
        var parameters: [PackParameter] = []
        var names = Set<String>()
        for _ in 0..<count {
            let name = try uniqueName(&reader, "parameter name", &names)
            let type = try type(&reader, "type of parameter '\(name)'")
            let flags = try flags(&reader, "flags of parameter '\(name)'", known: 3)
            let slotOffset = reader.offset
            let slot = try reader.i64("default of parameter '\(name)'")
            if type == .bool, slot != 0 && slot != 1 {
                throw RulePackError(.malformed, "default of '\(name)' is not a Bool", offset: slotOffset)
            }
            if type == .string, !(slot >= 0 && slot < strings.count) {
                throw RulePackError(.indexOutOfBounds, "default of '\(name)': string \(slot) out of bounds", offset: slotOffset)
            }
            let value = ValueSlot.value(slot, as: type) { strings[Int($0)] }
            var values: [String]?
            if flags & 2 != 0 {
                guard type == .string else { throw RulePackError(.malformed, "parameter '\(name)' has values but is not a String", offset: slotOffset) }
                let valueCount = try reader.count("value count of '\(name)'", elementSize: 4)
                var list: [String] = []
                for _ in 0..<valueCount { list.append(try string(&reader, "value of '\(name)'")) }
                values = list
            }
            parameters.append(PackParameter(name: name, type: type, defaultValue: value, values: values, isTransient: flags & 1 != 0))
        }
        return parameters
    }

    func readEvents(_ reader: inout ByteReader) throws(RulePackError) -> [PackEvent] {
        let countOffset = reader.offset
        let count = try reader.count("event count", elementSize: 25)
        if count > PackFormat.maximumEvents {
            throw RulePackError(.limitExceeded, "\(count) events; at most \(PackFormat.maximumEvents)", offset: countOffset)
        }
        var events: [PackEvent] = []
        var names = Set<String>()
        for _ in 0..<count {
            let name = try uniqueName(&reader, "event name", &names)
            let flags = try flags(&reader, "flags of event '\(name)'", known: 3)
            let limitOffset = reader.offset
            let maximumCount = try reader.i64("maximum count of '\(name)'")
            let maximumAge = try reader.i64("maximum age of '\(name)'")
            if maximumCount < 0 || maximumAge < 0 {
                throw RulePackError(.malformed, "negative donation limit of event '\(name)'", offset: limitOffset)
            }
            let fieldsOffset = reader.offset
            let fieldCount = try reader.count("field count of '\(name)'", elementSize: 5)
            if fieldCount > PackFormat.maximumFields {
                throw RulePackError(.limitExceeded, "event '\(name)' has \(fieldCount) fields; at most \(PackFormat.maximumFields)", offset: fieldsOffset)
            }
            var fields: [PackField] = []
            var fieldNames = Set<String>()
            for _ in 0..<fieldCount {
                let fieldName = try uniqueName(&reader, "field name of event '\(name)'", &fieldNames)
                fields.append(PackField(name: fieldName, type: try type(&reader, "type of field '\(fieldName)'")))
            }
            events.append(PackEvent(name: name, fields: fields, maximumCount: flags & 1 != 0 ? maximumCount : nil,
                                    maximumAgeMilliseconds: flags & 2 != 0 ? maximumAge : nil))
        }
        return events
    }

    func readRange(_ reader: inout ByteReader) throws(RulePackError) -> PackSourceRange {
        PackSourceRange(file: try string(&reader, "source file"), startLine: try reader.i32("line"), startColumn: try reader.i32("column"),
                        endLine: try reader.i32("end line"), endColumn: try reader.i32("end column"))
    }

    /// The tips, and per rule the byte offset of its code (verified once all tables are read).
    func readTips(_ reader: inout ByteReader) throws(RulePackError) -> ([PackTip], [[Int]]) {
        let count = try reader.count("tip count", elementSize: 46)
        var tips: [PackTip] = []
        var allOffsets: [[Int]] = []
        var names = Set<String>()
        for _ in 0..<count {
            let name = try uniqueName(&reader, "tip name", &names)
            let title = try string(&reader, "title of tip '\(name)'")
            let message = try optionalString(&reader, "message of tip '\(name)'")
            let imageOffset = reader.offset
            let imageKind = try reader.u8("image kind of tip '\(name)'")
            let imageName = try optionalString(&reader, "image of tip '\(name)'")
            let image: PackImage?
            switch (imageKind, imageName) {
            case (0, nil): image = nil
            case (1, let name?): image = .symbol(name)
            case (2, let name?): image = .asset(name)
            default: throw RulePackError(.malformed, "image of tip '\(name)' is malformed", offset: imageOffset)
            }
            let flags = try flags(&reader, "flags of tip '\(name)'", known: 7)
            let optionsOffset = reader.offset
            let maxCount = try reader.i64("maxDisplayCount of '\(name)'")
            let maxDuration = try reader.i64("maxDisplayDuration of '\(name)'")
            if maxCount < 0 || maxDuration < 0 {
                throw RulePackError(.malformed, "negative display limit of tip '\(name)'", offset: optionsOffset)
            }
            let reservedOffset = reader.offset
            if try reader.u32("reserved word of tip '\(name)'") != 0 {
                throw RulePackError(.unsupportedVersion, "tip '\(name)' uses a feature this runtime does not know", offset: reservedOffset)
            }
            let actionCount = try reader.count("action count of '\(name)'", elementSize: 8)
            var actions: [PackAction] = []
            var actionIDs = Set<String>()
            for _ in 0..<actionCount {
                actions.append(PackAction(id: try uniqueName(&reader, "action id of tip '\(name)'", &actionIDs),
                                          title: try string(&reader, "action title")))
            }
            let ruleCount = try reader.count("rule count of '\(name)'", elementSize: 9)
            var rules: [RuleProgram] = []
            var offsets: [Int] = []
            for _ in 0..<ruleCount {
                let hasRangeOffset = reader.offset
                let hasRange = try reader.u8("rule range flag")
                guard hasRange <= 1 else { throw RulePackError(.malformed, "rule range flag must be 0 or 1", offset: hasRangeOffset) }
                let range = hasRange == 1 ? try readRange(&reader) : nil
                let wordCount = try reader.count("code length of a rule of '\(name)'", elementSize: 4)
                let codeOffset = reader.offset
                var code = [UInt32](repeating: 0, count: wordCount)
                for index in 0..<wordCount { code[index] = try reader.u32("code") }
                let mapCount = try reader.count("source map length", elementSize: 24)
                var sourceMap: [SourceMapEntry] = []
                var previous: UInt32 = 0
                for _ in 0..<mapCount {
                    let pcOffset = reader.offset
                    let pc = try reader.u32("source map pc")
                    guard Int(pc) < wordCount, pc >= previous else {
                        throw RulePackError(.malformed, "source map entry for word \(pc) is out of order or outside the code", offset: pcOffset)
                    }
                    previous = pc
                    sourceMap.append(SourceMapEntry(pc: pc, range: try readRange(&reader)))
                }
                rules.append(RuleProgram(code: code, range: range, sourceMap: sourceMap))
                offsets.append(codeOffset)
            }
            tips.append(PackTip(name: name, title: title, message: message, image: image, actions: actions,
                                maxDisplayCount: flags & 2 != 0 ? maxCount : nil,
                                maxDisplayDurationMilliseconds: flags & 4 != 0 ? maxDuration : nil,
                                ignoresDisplayFrequency: flags & 1 != 0, rules: rules))
            allOffsets.append(offsets)
        }
        return (tips, allOffsets)
    }

    /// The tip keys table: count, then (tip index, key name, key type Int or String) per keyed
    /// tip, tips ascending.
    func readTipKeys(_ reader: inout ByteReader, into tips: inout [PackTip]) throws(RulePackError) {
        let count = try reader.count("tip key count", elementSize: 9)
        var previous = -1
        for _ in 0..<count {
            let offset = reader.offset
            let tip = Int(try reader.u32("tip of a key"))
            guard tip < tips.count, tip > previous else {
                throw RulePackError(.indexOutOfBounds, "tip key for tip \(tip): out of bounds or out of order (\(tips.count) tips)", offset: offset)
            }
            previous = tip
            let name = try string(&reader, "key name of tip '\(tips[tip].name)'")
            let typeOffset = reader.offset
            let type = try type(&reader, "key type of tip '\(tips[tip].name)'")
            guard type == .int || type == .string else {
                throw RulePackError(.malformed, "the key of tip '\(tips[tip].name)' is \(type); keys are Int or String", offset: typeOffset)
            }
            tips[tip].key = PackTipKey(name: name, type: type)
        }
    }

    /// The optional tip goals table: count, then (tip index, event index, window in ms, positive)
    /// per tip with a goal, tips ascending.
    func readTipGoals(_ reader: inout ByteReader, into tips: inout [PackTip], eventCount: Int) throws(RulePackError) {
        let count = try reader.count("tip goal count", elementSize: 16)
        var previous = -1
        for _ in 0..<count {
            let offset = reader.offset
            let tip = Int(try reader.u32("tip of a goal"))
            guard tip < tips.count, tip > previous else {
                throw RulePackError(.indexOutOfBounds, "goal for tip \(tip): out of bounds or out of order (\(tips.count) tips)", offset: offset)
            }
            previous = tip
            tips[tip].goal = try readGoal(&reader, of: "tip '\(tips[tip].name)'", eventCount: eventCount)
        }
    }

    func readGroups(_ reader: inout ByteReader, tipCount: Int) throws(RulePackError) -> [PackGroup] {
        let count = try reader.count("group count", elementSize: 9)
        var groups: [PackGroup] = []
        var names = Set<String>()
        for _ in 0..<count {
            let name = try uniqueName(&reader, "group name", &names)
            let priorityOffset = reader.offset
            guard let priority = PackGroupPriority(rawValue: try reader.u8("priority of group '\(name)'")) else {
                throw RulePackError(.malformed, "unknown priority of group '\(name)'", offset: priorityOffset)
            }
            let memberCount = try reader.count("tip count of group '\(name)'", elementSize: 4)
            var members: [Int] = []
            for _ in 0..<memberCount {
                let offset = reader.offset
                let tip = Int(try reader.u32("tip of group '\(name)'"))
                guard tip < tipCount else {
                    throw RulePackError(.indexOutOfBounds, "group '\(name)' lists tip \(tip); the pack has \(tipCount)", offset: offset)
                }
                members.append(tip)
            }
            groups.append(PackGroup(name: name, priority: priority, tips: members))
        }
        return groups
    }
}
