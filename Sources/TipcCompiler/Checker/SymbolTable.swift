/// Every declaration of a program, by name, with duplicates reported. Names share one
/// namespace (SPEC §2): a parameter and an event may not have the same name either.
///
/// One hash table holds every name. It is a small open-addressing table hashed with FNV-1a
/// over the name's UTF-8: rules look names up once per reference, and short names hash far
/// cheaper that way than with the standard library's seeded hashing. The names of each kind
/// are listed in declaration order, for did-you-mean suggestions (which are then the same
/// on every run: among equally close names, the first declared wins).
struct SymbolTable {
    enum Kind: String {
        case parameter, event, tip, group
    }

    struct Entry {
        var kind: Kind
        var index: Int
        var range: SourceRange
    }

    /// The declared names and their entries, in declaration order.
    private var names: [String] = []
    private var entries: [Entry] = []
    /// Open addressing with linear probing: each slot holds an index into `names` and
    /// `entries`, or -1. The count of slots is a power of two, at least twice the names.
    private var slots: [Int32] = Array(repeating: -1, count: 16)

    /// The names of parameters, of events, of tips, in declaration order (for suggestions:
    /// gathered when asked rather than kept, as declaring every tip would then cost more).
    var parameterNames: [String] { names(of: .parameter) }
    var eventNames: [String] { names(of: .event) }
    var tipNames: [String] { names(of: .tip) }

    private func names(of kind: Kind) -> [String] {
        names.indices.compactMap { entries[$0].kind == kind ? names[$0] : nil }
    }

    /// Makes room for `count` names, so that declaring them never grows the table.
    mutating func reserveCapacity(_ count: Int) {
        names.reserveCapacity(count)
        entries.reserveCapacity(count)
        if slots.count < 2 * count { rehash(slotCount: Self.slotCount(for: count)) }
    }

    /// Declares `name`; a second declaration of a name is a `duplicate-name` error pointing at it,
    /// with a note at the first.
    mutating func declare(_ name: borrowing Identifier, as kind: Kind, index: Int, diagnostics: inout [Diagnostic]) -> Bool {
        let slot = slot(of: name.name)
        if slots[slot] >= 0 {
            let first = entries[Int(slots[slot])]
            let message = first.kind == kind
                ? "duplicate \(kind.rawValue) '\(name.name)'"
                : "\(kind.rawValue) '\(name.name)' has the name of a \(first.kind.rawValue)"
            diagnostics.append(Diagnostic(
                .duplicateName, message, at: name.range,
                help: "names of parameters, events, tips and groups are unique in the whole program",
                notes: [DiagnosticNote("'\(name.name)' is first declared here", at: first.range)]))
            return false
        }
        slots[slot] = Int32(names.count)
        names.append(name.name)
        entries.append(Entry(kind: kind, index: index, range: name.range))
        if slots.count < 2 * names.count { rehash(slotCount: Self.slotCount(for: names.count)) }
        return true
    }

    func kind(of name: String) -> Kind? { entry(name)?.kind }

    /// The index of the parameter named `name`, if there is one.
    func parameter(_ name: String) -> Int? { index(of: name, .parameter) }

    /// The index of the event named `name`, if there is one.
    func event(_ name: String) -> Int? { index(of: name, .event) }

    /// The index of the tip named `name`, if there is one.
    func tip(_ name: String) -> Int? { index(of: name, .tip) }

    private func index(of name: String, _ kind: Kind) -> Int? {
        guard let entry = entry(name), entry.kind == kind else { return nil }
        return entry.index
    }

    private func entry(_ name: String) -> Entry? {
        let found = slots[slot(of: name)]
        return found < 0 ? nil : entries[Int(found)]
    }

    /// The slot holding `name`, or the empty slot where it would go.
    private func slot(of name: String) -> Int {
        let mask = slots.count - 1
        var slot = Self.hash(name) & mask
        while true {
            let found = slots[slot]
            if found < 0 || names[Int(found)] == name { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// FNV-1a over the UTF-8 of `name`, folded to an Int.
    private static func hash(_ name: String) -> Int {
        var name = name  // read as one buffer: iterating `utf8` costs far more per byte
        return name.withUTF8 { bytes in
            var hash: UInt64 = 0xCBF2_9CE4_8422_2325
            for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return Int(truncatingIfNeeded: hash ^ (hash >> 29))
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
        for index in names.indices {
            var slot = Self.hash(names[index]) & mask
            while slots[slot] >= 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index)
        }
    }
}
