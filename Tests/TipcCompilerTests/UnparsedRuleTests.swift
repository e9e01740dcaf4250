import Foundation
import Testing
@testable import TipcCompiler

/// A YAML manifest checked without keeping its files leaves its rules unparsed for the checker,
/// which parses each right before checking it (`UnparsedRule`). Nothing a user sees may differ
/// from parsing them while decoding: the same diagnostics in the same order, the same program.
@Suite struct UnparsedRuleTests {
    private static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Every YAML manifest of the repository: the examples, the diagnostics goldens' inputs
    /// (syntax errors, limits, broken YAML among them) and the fuzzers' seeds.
    private static func repositoryManifests() throws -> [SourceFile] {
        let folders = ["Examples", "Tests/TipcCLITests/Fixtures/diagnostics", "Fuzz/corpus/FuzzManifest"]
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
        #expect(sources.count >= 40)
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
