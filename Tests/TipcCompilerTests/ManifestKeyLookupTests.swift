import Testing
@testable import TipcCompiler

/// `ManifestKeyLookup`, which the YAML reader asks for the row of every key it reads: it
/// compares lengths and first bytes before texts, so keys that share both must still be told
/// apart, and it must find every row of every table.
@Suite struct ManifestKeyLookupTests {
    @Test func keysSharingLengthAndFirstByteAreToldApart() {
        let lookup = ManifestKeyLookup([(name: "title", value: 1), (name: "tipsX", value: 2), (name: "t", value: 3), (name: "é", value: 4)])
        #expect(lookup.value(named: "title") == 1)
        #expect(lookup.value(named: "tipsX") == 2)
        #expect(lookup.value(named: "t") == 3)
        #expect(lookup.value(named: "é") == 4)
        #expect(lookup.value(named: "titlf") == nil)
        #expect(lookup.value(named: "titles") == nil)
        #expect(lookup.value(named: "") == nil)
        // A decomposed é has another length in UTF-8: keys are compared as written.
        #expect(lookup.value(named: "e\u{301}") == nil)
    }

    @Test func everyRowOfEveryTableIsFoundByItsKey() {
        func check<Table: DeclarationTable>(_ table: Table.Type) {
            // A repeated key would leave its second row unreachable.
            #expect(Set(Table.keys).count == Table.keys.count, "\(Table.self)")
            for key in Table.keys {
                #expect(Table.lookup.value(named: key) != nil, "\(Table.self): \(key)")
            }
            #expect(Table.lookup.value(named: "noSuchKey") == nil)
        }
        check(FileAttributes.self)
        check(ParameterAttributes.self)
        check(EventAttributes.self)
        check(DonationLimitAttributes.self)
        check(GroupAttributes.self)
        check(ExperimentAttributes.self)
        check(ArmAttributes.self)
        for key in TipAttributes.keys {
            #expect(TipAttributes.lookup.value(named: key) != nil, "tip: \(key)")
        }
        #expect(TipAttributes.lookup.value(named: "Title") == nil)
    }
}
