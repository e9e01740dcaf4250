import Foundation
import Testing
import TipcCompiler
@testable import TipcCLI

/// Standard input, standard output and the report file.
@Suite("Streams")
struct StreamTests {
    static let warned = "tipkit 1\nevent opened\nevent used\ntip t {\n  title \"T\"\n  rule used.count > 0\n}\n"
    static let broken = "tipkit 1\ntip t {\n  title \"T\"\n  rule nope.count > 0\n}\n"

    @Test func dashReadsStandardInputNamedByStdinFilename() throws {
        let named = Invocation(["check", "--stdin-filename", "apps/app.tips", "-"], stdin: Self.broken)
        #expect(named.status == 1)
        #expect(named.stdout.hasPrefix("apps/app.tips:4:8: error[unknown-event]: no event named 'nope'"))
        #expect(named.stderr.isEmpty)
        let yaml = Invocation(["check", "--format", "json", "-"], stdin: "tipkit: 1\nbogus: 2\n")
        #expect(yaml.status == 1)
        #expect(yaml.stdout.contains(#""file":"<stdin>.yaml","line":2,"column":1"#))
        let clean = Invocation(["check", "-"], stdin: "tipkit: 1\n")
        #expect(clean.status == 0 && clean.stdout.isEmpty)
        let orphan = Invocation(["check", "--stdin-filename", "x.tips", "a.tips"])
        #expect(orphan.status == 2 && orphan.stderr.contains("'-' is not among the paths"))
    }

    @Test func quietPrintsErrorsOnly() throws {
        let folder = try TemporaryFolder()
        let warned = try folder.write("w/app.tips", Self.warned)
        let broken = try folder.write("b/app.tips", Self.broken)
        let loud = Invocation(["check", warned, broken])
        #expect(loud.stdout.contains("warning[unused]") && loud.stdout.contains("error[unknown-event]"))
        let quiet = Invocation(["check", "--quiet", warned, broken])
        #expect(quiet.status == 1)
        #expect(!quiet.stdout.contains("warning") && quiet.stdout.contains("error[unknown-event]"))
        #expect(Invocation(["check", "-q", warned]).stdout.isEmpty)
        #expect(Invocation(["check", "-q", "--strict", warned]).status == 1)
    }

    @Test func outputFileTakesTheReport() throws {
        let folder = try TemporaryFolder()
        let broken = try folder.write("app.tips", Self.broken)
        let report = folder.path + "/report.sarif"
        let run = Invocation(["check", "--format", "sarif", "--output-file", report, broken])
        #expect(run.status == 1)
        #expect(run.stdout.isEmpty && run.stderr.isEmpty)
        let written = try String(contentsOfFile: report, encoding: .utf8)
        #expect(written.contains("\"ruleId\"") && written.contains("unknown-event"))
        let text = Invocation(["check", "--output-file", folder.path + "/report.txt", "--color", "always", broken])
        #expect(text.stdout.isEmpty)
        #expect(try String(contentsOfFile: folder.path + "/report.txt", encoding: .utf8).hasPrefix("\u{1B}[") == false)
        let intoFolder = Invocation(["check", "--output-file", folder.path, broken])
        #expect(intoFolder.status == 2)
        #expect(intoFolder.stderr.contains("cannot write '\(folder.path)': is a directory"))
    }

    @Test func fmtDiffPrintsAUnifiedDiff() throws {
        let folder = try TemporaryFolder()
        let messy = try folder.write("messy.tips", "tipkit 1\nevent e\ntip t {\n  title \"T\"\n  rule (e.count>1)\n}\n")
        let run = Invocation(["fmt", "--diff", messy])
        #expect(run.status == 1)
        #expect(run.stdout == """
            --- \(messy)
            +++ \(messy)
            @@ -1,6 +1,8 @@
             tipkit 1
            +
             event e
            +
             tip t {
               title "T"
            -  rule (e.count>1)
            +  rule e.count > 1
             }

            """)
        #expect(try String(contentsOfFile: messy, encoding: .utf8).contains("(e.count>1)"))
        #expect(Invocation(["fmt", messy]).status == 0)
        let clean = Invocation(["fmt", "--diff", messy])
        #expect(clean.status == 0 && clean.stdout.isEmpty)
    }

    @Test func fmtFormatsStandardInputToStandardOutput() {
        let run = Invocation(["fmt", "--stdin-filename", "app.tips", "-"], stdin: "tipkit 1\nevent e\n")
        #expect(run.status == 0)
        #expect(run.stdout == "tipkit 1\n\nevent e\n")
    }

    @Test func unifiedDiffHunks() {
        let old = (1...20).map { "line \($0)\n" }.joined()
        let new = old.replacingOccurrences(of: "line 2\n", with: "line two\n").replacingOccurrences(of: "line 19\n", with: "")
        let diff = UnifiedDiff.render(old: old, new: new, oldName: "a", newName: "b")
        #expect(diff.hasPrefix("--- a\n+++ b\n@@ -1,5 +1,5 @@\n line 1\n-line 2\n+line two\n line 3\n"))
        #expect(diff.contains("@@ -16,5 +16,4 @@\n line 16\n line 17\n line 18\n-line 19\n line 20\n"))
        #expect(UnifiedDiff.render(old: "a\n", new: "a\n", oldName: "x", newName: "x").isEmpty)
        #expect(UnifiedDiff.render(old: "", new: "a\n", oldName: "x", newName: "x") == "--- x\n+++ x\n@@ -0,0 +1 @@\n+a\n")
    }
}
