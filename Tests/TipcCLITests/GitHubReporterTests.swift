import Testing
import TipcCompiler
@testable import TipcCLI

@Suite struct GitHubReporterTests {
    typealias F = ReporterFixtures

    @Test func annotations() {
        #expect(GitHubReporter().render(F.report) == """
            ::warning file=Examples/shop.yaml,line=6,col=3,endLine=6,endColumn=12,title=unused::\
            event 'itemViewed' is never used%0Anote: declared as an event here (Examples/shop.yaml:14:9)%0Anote: remove it or use it in a rule
            ::error file=Examples/shop.yaml,line=14,col=9,endLine=14,endColumn=22,title=unknown-event::\
            no event named 'serchPerformed'%0Ahelp: did you mean 'searchPerformed'?

            """)
    }

    @Test func escaping() {
        #expect(GitHubReporter.escapeData("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b")
        #expect(GitHubReporter.escapeProperty("C:\\a,b%\n") == "C%3A\\a%2Cb%25%0A")
        let diagnostic = Diagnostic(.yaml, "bad: 50%", at: F.range("odd,name:1.yaml", 2, 1, 2, 1))
        #expect(GitHubReporter().annotation(for: diagnostic)
            == "::error file=odd%2Cname%3A1.yaml,line=2,col=1,endLine=2,endColumn=1,title=yaml::bad: 50%25")
    }

    @Test func multiLineRangesGiveOnlyTheLastLine() {
        let endsInside = Diagnostic(.syntax, "m", at: F.range("a.tips", 2, 3, 4, 5))
        #expect(GitHubReporter().annotation(for: endsInside) == "::error file=a.tips,line=2,col=3,endLine=4,title=syntax::m")
        let endsAtLineBreak = Diagnostic(.syntax, "m", at: F.range("a.tips", 2, 3, 4, 1))
        #expect(GitHubReporter().annotation(for: endsAtLineBreak) == "::error file=a.tips,line=2,col=3,endLine=3,title=syntax::m")
    }

    @Test func notesBecomeNotices() {
        let note = Diagnostic(.unused, "fyi", at: F.range("a.tips", 1, 1, 1, 2), severity: .note)
        #expect(GitHubReporter().annotation(for: note).hasPrefix("::notice "))
    }
}
