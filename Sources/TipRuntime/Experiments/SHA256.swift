/// SHA-256 (FIPS 180-4): the hash behind experiment assignment on a device, and, in the
/// service, API keys (the keys file holds tokens' digests) and the pack's ETag. One-shot over
/// contiguous bytes, and allocation-free until a digest is asked for as an array or as text.
package enum SHA256 {
    /// The digest's eight 32-bit words (its bytes in big-endian order, word by word).
    package typealias Words = SIMD8<UInt32>

    /// The digest of `bytes`.
    package static func digest<Bytes: Sequence>(_ bytes: Bytes) -> [UInt8] where Bytes.Element == UInt8 {
        let state = words(bytes)
        var result: [UInt8] = []
        result.reserveCapacity(32)
        for index in 0..<8 {
            for shift: UInt32 in [24, 16, 8, 0] { result.append(UInt8(truncatingIfNeeded: state[index] >> shift)) }
        }
        return result
    }

    /// The digest of `bytes` as 64 lowercase hex digits.
    package static func hex<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(64)
        for byte in digest(bytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The digest of `bytes` as words.
    package static func words<Bytes: Sequence>(_ bytes: Bytes) -> Words where Bytes.Element == UInt8 {
        if let state = bytes.withContiguousStorageIfAvailable({ words(UnsafeRawBufferPointer($0)) }) { return state }
        return Array(bytes).withUnsafeBytes { words($0) }
    }

    /// The digest of the bytes in `buffer` as words.
    package static func words(_ buffer: UnsafeRawBufferPointer) -> Words {
        var state = initialState
        let whole = buffer.count / 64 * 64
        withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 64) { schedule in
            var start = 0
            while start < whole {
                compress(&state, UnsafeRawBufferPointer(rebasing: buffer[start..<start + 64]), schedule)
                start += 64
            }
            // The padding: the rest of the bytes, 0x80, zeros, and the length in bits, in one
            // block or two.
            withUnsafeTemporaryAllocation(byteCount: 128, alignment: 8) { tail in
                let rest = buffer.count - whole
                tail.initializeMemory(as: UInt8.self, repeating: 0)
                if rest > 0 { tail.baseAddress!.copyMemory(from: buffer.baseAddress! + whole, byteCount: rest) }
                tail[rest] = 0x80
                let blocks = rest < 56 ? 1 : 2
                let bits = UInt64(buffer.count) &* 8
                for index in 0..<8 { tail[blocks * 64 - 1 - index] = UInt8(truncatingIfNeeded: bits >> UInt64(8 * index)) }
                for block in 0..<blocks {
                    compress(&state, UnsafeRawBufferPointer(rebasing: tail[block * 64..<block * 64 + 64]), schedule)
                }
            }
        }
        return state
    }

    private static let initialState = Words(
        0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19)

    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    /// Folds one 64-byte block into `state`; `w` is room for the message schedule.
    private static func compress(_ state: inout Words, _ block: UnsafeRawBufferPointer, _ w: UnsafeMutableBufferPointer<UInt32>) {
        for i in 0..<16 {
            w[i] = UInt32(block[4 * i]) << 24 | UInt32(block[4 * i + 1]) << 16
                | UInt32(block[4 * i + 2]) << 8 | UInt32(block[4 * i + 3])
        }
        for i in 16..<64 {
            let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
            let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
            w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
        }
        var a = state[0], b = state[1], c = state[2], d = state[3]
        var e = state[4], f = state[5], g = state[6], h = state[7]
        k.withUnsafeBufferPointer { k in
            for i in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = h &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                h = g; g = f; f = e; e = d &+ t1
                d = c; c = b; b = a; a = t1 &+ t2
            }
        }
        state &+= Words(a, b, c, d, e, f, g, h)
    }

    @inline(__always)
    private static func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value >> count | value << (32 - count) }
}
