import Testing
@testable import TipcCompiler
import TipcDriver
@testable import TipKitBridge

/// The Swift reader never crashes, hangs or blows up memory: hostile inputs give diagnostics
/// (or nothing). Each check finishing is the "no hang"; how fast the reader is, on inputs of
/// every size, is measured by `tipc-bench import`, not here.
private func importHostile(_ text: String) -> [Diagnostic] {
    importHostile(Array(text.utf8))
}

private func importHostile(_ bytes: [UInt8]) -> [Diagnostic] {
    Frontend.check(sources: [SourceFile(path: "Hostile.swift", bytes: bytes)], keepingProgram: false).diagnostics
}

@Test func deepBracketsAreALimit() {
    let diagnostics = importHostile(String(repeating: "(", count: 200_000))
    #expect(diagnostics.contains { $0.code == .limit })
    let braces = importHostile("struct T: Tip { var rules: [Rule] { #Rule(Self.e) { " + String(repeating: "{", count: 100_000))
    #expect(braces.contains { $0.code == .limit })
}

@Test func deepNestedTypesAreALimit() {
    let text = String(repeating: "struct A {\n", count: 300) + String(repeating: "}\n", count: 300)
    #expect(importHostile(text).contains { $0.code == .limit })
}

@Test func longOperatorChainsInARuleDoNotRecurseWithoutBound() {
    let head = "import TipKit\nstruct T: Tip {\n static let e = Tips.Event(id: \"e\")\n var title: Text { Text(\"T\") }\n var rules: [Rule] {\n"
    for body in [String(repeating: "!", count: 100_000) + "$0",
                 "$0.donations.count > 1" + String(repeating: " && $0.donations.count > 1", count: 50_000),
                 "$0" + String(repeating: ".donations", count: 100_000) + ".count > 1",
                 String(repeating: "-", count: 100_000) + "1 > 0"] {
        let diagnostics = importHostile(head + "  #Rule(Self.e) { " + body + " }\n }\n}\n")
        #expect(!diagnostics.contains { $0.severity == .error && $0.code != .limit && $0.code != .typeMismatch })
    }
}

@Test func unterminatedStringsAndCommentsAreSyntaxErrors() {
    for text in ["struct T: Tip { var title: Text { Text(\"open", "/* never closed", "let s = \"\"\"\nno end",
                 "let s = #\"raw with no end", "let s = \"\\(unclosed interpolation\n\"", "/* /* nested */ still open"] {
        let diagnostics = importHostile(text)
        #expect(diagnostics.contains { $0.code == .syntax }, "\(text)")
    }
}

@Test func aFileOverTheSizeLimitIsNotRead() {
    let diagnostics = importHostile(String(repeating: "// comment\n", count: SwiftLexer.maximumFileSize / 11 + 10))
    #expect(diagnostics.contains { $0.code == .limit })
}

@Test func randomBytesAndShuffledSwiftAreRefusedWithErrors() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    var bytes: [UInt8] = []
    bytes.reserveCapacity(2 * 1024 * 1024)
    for _ in 0..<(2 * 1024 * 1024) {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        bytes.append(UInt8(truncatingIfNeeded: state >> 56))
    }
    #expect(importHostile(bytes).contains { $0.severity == .error })
    // Swift-looking garbage: the reader's own punctuation, shuffled.
    let pieces = ["struct", " T", ": Tip", " {", "}", "(", ")", "[", "]", "#Rule", "$0", ".", "\"", "var", " title", "=", "TipGroup", "\n"]
    var text = ""
    for _ in 0..<200_000 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        text += pieces[Int(state >> 33) % pieces.count]
    }
    #expect(importHostile(text).contains { $0.severity == .error })
}

@Test func manyTipsAreImported() {
    var text = "import TipKit\nstatic let e = Tips.Event(id: \"e\")\n"
    for number in 0..<10_000 {
        text += "struct Tip\(number): Tip { var title: Text { Text(\"Tip \(number)\") }; var rules: [Rule] { #Rule(e) { $0.donations.count > \(number % 7) } } }\n"
    }
    let result = Frontend.check(sources: [SourceFile(path: "Hostile.swift", text: text)])
    #expect(!result.diagnostics.contains { $0.severity == .error })
    #expect(result.program?.tips.count == 10_000)
}
