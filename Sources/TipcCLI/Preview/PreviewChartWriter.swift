#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TipRuntime
import TipcJSON

/// Writes a `PreviewChart` as HTML: one row per lane, spans and marks placed by percentages of
/// the width, each with its label as text (and its instants as text for screen readers), then
/// the steps as `tipc simulate` prints them. The data for pointing (instants, their places and
/// `explain`'s texts) goes in a JSON element the page's script reads.
///
/// Time runs left to right on a compressed scale: the gap between two steps' instants is drawn
/// 1 + log2(1 + minutes) units wide, so that a minute and a week both stay visible; every
/// step's instant is labelled on the axis. An instant between two steps (a wake-up of the
/// runtime) is placed linearly within their gap.
enum PreviewChartWriter {
    /// The axis' instants' places, in thousandths of a percent of the width.
    static func places(of chart: PreviewChart) -> [Int] {
        var units: [Double] = [0]
        for (previous, next) in zip(chart.axis, chart.axis.dropFirst()) {
            units.append(units.last! + 1 + log2(1 + Double(next - previous) / 60_000))
        }
        let total = units.last! + 2  // a stretch after the last instant, for the state it leaves
        return units.map { Int(($0 / total * 100_000).rounded()) }
    }

    /// The place of an instant: a step's instant, or within the gap after one (linearly).
    static func place(_ instant: Int64, chart: PreviewChart, places: [Int]) -> Int {
        guard let after = chart.axis.firstIndex(where: { $0 > instant }) else { return places.last ?? 0 }
        guard after > 0 else { return 0 }
        let (from, to) = (chart.axis[after - 1], chart.axis[after])
        let fraction = Double(instant - from) / Double(to - from)
        return places[after - 1] + Int((Double(places[after] - places[after - 1]) * fraction).rounded())
    }

    static func percent(_ thousandths: Int) -> String {
        let fraction = String(thousandths % 1000)
        return "\(thousandths / 1000).\(String(repeating: "0", count: 3 - fraction.count))\(fraction)%"
    }

