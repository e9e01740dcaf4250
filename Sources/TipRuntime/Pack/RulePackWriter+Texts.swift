/// The texts table (kind 8; layout in docs/bytecode.md, "texts").
extension RulePackWriter {
    static func encode(_ texts: PackTexts, _ interner: inout StringInterner) -> [UInt8] {
        var table = ByteWriter()
        table.u32(texts.defaultLocale.map { interner.index($0) } ?? PackFormat.noString)
        table.u32(UInt32(texts.tips.count))
        for entry in texts.tips {
            table.u32(UInt32(truncatingIfNeeded: entry.tip))
            table.u32(UInt32(entry.placeholders.count))
            for placeholder in entry.placeholders {
                table.u32(interner.index(placeholder.name))
                table.u8(placeholder.type.rawValue)
            }
            let all = entry.allTexts
            table.u32(UInt32(all.count))
            for text in all { write(text, to: &table, &interner) }
        }
        return table.bytes
    }

    /// One text: its locales, each with its template's segments (the texts table's and the
    /// experiments table's layout of a text).
    static func write(_ text: PackLocalizedText, to table: inout ByteWriter, _ interner: inout StringInterner) {
        table.u32(UInt32(text.variants.count))
        for variant in text.variants {
            table.u32(variant.locale.map { interner.index($0) } ?? PackFormat.noString)
            table.u32(UInt32(variant.template.segments.count))
            for segment in variant.template.segments {
                switch segment {
                case .literal(let literal): table.u8(0); table.u32(interner.index(literal))
                case .parameter(let index): table.u8(1); table.u32(UInt32(truncatingIfNeeded: index))
                case .placeholder(let index): table.u8(2); table.u32(UInt32(truncatingIfNeeded: index))
                }
            }
        }
    }
}
