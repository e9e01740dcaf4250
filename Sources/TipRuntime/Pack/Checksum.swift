/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), the checksum of a pack's body.
package enum CRC32 {
    private static let table: [UInt32] = (0..<256).map { index -> UInt32 in
        var crc = UInt32(index)
        for _ in 0..<8 {
            crc = (crc & 1) != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
        }
        return crc
    }

    /// The CRC-32 of `bytes[range]`.
    package static func checksum(_ bytes: [UInt8], in range: Range<Int>) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        table.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { buffer in
                for index in range {
                    crc = table[Int((crc ^ UInt32(buffer[index])) & 0xFF)] ^ (crc >> 8)
                }
            }
        }
        return crc ^ 0xFFFF_FFFF
    }

    /// The CRC-32 of all of `bytes`.
    package static func checksum(_ bytes: [UInt8]) -> UInt32 {
        checksum(bytes, in: 0..<bytes.count)
    }
}