    static func write(_ chart: PreviewChart, into out: inout String) {
        let places = places(of: chart)
        func offset(_ instant: Int64) -> String { "+" + ValueText.display(.duration(milliseconds: instant - chart.start)) }
        func at(_ instant: Int64) -> String { "left:\(percent(place(instant, chart: chart, places: places)))" }
        func range(_ span: PreviewChart.Span) -> String {
            let from = place(span.from, chart: chart, places: places)
            // The state at the last instant is drawn over the stretch after it.
            let to = span.to >= chart.end ? 100_000 : place(span.to, chart: chart, places: places)
            return "left:\(percent(from));width:\(percent(max(0, to - from)))"
        }
        // A mark in the last quarter is drawn leftwards of its instant, so that it stays inside.
        func end(_ instant: Int64) -> String { place(instant, chart: chart, places: places) > 75_000 ? " end" : "" }
        func during(_ span: PreviewChart.Span) -> String {
            span.to >= chart.end ? "from \(offset(span.from)) on" : "from \(offset(span.from)) to \(offset(span.to))"
        }
        func spanHTML(_ span: PreviewChart.Span, classes: String) -> String {
            let when = during(span)
            let detail = span.detail.map { " (\($0))" } ?? ""
            return "<div class=\"span \(classes)\" style=\"\(range(span))\" title=\"\(escape(span.label + detail)), \(when)\">"
                + "<span class=\"label\">\(escape(span.label))</span><span class=\"sr\">\(escape(detail)) \(when)</span></div>"
        }
        func marksHTML(_ marks: [PreviewChart.Mark], classes: String) -> String {
            var grouped: [(at: Int64, labels: [String])] = []
            for mark in marks.sorted(by: { $0.at < $1.at }) {
                if grouped.last?.at == mark.at { grouped[grouped.count - 1].labels.append(mark.label) } else { grouped.append((mark.at, [mark.label])) }
            }
            return grouped.map { group in
                let label = group.labels.count > 2 ? "\(group.labels[0]) … (\(group.labels.count))" : group.labels.joined(separator: " · ")
                return "<span class=\"mark \(classes)\(end(group.at))\" style=\"\(at(group.at))\" title=\"\(escape(group.labels.joined(separator: "\n"))) at \(offset(group.at))\">"
                    + "\(escape(label))<span class=\"sr\"> at \(offset(group.at))</span></span>"
            }.joined()
        }

        out += "<section id=\"timeline\" aria-labelledby=\"timeline-heading\">\n"
        out += "<h2 id=\"timeline-heading\">Timeline <code>\(escape(chart.path))</code></h2>\n"
        out += "<p class=\"hint\">From \(escape(ISO8601.string(fromMilliseconds: Int(chart.start)))), as <code>tipc simulate</code> replays it. "
            + "Time runs left to right, each step’s instant labelled (long gaps drawn shorter); a change between steps (a window "
            + "closing, the display frequency’s gap ending, a date passing) is drawn where it happens. Point at a tip’s lane, or focus it "
            + "and use the arrow keys, to see <code>tipc explain</code>’s text for that tip at that instant.</p>\n"
        for note in chart.notes { out += "<p class=\"hint\">\(escape(note))</p>\n" }
        if !chart.failures.isEmpty {
            out += "<ul class=\"failures\">" + chart.failures.map { "<li class=\"failed\">FAILED: \(escape($0))</li>" }.joined() + "</ul>\n"
        }
        out += "<div class=\"chart\">\n<div class=\"lane axis\" aria-hidden=\"true\"><div class=\"lane-name\">time</div><div class=\"track\">"
        for (index, instant) in chart.axis.enumerated() {
            out += "<span class=\"tick row-\(index % 2)\" style=\"left:\(percent(places[index]))\">\(escape(offset(instant)))</span>"
        }
        out += "</div></div>\n<h3 class=\"lanes-heading\">Tips</h3>\n"
        for lane in chart.tips {
            out += "<div class=\"lane tip-lane\" data-tip=\"\(escape(lane.tip))\" data-lane=\"\(escape(lane.name))\" tabindex=\"0\" "
                + "aria-label=\"Tip \(escape(lane.name)); arrow keys show explain’s text at each instant\">"
                + "<div class=\"lane-name\">\(escape(lane.name))</div><div class=\"track\">"
            if let note = lane.note { out += "<p class=\"note\">\(escape(note))</p>" }
            out += "<div class=\"row status\">"
            for (kind, span) in lane.spans { out += spanHTML(span, classes: kind.rawValue) }
            out += "</div>"
            if !lane.holds.isEmpty {
                out += "<div class=\"row holds\">"
                for (kind, span) in lane.holds { out += spanHTML(span, classes: "hold hold-\(kind.rawValue)") }
                out += "</div>"
            }
            if !lane.marks.isEmpty { out += "<div class=\"row marks\">" + marksHTML(lane.marks, classes: "event") + "</div>" }
            out += "</div></div>\n"
        }
        out += "<div id=\"explain\" class=\"explain\" aria-live=\"polite\"><p class=\"explain-heading\">explain</p>"
            + "<pre class=\"explain-text\">Point at a tip’s lane to see why it is or is not shown at that instant.</pre></div>\n"
        if !chart.events.isEmpty {
            out += "<h3 class=\"lanes-heading\">Events</h3>\n"
            for lane in chart.events {
                out += "<div class=\"lane event-lane\" data-event=\"\(escape(lane.name))\"><div class=\"lane-name\">\(escape(lane.name))</div>"
                    + "<div class=\"track\"><div class=\"row marks\">"
                out += lane.donations.isEmpty ? "<span class=\"empty\">no donations</span>" : marksHTML(lane.donations, classes: "donation")
                out += "</div></div></div>\n"
            }
        }
        if !chart.parameters.isEmpty {
            out += "<h3 class=\"lanes-heading\">Parameters</h3>\n"
            for lane in chart.parameters {
                out += "<div class=\"lane parameter-lane\" data-parameter=\"\(escape(lane.name))\"><div class=\"lane-name\">\(escape(lane.name))</div>"
                    + "<div class=\"track\"><div class=\"row status\">"
                for span in lane.values { out += spanHTML(span, classes: "parameter") }
                out += "</div></div></div>\n"
            }
        }
        out += "<h3 class=\"lanes-heading\">Expectations</h3>\n<div class=\"lane expectation-lane\"><div class=\"lane-name\">expect</div>"
            + "<div class=\"track\"><div class=\"row marks\">"
        var byInstant: [(at: Int64, expectations: [PreviewChart.Expectation])] = []
        for expectation in chart.expectations {
            if byInstant.last?.at == expectation.at { byInstant[byInstant.count - 1].expectations.append(expectation) } else { byInstant.append((expectation.at, [expectation])) }
        }
        for group in byInstant {
            let failed = group.expectations.filter { !$0.passed }.count, passed = group.expectations.count - failed
            let label = failed == 0 ? "✓ \(passed) passed" : "✗ \(failed) failed" + (passed > 0 ? ", \(passed) passed" : "")
            let details = group.expectations.map { "line \($0.line): \($0.text)" }.joined(separator: "\n")
            out += "<span class=\"mark \(failed == 0 ? "passed" : "failed")\(end(group.at))\" style=\"\(at(group.at))\" title=\"\(escape(details))\">"
                + "\(escape(label))<span class=\"sr\"> at \(offset(group.at)): \(escape(details))</span></span>"
        }
        out += "</div></div></div>\n</div>\n"

        out += "<h3>Steps, as <code>tipc simulate</code> prints them</h3>\n<ol class=\"steps\">\n"
        for step in chart.steps {
            out += "<li><span class=\"when\">\(escape(offset(step.at))) · line \(step.line)</span><ul>"
            for line in step.lines {
                let failed = line.hasPrefix("FAILED")
                out += "<li\(failed ? " class=\"failed\"" : (line.hasPrefix("expect ") ? " class=\"passed\"" : ""))>\(escape(line))</li>"
            }
            out += "</ul></li>\n"
        }
        let failedCount = chart.expectations.filter { !$0.passed }.count
        out += "</ol>\n<p class=\"summary-line\">\(EnglishText.count(chart.steps.count, "step")), \(EnglishText.count(chart.expectations.count, "expectation")), \(failedCount) failed</p>\n"

        // explain's texts share most of their lines: each line is written once, each text as
        // the indices of its lines.
        var lines: [String] = [], lineIndex: [String: Int] = [:]
        let texts = chart.texts.map { text in
            text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                let line = String(line)
                if let index = lineIndex[line] { return index }
                lines.append(line)
                lineIndex[line] = lines.count - 1
                return lines.count - 1
            }
        }
        let data = JSON.object([
            ("instants", .array(chart.instants.map { .string(ISO8601.string(fromMilliseconds: Int($0))) })),
            ("places", .array(chart.instants.map { .integer(Int64(place($0, chart: chart, places: places))) })),
            ("lanes", .object(chart.tips.map { lane in
                (lane.name, .array(lane.explanations.map { .array([.integer(Int64($0.instant)), .integer(Int64($0.text))]) }))
            })),
            ("lines", .array(lines.map { .string($0) })),
            ("texts", .array(texts.map { .array($0.map { .integer(Int64($0)) }) })),
        ])
        out += "<script type=\"application/json\" id=\"chart-data\">\(PreviewHTMLWriter.scriptJSON(data))</script>\n</section>\n"
    }

    private static func escape(_ text: String) -> String { PreviewHTMLWriter.escape(text) }
}
