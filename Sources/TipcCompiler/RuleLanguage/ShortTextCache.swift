/// The strings of short texts (names, short string contents) read from source bytes, made once
/// per distinct text and then reused.
///
/// Rules repeat their words (`event12`, `count`, `where`, `category`) over and over; finding a
/// string made before costs a few loads and compares, where making one validates and copies
/// the bytes again. Texts of up to 15 bytes are cached: their bytes and length pack exactly
/// into a two-word key, so a hit is always the same text. A slot holds the last text that
/// hashed to it. The table starts small (a parser of a few rules needs few slots) and grows
/// fourfold, up to `maximumSlotCount`, each time it has missed more often than it has slots:
/// a manifest with hundreds of event and parameter names would otherwise keep evicting them.
struct ShortTextCache {
    private struct Entry {
        /// Bytes 0–7 of the text, little-endian, zero-padded.
        var low: UInt64
        /// Bytes 8–14 of the text, zero-padded, and its length in the top byte.
        var high: UInt64
        var text: String
    }

    private static let initialSlotCount = 64
    private static let maximumSlotCount = 4096
    /// Empty until first used (a parser of one short text never needs it); a power of two.
    private var entries: [Entry] = []
    /// 64 minus the number of bits of a slot index: a hash shifted right by it is a slot.
    private var slotShift: UInt64 = 64
    /// Misses since the table last grew.
    private var misses = 0

    /// `String(decoding: bytes[start..<end], as: UTF8.self)`.
    mutating func string(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int) -> String {
        let count = end - start
        guard count > 0, count <= 15 else { return String(decoding: bytes[start..<end], as: UTF8.self) }
        var low: UInt64 = 0
        var high: UInt64 = 0
        let raw = UnsafeRawBufferPointer(bytes)
        if count >= 8 {
            low = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self)
            if count > 8 {
                // The last eight bytes, shifted down to drop those already in `low`.
                high = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) >> UInt64((16 - count) * 8)
            }
        } else if start + 8 <= bytes.count {
            // Eight bytes from the start, masked to the text.
            low = raw.loadUnaligned(fromByteOffset: start, as: UInt64.self) & (1 << UInt64(count * 8) - 1)
        } else if end >= 8 {
            // Eight bytes up to the end, shifted down to the text.
            low = raw.loadUnaligned(fromByteOffset: end - 8, as: UInt64.self) >> UInt64((8 - count) * 8)
        } else {
            for index in 0..<count { low |= UInt64(bytes[start + index]) << UInt64(index * 8) }
        }
        high |= UInt64(count) << 56
        if entries.isEmpty { resize(to: Self.initialSlotCount) }
        let slot = Int(truncatingIfNeeded: ((low ^ (high &* 0x9E37_79B9_7F4A_7C15)) &* 0xBF58_476D_1CE4_E5B9) >> slotShift)
        if entries[slot].low == low, entries[slot].high == high { return entries[slot].text }
        let text = String(decoding: bytes[start..<end], as: UTF8.self)
        entries[slot] = Entry(low: low, high: high, text: text)
        misses += 1
        if misses > entries.count, entries.count < Self.maximumSlotCount { resize(to: entries.count * 4) }
        return text
    }

    /// Replaces the table by an empty one of `slotCount` slots (a power of two).
    private mutating func resize(to slotCount: Int) {
        entries = Array(repeating: Entry(low: 0, high: 0, text: ""), count: slotCount)
        slotShift = UInt64(64 - slotCount.trailingZeroBitCount)
        misses = 0
    }
}
