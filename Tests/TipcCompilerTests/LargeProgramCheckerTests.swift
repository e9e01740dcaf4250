import Testing
@testable import TipcCompiler
import TipcDriver

@Suite("Checker, large programs")
struct LargeProgramCheckerTests {
    /// A large program (its tips freed one by one as they are checked): diagnostics come in tip
    /// order, and a declaration used only by the first or the last tip is not reported unused.
    @Test func aLargeProgramReportsInTipOrder() {
        let tipCount = 2_055
        /// The program; with `typos`, every hundredth tip names an event that does not exist.
        func program(typos: Bool) -> String {
            var text = "tipkit 1\nparam early: Bool = false\nparam late: Bool = false\nparam unused: Bool = false\nevent seen\n"
            for index in 0..<tipCount {
                let rule: String
                switch index {
                case 0: rule = "$early"
                case tipCount - 1: rule = "$late and seen.count >= 1"
                case _ where typos && index % 100 == 3: rule = "missing\(index).count >= 1"
                default: rule = "seen.count >= \(index % 5)"
                }
                text += "tip t\(index) {\n  title \"T\(index)\"\n  rule \(rule)\n}\n"
            }
            return text
        }
        let withTypos = Frontend.check(sources: [SourceFile(path: "large.tips", text: program(typos: true))])
        let unknown = withTypos.diagnostics.filter { $0.code == .unknownEvent }.map(\.message)
        #expect(unknown == stride(from: 3, to: tipCount, by: 100).map { "no event named 'missing\($0)'" })

        // `early` is used only by the first tip, `late` only by the last.
        let clean = Frontend.check(sources: [SourceFile(path: "large.tips", text: program(typos: false))])
        #expect(clean.diagnostics.filter { $0.code == .unused }.map(\.message) == ["parameter 'unused' is not used by any rule"])
        let names = clean.program?.tips.map(\.name) ?? []
        #expect(names.count == tipCount)
        #expect(names.elementsEqual((0..<tipCount).lazy.map { "t\($0)" }))
    }

    /// `tipc check` does not keep the checked program: the diagnostics are exactly those of a
    /// check that keeps it, lints' warnings (`seen.count >= 0` always holds) and constant errors
    /// alike.
    @Test(arguments: [false, true])
    func checkingWithoutKeepingTheProgramReportsTheSame(constantError: Bool) {
        var text = "tipkit 1\nparam flag: Bool = false\nevent seen\n"
        let tipCount = 2_051
        for index in 0..<tipCount {
            let rule = constantError && index == tipCount - 2 ? "$flag and 1 / 0 > 0"
                : index % 5 == 0 ? "seen.count >= 0" : "$flag and seen.count >= \(index % 5)"
            text += "tip t\(index) {\n  title \"T\(index)\"\n  rule \(rule)\n}\n"
        }
        let source = SourceFile(path: "large.tips", text: text)
        let kept = Frontend.check(sources: [source])
        let notKept = Frontend.check(sources: [source], keepingProgram: false)
        #expect(notKept.program == nil)
        #expect(kept.program != nil || constantError)
        #expect(notKept.diagnostics.map { "\($0.code) \($0.range) \($0.message)" } == kept.diagnostics.map { "\($0.code) \($0.range) \($0.message)" })
        if constantError {
            #expect(kept.diagnostics.map(\.code) == [.invalidValue])
        } else {
            #expect(kept.diagnostics.filter { $0.code == .alwaysTrue }.count == (tipCount + 4) / 5)
        }
    }
}
