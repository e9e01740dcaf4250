import Foundation
import Testing
@testable import TipcCLI
import TipcCompiler
import TipRuntime

/// The examples' previews in a real browser: Debian's `chromium`, headless. The page forbids
/// every request by its Content-Security-Policy, so a request it tried would be a console
/// message; Chromium logs every console message (and uncaught error) on stderr as `:CONSOLE`,
/// and none may appear. The page's script marks the body when it ran to its end. Chromium is
/// required (CI installs it with scripts/setup.sh --tests): without it these tests fail.
@Suite("tipc preview in Chromium")
struct PreviewBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    /// Each example's program and its timeline, if it has one.
    static let examples: [(program: String, timeline: String?)] = [
        ("Examples/news/news.yaml", "Examples/news/news.timeline.yaml"),
        ("Examples/hiking/hiking.yaml", "Examples/hiking/hiking.timeline.yaml"),
        ("Examples/backyard-birds/backyard-birds.yaml", "Examples/backyard-birds/backyard-birds.timeline.yaml"),
        ("Examples/photo-privacy/photo-privacy.yaml", "Examples/photo-privacy/photo-privacy.timeline.yaml"),
        ("Examples/rule-language", nil),
    ]

    static func chromium() throws -> String {
        let candidates = ["/usr/bin/chromium"] + (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { "\($0)/chromium" }
        guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw BrowserMissing()
        }
        return found
    }

    struct BrowserMissing: Error, CustomStringConvertible {
        var description: String { "chromium is not installed: run scripts/setup.sh --tests (Debian's chromium package)" }
    }

    /// Runs headless Chromium on `page` with its own profile, at most 60 seconds.
    static func browse(_ page: String, _ arguments: [String], in folder: TemporaryFolder) throws -> (stdout: String, stderr: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = ["60", try chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
                             "--user-data-dir=\(folder.path)/profile-\(UUID().uuidString)", "--enable-logging=stderr", "--v=0"]
            + arguments + [URL(fileURLWithPath: page).absoluteString]
        let out = folder.path + "/out-\(UUID().uuidString)", err = folder.path + "/err-\(UUID().uuidString)"
        #expect(FileManager.default.createFile(atPath: out, contents: nil) && FileManager.default.createFile(atPath: err, contents: nil))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: out))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: err))
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "chromium exited with \(process.terminationStatus)")
        return (try String(contentsOfFile: out, encoding: .utf8), try String(contentsOfFile: err, encoding: .utf8))
    }

    static func writePreview(_ example: (program: String, timeline: String?), to page: String, extra: [String] = []) {
        var arguments = ["preview", root + "/" + example.program, "-o", page] + extra
        if let timeline = example.timeline { arguments += ["--timeline", root + "/" + timeline] }
        let run = Invocation(arguments)
        #expect(run.status == 0, "\(run.stderr)")
    }

    @Test(arguments: examples.indices)
    func examplePageLoadsCleanlyWithEveryText(_ index: Int) throws {
        let example = Self.examples[index]
        let folder = try TemporaryFolder()
        let page = folder.path + "/page.html"
        Self.writePreview(example, to: page)
        let (dom, log) = try Self.browse(page, ["--dump-dom"], in: folder)
        let console = log.split(separator: "\n").filter { $0.contains(":CONSOLE") }
        #expect(console.isEmpty, "console messages (errors, blocked requests): \(console)")
        #expect(dom.contains("data-script=\"ready\""), "the page's script did not run to its end")

        // Every tip's texts in every locale the program declares, as the DOM holds them.
        let input = try PackInput.load(pack: nil, manifests: [Self.root + "/" + example.program],
                                       context: CommandContext(environment: [:], standardOutput: CapturedOutput(isTerminal: false),
                                                               standardError: CapturedOutput(isTerminal: false)))
        let pack = input.pack.pack
        let locales = try PreviewPage.locales(of: pack, requested: [])
        // The page holds each text once, in the light popover; its script draws the inline card
        // and the dark pane from it (hidden from screen readers), the first tip at once.
        let firstTip = try #require(dom.range(of: "<article class=\"tip\"").flatMap { start in
            dom.range(of: "</article>", range: start.upperBound..<dom.endIndex).map { dom[start.lowerBound..<$0.upperBound] }
        })
        // (Once per arm drawn, for a tip in an experiment.)
        let drawnArms = pack.experiment(onTip: 0).map { $0.arms.filter { !$0.isHidden }.count } ?? 1
        #expect(firstTip.components(separatedBy: "<div class=\"pane appearance-dark\" aria-hidden=\"true\">").count - 1 == drawnArms * locales.count)
        #expect(firstTip.components(separatedBy: "<figure class=\"inline\" aria-hidden=\"true\">").count - 1 == 2 * drawnArms * locales.count)
        for tip in pack.tips {
            for locale in locales {
                let content = try TipCenter.content(of: tip.name, in: pack, locale: locale ?? "en", parameters: pack.parameters.map(\.defaultValue),
                                                    values: [:], keepingMissingPlaceholders: true)
                for text in [content.title] + (content.message.map { [$0] } ?? []) + content.actions.map(\.title) {
                    #expect(dom.contains(PreviewHTMLWriter.escape(text).replacingOccurrences(of: "&#39;", with: "'")),
                            "\(tip.name) (\(locale ?? "every locale")): '\(text)' is not in the DOM")
                }
            }
            // One lane per tip (per instance the timeline names, for a keyed tip).
            if example.timeline != nil {
                #expect(dom.contains("class=\"lane tip-lane\" data-tip=\"\(tip.name)\""), "no lane for \(tip.name)")
            }
        }
        // A tip in an experiment is drawn once per arm, each with the arm's texts; a hidden arm
        // says that its users do not see the tip.
        for experiment in pack.experiments {
            for arm in experiment.arms {
                #expect(dom.contains("data-arm=\"\(arm.name)\""), "\(experiment.name): no heading for arm \(arm.name)")
                if arm.isHidden {
                    #expect(dom.contains("Hidden arm: its users never see the tip"))
                    continue
                }
                for locale in locales {
                    let content = try TipCenter.content(ofTipAt: experiment.tip, in: pack, locale: locale ?? "en",
                                                        parameters: pack.parameters.map(\.defaultValue), values: [:],
                                                        keepingMissingPlaceholders: true, arm: arm)
                    for text in [content.title] + (content.message.map { [$0] } ?? []) + content.actions.map(\.title) {
                        #expect(dom.contains(PreviewHTMLWriter.escape(text).replacingOccurrences(of: "&#39;", with: "'")),
                                "\(experiment.name), arm \(arm.name) (\(locale ?? "every locale")): '\(text)' is not in the DOM")
                    }
                }
            }
        }
    }

    /// A 500-tip page opens in under 2 seconds: its load event, by the page's own clock (so
    /// that starting the browser does not count), comes less than 2,000 ms after navigation
    /// began. scripts/preview-benchmark.sh measures a larger timeline in more ways.
    @Test func aFiveHundredTipPageOpensWithinTwoSeconds() throws {
        let folder = try TemporaryFolder()
        let (program, timeline) = try PreviewCommandTests.largeProgram(in: folder)
        let page = folder.path + "/large.html"
        let run = Invocation(["preview", program, "--timeline", timeline, "-o", page])
        #expect(run.status == 0, "\(run.stderr)")
        let probe = "<head><script>addEventListener(\"load\", function () { document.documentElement"
            + ".setAttribute(\"data-loaded-ms\", String(Math.round(performance.now()))); });</script>"
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.utf8.count < 5_000_000)
        let probed = try folder.write("probed.html", html.replacingOccurrences(of: "<head>", with: probe))
        let (dom, _) = try Self.browse(probed, ["--dump-dom"], in: folder)
        let loaded = try #require(dom.range(of: "data-loaded-ms=\"").flatMap { Int(dom[$0.upperBound...].prefix { $0.isNumber }) })
        #expect(loaded < 2_000, "the load event came \(loaded) ms after navigation began")
        #expect(dom.contains("data-script=\"ready\""))
    }

    /// Moving along a tip's lane with the keyboard shows `explain`'s text at each instant read,
    /// a wake-up between steps included: on the small program's page, a probe script focuses
    /// `streak`'s lane and presses → three times, reaching +1h5m, when its window has closed.
    @Test func movingAlongALaneShowsExplainsText() throws {
        let folder = try TemporaryFolder()
        let page = folder.path + "/small.html"
        let fixtures = Self.root + "/Tests/TipcCLITests/Fixtures/preview"
        let run = Invocation(["preview", fixtures + "/small.yaml", "--timeline", fixtures + "/small.timeline.yaml", "-o", page])
        #expect(run.status == 0, "\(run.stderr)")
        let probe = """
        <script>(function () {
          var lane = document.querySelector('.tip-lane[data-lane="streak"]');
          lane.dispatchEvent(new FocusEvent("focus"));
          for (var i = 0; i < 3; i++) { lane.dispatchEvent(new KeyboardEvent("keydown", { key: "ArrowRight", cancelable: true })); }
        })();</script>
        </body>
        """
        let html = try String(contentsOfFile: page, encoding: .utf8).replacingOccurrences(of: "</body>", with: probe)
        let probed = try folder.write("probed.html", html)
        let (dom, log) = try Self.browse(probed, ["--dump-dom"], in: folder)
        #expect(!log.contains(":CONSOLE"), "\(log)")
        #expect(dom.contains("<p class=\"explain-heading\">explain streak at 2026-01-01T11:05:00Z</p>"))
        #expect(dom.contains("<pre class=\"explain-text\">tip streak at 2026-01-01T11:05:00Z\n  status: pending"), "\(dom)")
        #expect(dom.contains("data-lane=\"streak\" tabindex=\"0\"") && dom.contains("data-instant=\"3\""))
    }

    /// A screenshot at a fixed size, in light and in dark appearance: neither is blank (each is
    /// far larger than the same-size screenshot of an empty page, whose one colour compresses
    /// to almost nothing), and they differ.
    @Test func screenshotsAreNotBlankAndFollowTheAppearance() throws {
        let folder = try TemporaryFolder()
        let page = folder.path + "/news.html"
        Self.writePreview(Self.examples[0], to: page)
        let blank = try folder.write("blank.html", "<!DOCTYPE html><html><body></body></html>")
        func screenshot(_ page: String, dark: Bool, name: String) throws -> [UInt8] {
            let png = folder.path + "/\(name).png"
            _ = try Self.browse(page, ["--window-size=1200,800", "--screenshot=\(png)"] + (dark ? ["--force-dark-mode"] : []), in: folder)
            return [UInt8](try Data(contentsOf: URL(fileURLWithPath: png)))
        }
        let light = try screenshot(page, dark: false, name: "light")
        let dark = try screenshot(page, dark: true, name: "dark")
        let empty = try screenshot(blank, dark: false, name: "blank")
        for png in [light, dark, empty] {
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]), "not a PNG")
            // IHDR: width and height, big-endian, at bytes 16 and 20.
            let width = png[16..<20].reduce(0) { $0 << 8 | Int($1) }, height = png[20..<24].reduce(0) { $0 << 8 | Int($1) }
            #expect(width == 1200 && height == 800, "\(width)×\(height)")
        }
        #expect(light.count > 8 * empty.count && dark.count > 8 * empty.count,
                "light \(light.count) B, dark \(dark.count) B, empty page \(empty.count) B")
        #expect(light != dark)
    }
}
