/// Appends little-endian values to a byte array.
struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u16(_ value: UInt16) {
        bytes.append(UInt8(truncatingIfNeeded: value))
        bytes.append(UInt8(truncatingIfNeeded: value >> 8))
    }

    mutating func u32(_ value: UInt32) {
        for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt32(shift))) }
    }

    mutating func u64(_ value: UInt64) {
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
    }

    mutating func i32(_ value: Int32) { u32(UInt32(bitPattern: value)) }
    mutating func i64(_ value: Int64) { u64(UInt64(bitPattern: value)) }

    mutating func patchU32(at offset: Int, _ value: UInt32) {
        for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> UInt32(8 * index)) }
    }
}

/// Reads little-endian values from a byte array, refusing to read past `limit`.
struct ByteReader {
    let bytes: [UInt8]
    var offset: Int
    var limit: Int

    init(_ bytes: [UInt8], offset: Int = 0, limit: Int? = nil) {
        self.bytes = bytes
        self.offset = offset
        self.limit = limit ?? bytes.count
    }

    var remaining: Int { limit - offset }

    func need(_ count: Int, _ what: @autoclosure () -> String) throws(RulePackError) {
        if count < 0 || count > remaining {
            throw RulePackError(.truncated, "\(what()) needs \(count) bytes but only \(remaining) remain", offset: offset)
        }
    }

    mutating func u8(_ what: @autoclosure () -> String) throws(RulePackError) -> UInt8 {
        try need(1, what())
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func u16(_ what: @autoclosure () -> String) throws(RulePackError) -> UInt16 {
        try need(2, what())
        defer { offset += 2 }
        return UInt16(bytes[offset]) | UInt16(bytes[offset + 1]) << 8
    }

    mutating func u32(_ what: @autoclosure () -> String) throws(RulePackError) -> UInt32 {
        try need(4, what())
        var value: UInt32 = 0
        for index in 0..<4 { value |= UInt32(bytes[offset + index]) << UInt32(8 * index) }
        offset += 4
        return value
    }

    mutating func u64(_ what: @autoclosure () -> String) throws(RulePackError) -> UInt64 {
        try need(8, what())
        var value: UInt64 = 0
        for index in 0..<8 { value |= UInt64(bytes[offset + index]) << UInt64(8 * index) }
        offset += 8
        return value
    }

    mutating func i32(_ what: @autoclosure () -> String) throws(RulePackError) -> Int32 { Int32(bitPattern: try u32(what())) }
    mutating func i64(_ what: @autoclosure () -> String) throws(RulePackError) -> Int64 { Int64(bitPattern: try u64(what())) }

    /// A count of elements each at least `elementSize` bytes long, checked against the bytes left
    /// (so a hostile count cannot make the loader allocate without bound).
    mutating func count(_ what: @autoclosure () -> String, elementSize: Int) throws(RulePackError) -> Int {
        let start = offset
        let value = Int(try u32(what()))
        if value * elementSize > remaining {
            throw RulePackError(.truncated, "\(what()) count \(value) exceeds the bytes left", offset: start)
        }
        return value
    }
}
