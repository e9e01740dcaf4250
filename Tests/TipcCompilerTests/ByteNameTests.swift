import Testing
@testable import TipcCompiler
import TipcDriver

@Suite("Names compared by their bytes")
struct ByteNameTests {
    /// Names are compared by their bytes, as YAML compares keys: a composed é and an e with a
    /// combining accent are two names (`String`'s `==` would make them one).
    @Test func namesAreTheSameOnlyWhenTheirBytesAre() {
        var table: [ByteName: Int] = [:]
        table[ByteName("caf\u{E9}")] = 1
        #expect(table[ByteName("cafe\u{301}")] == nil)
        table[ByteName("cafe\u{301}")] = 2
        #expect(table[ByteName("caf\u{E9}")] == 1)
        #expect(table[ByteName("cafe\u{301}")] == 2)
        #expect(table.count == 2)
        #expect(ByteName("tip1") == ByteName(String("tip1x".dropLast())))
    }

    /// The same in a manifest: two tips so named are neither a repeated key nor a duplicate name.
    @Test func aManifestKeepsBothSpellings() {
        let text = "tipkit: 1\ntips:\n  caf\u{E9}:\n    title: A\n  cafe\u{301}:\n    title: B\n"
        let result = Frontend.check(sources: [SourceFile(path: "names.yaml", text: text)])
        #expect(!result.diagnostics.contains { $0.code == .duplicateKey || $0.code == .duplicateName })
        #expect(result.diagnostics.filter { $0.code == .invalidValue }.count == 2)
    }
}
