import Foundation
import Testing
@testable import TipcCompiler
import TipcDriver

/// A YAML manifest checked without keeping its files leaves its rules unparsed for the checker,
/// which parses each right before checking it (`UnparsedRule`). Nothing a user sees may differ
/// from parsing them while decoding: the same diagnostics in the same order, the same program.
@Suite struct UnparsedRuleTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every YAML manifest of the repository: the examples, the diagnostics goldens' inputs
    /// (syntax errors, limits, broken YAML among them) and the format-1 fixtures (also fuzz seeds).
    private static func repositoryManifests() throws -> [SourceFile] {
        let folders = ["Examples", "Tests/TipcCLITests/Fixtures/diagnostics", "Tests/TipRuntimeTests/Fixtures/format1"]
        var sources: [SourceFile] = []
        for folder in folders {
            let base = repository.appendingPathComponent(folder)
            let paths = (FileManager.default.subpaths(atPath: base.path) ?? []).filter { $0.hasSuffix(".yaml") }.sorted()
            for relative in paths {
                let url = base.appendingPathComponent(relative)
                sources.append(SourceFile(path: url.path, bytes: [UInt8](try Data(contentsOf: url))))
            }
        }
        return sources
    }

    /// Checks `source` with its rules parsed while decoding (files kept) and left to the
    /// checker (files not kept), and expects the same result.
    private func expectSameCheck(_ source: SourceFile, _ comment: @autoclosure () -> String = "",
                                 sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let parsed = Frontend.check(sources: [source], keepingParsedFiles: true)
        let unparsed = Frontend.check(sources: [source])
        #expect(parsed.diagnostics == unparsed.diagnostics, "\(source.path) \(comment())", sourceLocation: sourceLocation)
        #expect(parsed.program == unparsed.program, "\(source.path) \(comment())", sourceLocation: sourceLocation)
        #expect(parsed.suppressedErrors == unparsed.suppressedErrors, "\(source.path)", sourceLocation: sourceLocation)
    }

    @Test func everyManifestOfTheRepositoryChecksTheSame() throws {
        let sources = try Self.repositoryManifests()
        #expect(sources.count >= 30)
        for source in sources { expectSameCheck(source) }
    }

    @Test func generatedProgramsCheckTheSame() {
        for seed in UInt64(1)...200 {
            var generator = ProgramGenerator(seed: seed)
            let yaml = ManifestYAMLPrinter.print(generator.manifest())
            expectSameCheck(SourceFile(path: "generated-\(seed).yaml", text: yaml), "seed \(seed)")
        }
    }

    /// Generated programs with text that breaks a rule put into one of them: syntax errors
    /// (and the follow-on warnings they silence) come out the same.
    @Test func generatedProgramsWithBrokenRulesCheckTheSame() {
        let breakage = [" and", "(", ")", " == ", "..", "$", " within", "\"", "[", " in [", " 1x", "@"]
        for seed in UInt64(1)...200 {
            var generator = ProgramGenerator(seed: seed)
            let lines = ManifestYAMLPrinter.print(generator.manifest()).split(separator: "\n", omittingEmptySubsequences: false)
            let ruleLines = lines.indices.filter { lines[$0].trimmingCharacters(in: .whitespaces).hasPrefix("- ") }
            guard let line = ruleLines.randomElement(using: &generator.random) else { continue }
            var broken = lines.map(String.init)
            broken[line] += breakage[Int.random(in: 0..<breakage.count, using: &generator.random)]
            expectSameCheck(SourceFile(path: "broken-\(seed).yaml", text: broken.joined(separator: "\n")), "seed \(seed)")
        }
    }

    /// Every way a rule item can fail, and a tip with more rules than allowed whose last one
    /// does not parse: the rules past the limit are still parsed for their syntax errors.
    @Test func failedRuleItemsAndRulesPastTheLimitCheckTheSame() throws {
        var yaml = """
            tipkit: 1
            parameters:
              flag: { type: bool, default: false }
              unused: { type: int, default: 0 }
            tips:
              a:
                title: A
                rules:
                  - $flag and
                  - { x: 1 }
                  - [1, 2]
                  - !tag $flag
                  -
                  - ""
              b:
                title: B
                rules:

            """
        for _ in 0..<Checker.maximumRulesPerTip { yaml += "      - $flag\n" }
        yaml += "      - $flag ==\n"
        let source = SourceFile(path: "failed.yaml", text: yaml)
        expectSameCheck(source)
        let result = Frontend.check(sources: [source])
        // Not vacuous: the rules' own syntax errors are there, the limit too, and the unused
        // parameter is not reported after a rule that did not parse.
        #expect(result.diagnostics.filter { $0.code == .syntax }.count >= 5)
        #expect(result.diagnostics.contains { $0.code == .syntax && $0.range.start.line == 18 + Checker.maximumRulesPerTip })
        #expect(result.diagnostics.contains { $0.code == .limit })
        #expect(!result.diagnostics.contains { $0.code == .unused })
    }

    /// A rule whose text maps into the file byte by byte (escapes, folding) or that is longer
    /// than a rule may be is parsed by the decoder at once: its map holds a position per byte,
    /// and thousands waiting for the checker would hold many times the file. The result is the
    /// same.
    @Test func rulesWhoseTextsMapByteByByteAreParsedAtOnce() {
        let long = "$n" + String(repeating: " ", count: RuleParser.maximumRuleLength) + "== 1"
        let yaml = """
            tipkit: 1
            parameters:
              n: { type: int, default: 0 }
            tips:
              a:
                title: A
                rules:
                  - $n > 1
                  - "$n >\\t2"
                  - >-
                    $n
                    > 3
                  - \(long)
                  - '$n == '
            """
        let source = SourceFile(path: "mapped.yaml", text: yaml)
        expectSameCheck(source)
        var diagnostics: [Diagnostic] = []
        let file = ManifestDecoder.decode(source, diagnostics: &diagnostics, parsingRules: false)
        #expect(file.tips.first?.unparsedRules.map(\.isText) == [true, false, false, false, true])
        #expect(diagnostics.map(\.code) == [.limit])
        #expect(Frontend.check(sources: [source]).diagnostics.map(\.code).sorted { $0.rawValue < $1.rawValue } == [.limit, .syntax])
    }

    /// A program of several files, YAML and `.tips`, whose rules name each other's declarations,
    /// one rule broken: the same both ways; and kept files hold parsed rules only.
    @Test func programsOfSeveralFilesCheckTheSame() {
        let events = SourceFile(path: "events.tips", text: "tipkit 1\nparam pro: Bool = false\nevent opened\n")
        let first = SourceFile(path: "first.yaml", text: """
            tipkit: 1
            tips:
              a:
                title: A
                rules:
                  - opened.count >= 2 and not $pro
                  - $pro or tip(b).invalidated
            """)
        let second = SourceFile(path: "second.yaml", text: """
            tipkit: 1
            parameters:
              unused: { type: int, default: 0 }
            tips:
              b:
                title: B
                rules:
                  - opened.count >= 1
            """)
        let broken = SourceFile(path: "second.yaml", text: String(decoding: second.bytes, as: UTF8.self) + "\n      - $pro ==\n")
        for sources in [[events, first, second], [first, events, broken]] {
            let parsed = Frontend.check(sources: sources, keepingParsedFiles: true)
            let unparsed = Frontend.check(sources: sources)
            #expect(parsed.diagnostics == unparsed.diagnostics)
            #expect(parsed.program == unparsed.program)
            #expect(parsed.files.flatMap(\.tips).allSatisfy { !$0.rules.isEmpty && $0.unparsedRules.isEmpty })
        }
        #expect(Frontend.check(sources: [events, first, second]).program != nil)
        #expect(Frontend.check(sources: [first, events, broken]).diagnostics.map(\.code) == [.syntax])
    }

    /// Checking files whose rules are unparsed without routing their syntax errors: they are in
    /// the diagnostics, and there is no program.
    @Test func theCheckerReportsTheSyntaxErrorsOfTheRulesItParses() {
        var diagnostics: [Diagnostic] = []
        let source = SourceFile(path: "s.yaml", text: "tipkit: 1\ntips:\n  a:\n    title: A\n    rules:\n      - 1 +\n")
        let file = ManifestDecoder.decode(source, diagnostics: &diagnostics, parsingRules: false)
        #expect(diagnostics.isEmpty)
        #expect(file.tips.first?.rules.isEmpty == true && file.tips.first?.unparsedRules.count == 1)
        #expect(Checker.check([file], diagnostics: &diagnostics) == nil)
        #expect(diagnostics.map(\.code) == [.syntax])
    }
}
