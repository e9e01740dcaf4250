/// Values by name, for the names a manifest declares (entry keys, parameters, events, tips):
/// open addressing with linear probing, hashed with FNV-1a over the name's UTF-8, which costs
/// far less for short names than the standard library's seeded hashing. Names are kept in the
/// order they were first inserted.
///
/// Names are the same when their UTF-8 bytes are, as YAML compares keys: two spellings of one
/// accented letter (composed, or a letter and a combining mark) are two names, where `String`'s
/// `==` would take them for one. Only names outside the rule language's ASCII names can differ
/// so, and those are errors already.
struct NameTable<Value> {
    /// The names, in insertion order, with their values and hashes.
    private(set) var names: [String] = []
    private(set) var values: [Value] = []
    private var hashes: [Int] = []
    /// Each slot holds an index into `names`, or -1. The count of slots is a power of two, at
    /// least twice the count of names.
    private var slots: [Int32] = Array(repeating: -1, count: 16)

    init() {}

    var count: Int { names.count }

    /// Makes room for `count` names, so that inserting them never grows the table.
    mutating func reserveCapacity(_ count: Int) {
        names.reserveCapacity(count)
        values.reserveCapacity(count)
        hashes.reserveCapacity(count)
        if slots.count < 2 * count { rehash(slotCount: Self.slotCount(for: count)) }
    }

    /// The value of `name`, if it was inserted.
    subscript(name: String) -> Value? {
        let found = slots[slot(of: name, hash: Self.hash(name))]
        return found < 0 ? nil : values[Int(found)]
    }

    func contains(_ name: String) -> Bool {
        slots[slot(of: name, hash: Self.hash(name))] >= 0
    }

    /// Inserts `value` for `name`, unless `name` has a value: that value is then returned and
    /// kept (one lookup either way).
    mutating func insertUnlessPresent(_ value: Value, for name: String) -> Value? {
        let hash = Self.hash(name)
        let slot = slot(of: name, hash: hash)
        if slots[slot] >= 0 { return values[Int(slots[slot])] }
        slots[slot] = Int32(names.count)
        names.append(name)
        values.append(value)
        hashes.append(hash)
        if slots.count < 2 * names.count { rehash(slotCount: Self.slotCount(for: names.count)) }
        return nil
    }

    /// The slot holding `name`, or the empty slot where it would go.
    private func slot(of name: String, hash: Int) -> Int {
        let mask = slots.count - 1
        var slot = hash & mask
        while true {
            let found = slots[slot]
            if found < 0 || (hashes[Int(found)] == hash && Self.same(names[Int(found)], name, hash: hash)) { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// Whether `a` and `b`, of equal `hash`, have the same UTF-8 bytes. For ASCII names
    /// (a hash not negative) `==` tells; it would also take two spellings of an accented
    /// letter for one, so other names are compared byte by byte.
    private static func same(_ a: String, _ b: String, hash: Int) -> Bool {
        guard a == b else { return false }
        if hash >= 0 { return true }
        var a = a, b = b
        return a.withUTF8 { first in b.withUTF8 { second in first.elementsEqual(second) } }
    }

    /// FNV-1a over the UTF-8 of `name`, folded to an Int: negative exactly when a byte is not
    /// ASCII (see `same`).
    static func hash(_ name: String) -> Int {
        var name = name  // read as one buffer: iterating `utf8` costs far more per byte
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            var allBits: UInt8 = 0
            for byte in bytes {
                hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3
                allBits |= byte
            }
            let folded = (hash ^ (hash >> 29)) & 0x7FFF_FFFF_FFFF_FFFF
            return Int(truncatingIfNeeded: allBits < 0x80 ? folded : folded | 0x8000_0000_0000_0000)
        }
    }

    /// The number of slots for `count` names: a power of two, at least twice `count`.
    private static func slotCount(for count: Int) -> Int {
        var slots = 16
        while slots < 2 * count { slots *= 2 }
        return slots
    }

    private mutating func rehash(slotCount: Int) {
        slots = Array(repeating: -1, count: slotCount)
        let mask = slotCount - 1
        for index in hashes.indices {
            var slot = hashes[index] & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }
}

extension NameTable: Sendable where Value: Sendable {}
