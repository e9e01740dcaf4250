import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipRuntime

/// `tipc preview`: the golden page of a small program, the texts and their values, the chart's
/// agreement with `simulate` and `explain`, and the palette's contrast.
@Suite("tipc preview")
struct PreviewCommandTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/preview").path
    static let small = fixtures + "/small.yaml"
    static let smallTimeline = fixtures + "/small.timeline.yaml"

    /// Runs `tipc preview ARGUMENTS -o <temp>` and returns the page.
    static func preview(_ arguments: [String]) throws -> (status: Int32, html: String, stderr: String) {
        let folder = try TemporaryFolder()
        let output = folder.path + "/page.html"
        let run = Invocation(["preview"] + arguments + ["-o", output])
        let html = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
        return (run.status, html, run.stderr)
    }

    @Test func smallProgramMatchesTheGoldenPage() throws {
        let (status, html, stderr) = try Self.preview([Self.small, "--timeline", Self.smallTimeline, "--value", "name=Robin & co"])
        #expect(status == 0, "\(stderr)")
        // Paths as given are part of the page; the fixture's folder is not.
        let page = html.replacingOccurrences(of: Self.fixtures + "/", with: "")
        let golden = URL(fileURLWithPath: Self.fixtures + "/small.expected.html")
        if ProcessInfo.processInfo.environment["TIPC_UPDATE_GOLDEN"] == "1" {
            try Data(page.utf8).write(to: golden)
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(page == expected, "small.expected.html differs; rerun with TIPC_UPDATE_GOLDEN=1 and review the diff")
    }

    @Test func thePageIsTheSameEveryTime() throws {
        let first = try Self.preview([Self.small, "--timeline", Self.smallTimeline]).html
        let second = try Self.preview([Self.small, "--timeline", Self.smallTimeline]).html
        #expect(!first.isEmpty && first == second)
    }

    @Test func textsAreEscapedAndPlaceholdersFilledOrShown() throws {
        let filled = try Self.preview([Self.small, "--value", "name=<b>Robin</b>"]).html
        #expect(filled.contains("Take a photo, &lt;b&gt;Robin&lt;/b&gt;."))
        #expect(filled.contains("Mach ein Foto, &lt;b&gt;Robin&lt;/b&gt;."))
        #expect(filled.contains("Welcome &lt;friend&gt;"))
        #expect(!filled.contains("<b>Robin"))
        let shown = try Self.preview([Self.small]).html
        #expect(shown.contains("Take a photo, {name}."))
    }

    @Test func aTipInAnExperimentIsDrawnOncePerArm() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
        let (status, html, stderr) = try Self.preview([root + "/Examples/hiking/hiking.yaml", "--value", "trail=Säntis"])
        #expect(status == 0, "\(stderr)")
        let tip = try #require(html.range(of: "<article class=\"tip\" id=\"tip-offlineMaps\"").flatMap { start in
            html.range(of: "</article>", range: start.upperBound..<html.endIndex).map { String(html[start.lowerBound..<$0.upperBound]) }
        })
        // The arms in declared order, each with its share; the first is the baseline.
        let control = try #require(tip.range(of: "Arm control <span class=\"share\">weight 45 of 100 (45%), the baseline</span>"))
        let beforeYouGo = try #require(tip.range(of: "Arm beforeYouGo <span class=\"share\">weight 45 of 100 (45%)</span>"))
        let holdout = try #require(tip.range(of: "Arm holdout <span class=\"share\">weight 10 of 100 (10%)</span>"))
        #expect(control.upperBound < beforeYouGo.lowerBound && beforeYouGo.upperBound < holdout.lowerBound)
        // The text arm's texts replace the tip's, in each locale, placeholders filled.
        let armPart = tip[beforeYouGo.upperBound..<holdout.lowerBound]
        #expect(armPart.contains("No signal on the trail") && armPart.contains("Kein Empfang unterwegs"))
        #expect(armPart.contains("Säntis has patchy coverage.") && armPart.contains("Take the map"))
        // The hidden arm draws no card; the facts name the experiment.
        #expect(tip[holdout.upperBound...].contains("Hidden arm: its users never see the tip"))
        #expect(!tip[holdout.upperBound...].contains("class=\"popover\""))
        #expect(tip.contains("<dt>name</dt><dd>offlineMapsCopy</dd>"))
        #expect(tip.contains("<dt>goal</dt><dd>mapDownloaded within 7d</dd>"))
    }

    @Test func localesAreEveryDeclaredOneOrThoseGiven() throws {
        let all = try Self.preview([Self.small]).html
        #expect(all.contains("data-locale=\"en\"") && all.contains("data-locale=\"de\""))
        let german = try Self.preview([Self.small, "--locale", "de", "--locale", "de-CH"]).html
        #expect(!german.contains("data-locale=\"en\""))
        #expect(german.contains("data-locale=\"de\"") && german.contains("data-locale=\"de-CH\""))
        #expect(german.contains("Willkommen") && !german.contains("Welcome &lt;friend&gt;"))
    }

    @Test func badArgumentsAreClearErrors() throws {
        let unknown = try Self.preview([Self.small, "--value", "nmae=x"])
        #expect(unknown.status == 2 && unknown.stderr.contains("no tip has a placeholder named 'nmae'")
                && unknown.stderr.contains("did you mean 'name'"), "\(unknown.stderr)")
        let malformed = try Self.preview([Self.small, "--value", "name"])
        #expect(malformed.status == 2 && malformed.stderr.contains("is not NAME=TEXT"), "\(malformed.stderr)")
        let locale = try Self.preview([Self.small, "--locale", "de_DE"])
        #expect(locale.status == 2 && locale.stderr.contains("not a BCP 47 language tag"), "\(locale.stderr)")
        let pack = try Self.preview(["tips.tippack"])
        #expect(pack.status == 2 && pack.stderr.contains("not a .tippack"), "\(pack.stderr)")
        let noOutput = Invocation(["preview", Self.small])
        #expect(noOutput.status == 2 && noOutput.stderr.contains("--output"), "\(noOutput.stderr)")
    }

    @Test func rulesArePrintedAsFmtPrintsThem() throws {
        let folder = try TemporaryFolder()
        let manifest = try folder.write("app.yaml", """
        tipkit: 1
        events: { opened: {} }
        tips:
          t:
            title: T
            rules:
              - "opened.count>=2   and   not(opened.count  >  9)"
        """)
        let html = try Self.preview([manifest]).html
        var diagnostics: [Diagnostic] = []
        let expression = RuleParser.parseRule(RuleText(file: SourceFile(path: "rule.tips", text: "opened.count>=2   and   not(opened.count  >  9)")),
                                              diagnostics: &diagnostics)
        let printed = ExpressionPrinter.print(expression)
        #expect(diagnostics.isEmpty && printed.hasPrefix("opened.count >= 2 and not"))
        #expect(html.contains("<code>\(PreviewHTMLWriter.escape(printed))</code>"))
    }

    /// The chart is the run `simulate` makes: its steps are simulate's text, and pointing at
    /// the last instant shows what `explain` says on the store `simulate --db` leaves.
    @Test func theChartIsSimulatesRunAndExplainsText() throws {
        let folder = try TemporaryFolder()
        let db = folder.path + "/run.sqlite"
        let simulate = Invocation(["simulate", Self.small, "--timeline", Self.smallTimeline, "--db", db])
        let (_, html, _) = try Self.preview([Self.small, "--timeline", Self.smallTimeline])
        for line in simulate.stdout.split(separator: "\n") where line.hasPrefix("    ") {
            #expect(html.contains(PreviewHTMLWriter.escape(String(line.dropFirst(4)))), "\(line)")
        }
        let input = try PackInput.load(pack: nil, manifests: [Self.small], keepingParsedFiles: true,
                                       context: CommandContext(environment: [:], standardOutput: CapturedOutput(isTerminal: false),
                                                               standardError: CapturedOutput(isTerminal: false)))
        var diagnostics: [Diagnostic] = []
        let source = try Frontend.read(path: Self.smallTimeline).get()
        let timeline = try #require(TimelineDecoder.decode(source, diagnostics: &diagnostics))
        let chart = try PreviewChart.run(timeline, path: Self.smallTimeline, input: input)
        let end = ISO8601.string(fromMilliseconds: Int(chart.end))
        for lane in chart.tips {
            let last = try #require(lane.explanations.last)
            let explain = Invocation(["explain", Self.small, "--db", db, "--tip", lane.name, "--at", end])
            #expect(explain.status == 0, "\(explain.stderr)")
            #expect("tip \(lane.name) at \(end)\n" + chart.texts[last.text] == explain.stdout)
        }
        // Lanes: welcome displayed and invalidated at the start; share held back by the
        // frequency, then displayed; the failed expectation is failed.
        let welcome = try #require(chart.tips.first { $0.name == "welcome" })
        #expect(welcome.marks.map(\.label) == ["▲ display 1", "✕ invalidated (displayCountExceeded)"])
        let share = try #require(chart.tips.first { $0.name == "share" })
        #expect(share.spans.map(\.kind) == [.pending, .available])
        #expect(share.holds.map(\.kind) == [.frequency])
        #expect(share.holds.first?.span.to == chart.start + 3_600_000)
        #expect(chart.expectations.map(\.passed) == [true, true, true, false])
        #expect(chart.events.first?.donations.count == 2)
        #expect(chart.parameters.first?.values.map(\.label) == ["isSignedIn = false", "isSignedIn = true"])
    }

    /// A state that changes between two steps is drawn where it changes: `streak` is available
    /// while two donations are within the hour (from +5m) and pending again at +1h5m, when the
    /// first leaves the window, though the next step is at +2h; `share`'s hold by the display
    /// frequency ends at +1h, when the gap after welcome's display at +0s closes. Pointing finds
    /// both instants.
    @Test func stateChangesBetweenStepsAreDrawnWhenTheyHappen() throws {
        let input = try PackInput.load(pack: nil, manifests: [Self.small], keepingParsedFiles: true,
                                       context: CommandContext(environment: [:], standardOutput: CapturedOutput(isTerminal: false),
                                                               standardError: CapturedOutput(isTerminal: false)))
        var diagnostics: [Diagnostic] = []
        let timeline = try #require(TimelineDecoder.decode(try Frontend.read(path: Self.smallTimeline).get(), diagnostics: &diagnostics))
        let chart = try PreviewChart.run(timeline, path: Self.smallTimeline, input: input)
        let (minute, hour) = (Int64(60_000), Int64(3_600_000))
        let streak = try #require(chart.tips.first { $0.name == "streak" })
        #expect(streak.spans.map(\.kind) == [.pending, .available, .pending])
        #expect(streak.spans.map(\.span.from) == [chart.start, chart.start + 5 * minute, chart.start + hour + 5 * minute])
        #expect(chart.axis == [chart.start, chart.start + 5 * minute, chart.start + 2 * hour])
        #expect(chart.instants == [chart.start, chart.start + 5 * minute, chart.start + hour, chart.start + hour + 5 * minute, chart.start + 2 * hour])
        let share = try #require(chart.tips.first { $0.name == "share" })
        #expect(share.holds.map(\.span.to) == [chart.start + hour])
        // explain's text at +1h5m (instant 3) says streak's rule no longer holds.
        let atExpiry = try #require(streak.explanations.first { $0.instant == 3 })
        #expect(chart.texts[atExpiry.text].contains("pending"), "\(chart.texts[atExpiry.text])")
        #expect(chart.notes.isEmpty)

        // Reading at most one wake-up, the chart says what it left out.
        let cut = try PreviewChart.run(timeline, path: Self.smallTimeline, input: input, wakeUpLimit: 1)
        #expect(cut.instants == [chart.start, chart.start + 5 * minute, chart.start + hour, chart.start + 2 * hour])
        #expect(cut.notes.count == 1 && cut.notes[0].contains("at 1 instant between steps"), "\(cut.notes)")
    }

    /// A 500-tip program with texts in two locales: the page writes each tip's text once per
    /// locale (the script draws the other renderings from it) and stays far under 5 MB.
    /// (scripts/preview-benchmark.sh times the same kind of page in Chromium.)
    @Test func aLargeProgramsPageHoldsEachTextOnce() throws {
        let folder = try TemporaryFolder()
        let (program, timeline) = try Self.largeProgram(in: folder)
        let (status, html, stderr) = try Self.preview([program, "--timeline", timeline])
        #expect(status == 0, "\(stderr)")
        #expect(html.utf8.count < 2_000_000, "\(html.utf8.count) bytes")
        for text in ["Tip number 7<", "Tipp Nummer 7<", "Do thing 499 faster.", "Mach Ding 499 schneller."] {
            #expect(html.components(separatedBy: text).count - 1 == 1, "\(text) is written more than once")
        }
        #expect(html.components(separatedBy: "class=\"lane tip-lane\"").count - 1 == 500)
    }

    /// A program of 500 tips with texts in English and German, and a short timeline.
    static func largeProgram(in folder: TemporaryFolder) throws -> (program: String, timeline: String) {
        var manifest = "tipkit: 1\ndefaultLocale: en\nevents: { opened: {} }\ntips:\n"
        for tip in 0..<500 {
            manifest += "  tip\(tip):\n    title: { en: \"Tip number \(tip)\", de: \"Tipp Nummer \(tip)\" }\n"
                + "    message: { en: \"Do thing \(tip) faster.\", de: \"Mach Ding \(tip) schneller.\" }\n"
                + "    image: star\n    rules: [ \"opened.count >= \(tip % 7 + 1) within 7d\" ]\n"
        }
        let program = try folder.write("large.yaml", manifest)
        let timeline = try folder.write("large.timeline.yaml", """
        start: 2026-03-01T09:00:00Z
        steps:
          - { at: +0s, donate: [opened, opened, opened] }
          - { at: +1h, show: [tip0, tip1] }
          - { at: +8d, donate: [opened] }
        """)
        return (program, timeline)
    }

    @Test(arguments: ["light", "dark"])
    func everyTextIsReadable(appearance: String) {
        let palette = appearance == "light" ? PreviewPalette.light : PreviewPalette.dark
        for (text, background) in PreviewPalette.textPairs {
            let ratio = PreviewPalette.contrast(palette[text], palette[background])
            #expect(ratio >= 4.5, "\(text) on \(background): \(ratio)")
        }
    }

    @Test func contrastIsComputedAsWCAGDefinesIt() {
        #expect(abs(PreviewPalette.contrast("#000000", "#ffffff") - 21) < 0.001)
        #expect(abs(PreviewPalette.contrast("#777777", "#ffffff") - 4.48) < 0.01)
    }
}
