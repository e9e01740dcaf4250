import TipcCompiler
import TipRuntime
import TipcJSON

/// Writes a `PreviewPage` as one self-contained HTML file: styles and script inline, no request
/// of any kind (a Content-Security-Policy forbids them, so a mistake shows as a console error
/// instead of a fetch), real text throughout. The output depends on the page only (no clock,
/// stable order), so it can be compared byte for byte.
enum PreviewHTMLWriter {
    static let contentSecurityPolicy = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

    static func html(_ page: PreviewPage) -> String {
        var out = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="\(contentSecurityPolicy)">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta name="color-scheme" content="light dark">
        <title>Tips preview: \(escape(page.paths.joined(separator: ", ")))</title>
        <style>\(PreviewStyle.css)</style>
        </head>
        <body>
        <header>
        <h1>Tips preview</h1>
        <dl class="summary">
        """
        out += "\n<dt>Program</dt><dd>" + page.paths.map { "<code>\(escape($0))</code>" }.joined(separator: ", ") + "</dd>"
        out += "\n<dt>Locales</dt><dd>" + page.locales.map { localeName($0) }.map(escape).joined(separator: ", ") + "</dd>"
        out += "\n<dt>Placeholders</dt><dd>" + (page.values.isEmpty ? "shown as {name} (give values with --value NAME=TEXT)"
                                                 : escape(page.values.joined(separator: ", "))) + "</dd>"
        out += "\n<dt>Parameters in texts</dt><dd>at their defaults</dd>"
        out += "\n<dt>Display frequency</dt><dd>\(escape(page.displayFrequency))</dd>"
        out += "\n</dl>\n<nav aria-label=\"Tips\"><h2>Tips</h2><ul class=\"contents\">"
        for tip in page.tips { out += "<li><a href=\"#tip-\(escape(tip.name))\">\(escape(tip.name))</a></li>" }
        if page.chart != nil { out += "<li><a href=\"#timeline\">Timeline</a></li>" }
        out += "</ul></nav>\n</header>\n<main>\n"
        for tip in page.tips { write(tip, locales: page.locales, into: &out) }
        if let chart = page.chart { PreviewChartWriter.write(chart, into: &out) }
        out += "</main>\n<script>\(PreviewStyle.script)</script>\n</body>\n</html>\n"
        return out
    }

    static func localeName(_ locale: String?) -> String {
        locale ?? "every locale (texts are not localized)"
    }

    private static func write(_ tip: PreviewPage.Tip, locales: [String?], into out: inout String) {
        out += "<article class=\"tip\" id=\"tip-\(escape(tip.name))\" data-tip=\"\(escape(tip.name))\">"
        out += "<h2>\(escape(tip.name))</h2><div class=\"tip-body\"><div class=\"renderings\">\n"
        for arm in tip.arms {
            if let name = arm.name {
                out += "<h3 class=\"arm\" data-arm=\"\(escape(name))\">Arm \(escape(name))"
                    + (arm.share.map { " <span class=\"share\">\(escape($0))</span>" } ?? "") + "</h3>"
            }
            if arm.isHidden {
                out += "<p class=\"hidden-arm\">Hidden arm: its users never see the tip. The first time it would have "
                    + "displayed for one of them, an exposure is recorded instead, so the report can compare them.</p>\n"
            }
            for texts in arm.texts {
                out += "<section class=\"locale\" data-locale=\"\(escape(texts.locale ?? ""))\">"
                out += "<h3>\(escape(texts.locale.map { "Locale \($0)" } ?? "Every locale"))</h3><div class=\"appearances\">"
                // The page holds each text once: the light popover. Its script draws the inline
                // card and the dark pane from it as the tip comes near the screen.
                out += "<div class=\"pane appearance-light\"><p class=\"pane-label\">Light</p>"
                out += "<figure class=\"popover\"><div class=\"arrow\" aria-hidden=\"true\"></div>"
                card(texts, image: arm.image, into: &out)
                out += "<figcaption>Popover</figcaption></figure></div>"
                out += "</div></section>\n"
            }
        }
        out += "</div><aside class=\"facts\" aria-label=\"\(escape(tip.name)): rules and options\"><h3>Rules</h3>"
        if tip.rules.isEmpty {
            out += "<p>None: always available.</p>"
        } else {
            out += "<ol class=\"rules\">" + tip.rules.map { "<li><code>\(escape($0))</code></li>" }.joined() + "</ol>"
        }
        out += "<h3>Options</h3><dl class=\"options\">"
        for option in tip.options { out += "<dt>\(escape(option.label))</dt><dd>\(escape(option.value))</dd>" }
        out += "</dl><h3>Group</h3><p>\(escape(tip.group ?? "none"))</p>"
        out += "<h3>Experiment</h3>"
        if tip.experiment.isEmpty {
            out += "<p>none</p>"
        } else {
            out += "<dl class=\"options\">"
            for fact in tip.experiment { out += "<dt>\(escape(fact.label))</dt><dd>\(escape(fact.value))</dd>" }
            out += "</dl>"
        }
        out += "</aside></div></article>\n"
    }

    /// The tip's card as TipKit draws it: the image in a glyph box, the bold title and the
    /// message beside it, a close button, and the actions below a rule.
    private static func card(_ texts: PreviewPage.Texts, image: PackImage?, into out: inout String) {
        out += "<div class=\"card\"><div class=\"row\">"
        switch image {
        case .symbol(let name)?:
            out += "<div class=\"glyph\" title=\"SF Symbol \(escape(name))\"><span class=\"glyph-kind\">symbol</span>\(breakable(name))</div>"
        case .asset(let name)?:
            out += "<div class=\"glyph asset\" title=\"Asset \(escape(name))\"><span class=\"glyph-kind\">asset</span>\(breakable(name))</div>"
        case nil: break
        }
        out += "<div class=\"texts\"><p class=\"title\">\(escape(texts.title))</p>"
        if let message = texts.message { out += "<p class=\"message\">\(escape(message))</p>" }
        out += "</div><span class=\"close\" role=\"img\" aria-label=\"Close\">✕</span></div>"
        if !texts.actions.isEmpty {
            out += "<ul class=\"actions\">" + texts.actions.map { "<li data-action=\"\(escape($0.id))\">\(escape($0.title))</li>" }.joined() + "</ul>"
        }
        out += "</div>"
    }

    /// A symbol's or asset's name, free to wrap after each dot (`line.3.horizontal…`).
    static func breakable(_ name: String) -> String {
        escape(name).split(separator: ".", omittingEmptySubsequences: false).joined(separator: ".<wbr>")
    }

    /// Text as HTML (element content and attribute values alike).
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    /// A JSON value inside `<script type="application/json">`: `<` escaped so that no text can
    /// end the element.
    static func scriptJSON(_ json: JSON) -> String {
        var out = ""
        for character in json.serialized(pretty: false).unicodeScalars {
            if character == "<" { out += "\\u003c" } else { out.unicodeScalars.append(character) }
        }
        return out
    }
}
