import Testing
@testable import TipcCompiler

/// `NameTable` answers as a dictionary would: the first value inserted for a name stays, every
/// name is found after any number of insertions (through growth), others are not.
@Suite("Name table")
struct NameTableTests {
    @Test func behavesAsADictionaryKeepingFirstValues() {
        var random = SeededGenerator(seed: 0x7AB1E)
        var table = NameTable<Int>()
        var reference: [String: Int] = [:]
        let alphabet = Array("abcé_-.0123456789XYZ")
        for step in 0..<5_000 {
            let length = Int.random(in: 0...20, using: &random)
            let name = String((0..<length).map { _ in alphabet.randomElement(using: &random)! })
            let existing = table.insertUnlessPresent(step, for: name)
            #expect(existing == reference[name])
            if reference[name] == nil { reference[name] = step }
        }
        #expect(table.count == reference.count)
        #expect(table.names.count == Set(table.names).count)
        for (name, value) in reference {
            #expect(table[name] == value)
            #expect(table.contains(name))
        }
        #expect(table["not inserted at all, longer than any"] == nil)
        #expect(!table.contains("Ω"))
    }

    @Test func keepsInsertionOrder() {
        var table = NameTable<String>()
        table.reserveCapacity(3)
        for name in ["tip2", "tip10", "tip1", "tip2"] { _ = table.insertUnlessPresent(name.uppercased(), for: name) }
        #expect(table.names == ["tip2", "tip10", "tip1"])
        #expect(table.values == ["TIP2", "TIP10", "TIP1"])
    }

    /// Names are compared by their bytes, as YAML compares keys: a composed é and an e with a
    /// combining accent are two names (`String`'s `==` would make them one).
    @Test func namesAreTheSameOnlyWhenTheirBytesAre() {
        var table = NameTable<Int>()
        #expect(table.insertUnlessPresent(1, for: "caf\u{E9}") == nil)
        #expect(table.insertUnlessPresent(2, for: "cafe\u{301}") == nil)
        #expect(table.insertUnlessPresent(3, for: "caf\u{E9}") == 1)
        #expect(table["cafe\u{301}"] == 2)
        #expect(table.count == 2)
    }
}
