import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI
import TipcDriver

/// Suppression comments.
@Suite("Suppression comments")
struct SuppressionTests {
    func check(_ path: String, _ text: String) -> [Diagnostic] {
        Frontend.check(sources: [SourceFile(path: path, text: text)]).diagnostics
    }

    func summary(_ diagnostics: [Diagnostic]) -> [String] {
        diagnostics.map { "\($0.range.start.line):\($0.range.start.column) \($0.code.rawValue)" }
    }

    static let tips = """
        tipkit 1
        event opened
        param beta: Bool = false
        tip t {
          title "T"
          rule opened.count >= 0
        }

        """

    @Test func withoutCommentsBothWarningsShow() {
        #expect(summary(check("app.tips", Self.tips)) == ["3:7 unused", "6:8 always-true"])
    }

    @Test func theMarkerIsFoundAfterNearMissesAndAtTheVeryEnd() {
        // Hyphens and near misses of `tipc-disable` first; the one real comment ends the file.
        let text = "// tipc-- tip-disable tipc-disabl tipc -disable -\n" + Self.tips + "// tipc-disable-file always-true"
        #expect(summary(check("app.tips", text)) == ["4:7 unused"])
    }

    @Test func eachFormInTips() {
        let nextLine = Self.tips.replacingOccurrences(of: "param beta", with: "// tipc-disable-next-line unused\nparam beta")
        #expect(summary(check("app.tips", nextLine)) == ["7:8 always-true"])
        let sameLine = Self.tips.replacingOccurrences(of: ">= 0\n", with: ">= 0 // tipc-disable-line always-true -- kept on purpose\n")
        #expect(summary(check("app.tips", sameLine)) == ["3:7 unused"])
        let file = "// tipc-disable-file unused, always-true\n" + Self.tips
        #expect(check("app.tips", file).isEmpty)
        let both = "// tipc-disable-next-line unused always-true\n" + Self.tips
        #expect(summary(check("app.tips", both)) == ["1:27 unused-suppression", "1:34 unused-suppression", "4:7 unused", "7:8 always-true"])
    }

    static let yaml = """
        tipkit: 1
        parameters:
          beta: { type: bool, default: false }
        events:
          opened: {}
        tips:
          t:
            title: "T # not a comment: tipc-disable-line unused"
            rules:
              - opened.count >= 0

        """

    @Test func eachFormInYAML() {
        #expect(summary(check("app.yaml", Self.yaml)) == ["3:3 unused", "10:9 always-true"])
        let sameLine = Self.yaml.replacingOccurrences(of: "default: false }", with: "default: false }  # tipc-disable-line unused")
        #expect(summary(check("app.yaml", sameLine)) == ["10:9 always-true"])
        let nextLine = Self.yaml.replacingOccurrences(of: "      - opened", with: "      # tipc-disable-next-line always-true\n      - opened")
        #expect(summary(check("app.yaml", nextLine)) == ["3:3 unused"])
        let file = "# tipc-disable-file always-true,unused\n" + Self.yaml
        #expect(check("app.yaml", file).isEmpty)
    }

    @Test func quotedTextIsNotAComment() {
        let tips = Self.tips.replacingOccurrences(of: "title \"T\"", with: "title \"T // tipc-disable-file unused\"")
        #expect(summary(check("app.tips", tips)) == ["3:7 unused", "6:8 always-true"])
        let block = Self.yaml.replacingOccurrences(of: "    title: \"T # not a comment: tipc-disable-line unused\"",
                                                   with: "    title: T\n    message: |\n      # tipc-disable-file unused\n      text")
        #expect(summary(check("app.yaml", block)) == ["3:3 unused", "13:9 always-true"])
    }

    @Test func aStaleSuppressionIsAWarning() {
        let stale = Self.tips.replacingOccurrences(of: "event opened", with: "event opened // tipc-disable-line unused")
        let diagnostics = check("app.tips", stale)
        #expect(summary(diagnostics) == ["2:35 unused-suppression", "3:7 unused", "6:8 always-true"])
        #expect(diagnostics[0].message == "nothing to suppress: no 'unused' on line 2")
        #expect(diagnostics[0].severity == .warning)
    }

    @Test func unknownAndUnsuppressibleCodesAreErrors() {
        let typo = check("app.tips", "// tipc-disable-file unsued\n" + Self.tips)
        #expect(typo.first?.code == .invalidSuppression)
        #expect(typo.first?.message == "no diagnostic code named 'unsued'")
        #expect(typo.first?.help == "did you mean 'unused'?")
        let scope = check("app.tips", "// tipc-disable-nextline unused\n" + Self.tips)
        #expect(scope.first?.help == "did you mean 'tipc-disable-next-line'?")
        let syntax = check("app.tips", "tipkit 1\nevent e\ntip t {\n  title \"T\"\n  rule e.count >= // tipc-disable-line syntax\n}\n")
        #expect(Set(syntax.map(\.code)) == [.syntax, .invalidSuppression])
        let yaml = check("app.yaml", "tipkit: 1\nparameters: [  # tipc-disable-line yaml\n")
        #expect(yaml.contains { $0.code == .yaml } && yaml.contains { $0.code == .invalidSuppression })
        let none = check("app.tips", "// tipc-disable-file\n" + Self.tips)
        #expect(none.first?.message == "'tipc-disable-file' names no code")
    }

    @Test func aSuppressedErrorStillStopsCompile() throws {
        let folder = try TemporaryFolder()
        let file = try folder.write("app.tips", "tipkit 1\ntip t {\n  title \"T\"\n  // tipc-disable-next-line unknown-event\n  rule nope.count > 0\n}\n")
        let check = Invocation(["check", file])
        #expect(check.status == 0)
        let compile = Invocation(["compile", file, "-o", folder.path + "/out.tippack"])
        #expect(compile.status == 1)
        #expect(compile.stderr.contains("error[unknown-event]: no event named 'nope'"))
        #expect(compile.stderr.contains("suppressed by a comment, but a rule pack cannot be compiled"))
    }
}
