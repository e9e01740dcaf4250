/// The page's inline style sheet and script. The page follows the reader's appearance; each tip
/// is drawn in both, in panes whose colours are fixed (the palette's light and dark values).
enum PreviewStyle {
    static var css: String {
        """

        :root { \(PreviewPalette.light.customProperties) color-scheme: light; }
        @media (prefers-color-scheme: dark) { :root { \(PreviewPalette.dark.customProperties) color-scheme: dark; } }
        .appearance-light { \(PreviewPalette.light.customProperties) }
        .appearance-dark { \(PreviewPalette.dark.customProperties) }
        * { box-sizing: border-box; }
        body { margin: 0; padding: 16px 24px 48px; background: var(--page-background); color: var(--page-text);
          font: 15px/1.4 -apple-system, BlinkMacSystemFont, "SF Pro Text", "Helvetica Neue", "Liberation Sans", Arial, sans-serif; }
        h1 { font-size: 24px; margin: 0 0 8px; }
        h2 { font-size: 19px; margin: 0 0 8px; }
        h3 { font-size: 14px; margin: 12px 0 6px; color: var(--page-secondary-text); font-weight: 600; }
        a { color: var(--accent); }
        code, pre { font: 13px/1.4 "SF Mono", Menlo, "DejaVu Sans Mono", "Liberation Mono", monospace; }
        .summary { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 0 0 8px; }
        .summary dt { color: var(--page-secondary-text); }
        .summary dd { margin: 0; }
        nav h2 { font-size: 14px; color: var(--page-secondary-text); margin: 8px 0 4px; }
        .contents { list-style: none; padding: 0; margin: 0 0 16px; display: flex; flex-wrap: wrap; gap: 4px 14px; }
        .tip { border-top: 1px solid var(--border); padding: 16px 0; content-visibility: auto; contain-intrinsic-size: auto 680px; }
        .tip-body { display: flex; flex-wrap: wrap; gap: 16px 24px; align-items: flex-start; }
        .renderings { flex: 3 1 560px; min-width: 0; }
        .facts { flex: 1 1 260px; min-width: 0; }
        .facts h3:first-child { margin-top: 0; }
        .rules { margin: 0; padding-left: 22px; }
        .rules code { white-space: pre-wrap; overflow-wrap: anywhere; }
        .options { display: grid; grid-template-columns: max-content 1fr; gap: 2px 10px; margin: 0; }
        .options dt { color: var(--page-secondary-text); }
        .options dd { margin: 0; overflow-wrap: anywhere; }
        .facts p { margin: 0; }
        .locale h3 { margin-top: 0; }
        h3.arm { margin: 8px 0; padding-top: 6px; border-top: 1px dashed var(--border); }
        h3.arm .share { font-weight: 400; font-size: 13px; color: var(--page-secondary-text); }
        .hidden-arm { margin: 0 0 12px; padding: 10px 14px; border: 1px dashed var(--border); border-radius: 12px; }
        .appearances { display: grid; grid-template-columns: repeat(auto-fill, minmax(270px, 1fr)); gap: 12px; margin-bottom: 12px; }
        .pane { background: var(--pane-background); color: var(--page-text); border-radius: 12px; padding: 10px 14px 14px;
          border: 1px solid var(--border); }
        .pane-label { margin: 0 0 4px; font-size: 12px; font-weight: 600; color: var(--page-text); }
        figure { margin: 8px 0 0; }
        figcaption { font-size: 12px; color: var(--page-text); margin-top: 4px; }
        .card { background: var(--tip-background); border-radius: 14px; padding: 14px 14px 12px; }
        .popover { position: relative; padding-top: 10px; }
        .popover .card { box-shadow: 0 6px 22px rgba(0, 0, 0, 0.22); }
        .popover .arrow { position: absolute; top: 0; left: 28px; width: 0; height: 0;
          border-left: 11px solid transparent; border-right: 11px solid transparent; border-bottom: 11px solid var(--tip-background); }
        .inline .card { border-radius: 12px; }
        .row { display: flex; gap: 12px; align-items: flex-start; }
        .glyph { flex: 0 0 54px; height: 46px; border-radius: 10px; background: var(--glyph-background); color: var(--accent);
          font-size: 9.5px; line-height: 1.15; display: flex; flex-direction: column; align-items: center; justify-content: center;
          text-align: center; overflow-wrap: anywhere; padding: 2px; overflow: hidden; }
        .glyph.asset { border: 1.5px dashed var(--accent); }
        .glyph-kind { font-size: 8px; text-transform: uppercase; letter-spacing: 0.04em; }
        .texts { flex: 1; min-width: 0; }
        .title { margin: 0; font-weight: 700; font-size: 16px; color: var(--tip-title); }
        .message { margin: 2px 0 0; font-size: 14px; color: var(--tip-message); }
        .close { color: var(--tip-close); font-size: 13px; line-height: 1; padding: 2px; }
        .actions { list-style: none; margin: 10px 0 0; padding: 0; }
        .actions li { border-top: 1px solid var(--divider); padding: 8px 0 0; margin-top: 0; color: var(--accent); font-size: 15px; }
        .actions li + li { margin-top: 8px; }
        #timeline { border-top: 1px solid var(--border); padding-top: 16px; }
        .hint { color: var(--page-secondary-text); max-width: 70em; }
        .failures { padding-left: 20px; }
        .failed { color: var(--failed-text); }
        .passed { color: var(--passed-text); }
        .chart { margin: 8px 0 16px; }
        .lanes-heading { margin: 10px 0 4px; }
        .lane { display: flex; align-items: stretch; border-bottom: 1px solid var(--border); min-height: 28px;
          content-visibility: auto; contain-intrinsic-size: auto 50px; }
        .lane:focus { outline: 2px solid var(--accent); outline-offset: 1px; }
        .lane-name { flex: 0 0 170px; padding: 4px 8px 4px 0; font-size: 13px; overflow-wrap: anywhere; }
        .track { position: relative; flex: 1; min-width: 0; padding: 3px 0; }
        .track .row { position: relative; height: 20px; margin: 0 0 2px; }
        .span { position: absolute; top: 0; height: 20px; overflow: hidden; white-space: nowrap; text-overflow: ellipsis;
          font-size: 11.5px; line-height: 20px; padding: 0 4px; border-right: 1px solid var(--page-background); }
        .span .label { overflow: hidden; text-overflow: ellipsis; }
        .pending { background: var(--pending-background); color: var(--pending-text); }
        .available { background: var(--available-background); color: var(--available-text); font-weight: 600; }
        .invalidated { background: var(--invalidated-background); color: var(--invalidated-text); }
        .hold { color: var(--hold-text); background: repeating-linear-gradient(135deg, var(--hold-background) 0 6px,
          var(--page-background) 6px 8px, var(--hold-background) 8px 14px); }
        .parameter { background: var(--pending-background); color: var(--pending-text); border-left: 3px solid var(--accent); }
        .mark { position: absolute; top: 0; white-space: nowrap; font-size: 11.5px; line-height: 18px; padding: 0 5px;
          border-radius: 9px; background: var(--mark-background); color: var(--mark-text); transform: translateX(-6px); }
        .mark.end { transform: translateX(calc(-100% + 6px)); }
        .mark.passed, .mark.failed { background: var(--page-background); border: 1px solid currentColor; }
        .mark.failed { font-weight: 700; }
        .axis { border-bottom: 1px solid var(--border); }
        .axis .track { height: 34px; }
        .tick { position: absolute; font-size: 11px; white-space: nowrap; color: var(--page-secondary-text); border-left: 1px solid var(--border);
          padding-left: 2px; }
        .tick.row-0 { top: 0; } .tick.row-1 { top: 16px; }
        .note, .empty { margin: 0; font-size: 12px; color: var(--page-secondary-text); }
        .cursor { position: absolute; top: 0; bottom: 0; width: 0; border-left: 2px solid var(--accent); pointer-events: none; }
        .explain { position: sticky; bottom: 0; background: var(--page-background); border: 1px solid var(--border); border-radius: 8px;
          padding: 6px 10px; margin: 8px 0; max-height: 40vh; overflow: auto; }
        .explain-heading { margin: 0; font-weight: 600; font-size: 13px; }
        .explain-text { margin: 4px 0 0; white-space: pre-wrap; }
        .steps { padding-left: 22px; font-size: 13px; }
        .steps ul { margin: 0 0 4px; padding-left: 18px; font-family: "SF Mono", Menlo, "DejaVu Sans Mono", monospace; }
        .when { color: var(--page-secondary-text); }
        .sr { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }

        """
    }

    /// Draws each tip's inline card and dark pane from its light popover (the one copy of its
    /// texts the page holds) when the tip comes within a few screens of the viewport, the first
    /// few tips at once; the copies are hidden from screen readers, which read each text once.
    /// Pointing at (or, with the keyboard, moving along) a tip's lane shows `explain`'s text
    /// for that tip at the instant read there or last before. Marks the page when it ran, so
    /// that a test can tell the script ran to its end.
    static let script = """

    (function () {
      "use strict";
      var drawCopies = function (tip) {
        var panes = tip.querySelectorAll(".pane.appearance-light");
        for (var p = 0; p < panes.length; p++) {
          var pane = panes[p];
          var inline = document.createElement("figure");
          inline.className = "inline";
          inline.setAttribute("aria-hidden", "true");
          inline.appendChild(pane.querySelector(".popover .card").cloneNode(true));
          var caption = document.createElement("figcaption");
          caption.textContent = "Inline";
          inline.appendChild(caption);
          pane.appendChild(inline);
          var dark = pane.cloneNode(true);
          dark.className = "pane appearance-dark";
          dark.setAttribute("aria-hidden", "true");
          dark.querySelector(".pane-label").textContent = "Dark";
          pane.parentNode.appendChild(dark);
        }
      };
      var tips = document.querySelectorAll("article.tip");
      var firstScreens = 3;
      for (var t = 0; t < tips.length && t < firstScreens; t++) { drawCopies(tips[t]); }
      if (tips.length > firstScreens) {
        if ("IntersectionObserver" in window) {
          var observer = new IntersectionObserver(function (entries) {
            for (var e = 0; e < entries.length; e++) {
              if (entries[e].isIntersecting) { observer.unobserve(entries[e].target); drawCopies(entries[e].target); }
            }
          }, { rootMargin: "2000px 0px" });
          for (var o = firstScreens; o < tips.length; o++) { observer.observe(tips[o]); }
        } else {
          for (var a = firstScreens; a < tips.length; a++) { drawCopies(tips[a]); }
        }
      }
      var element = document.getElementById("chart-data");
      if (element) {
        var data = JSON.parse(element.textContent);
        var heading = document.querySelector("#explain .explain-heading");
        var cursor = document.createElement("div");
        cursor.className = "cursor";
        cursor.setAttribute("aria-hidden", "true");
        var text = document.querySelector("#explain .explain-text");
        var instantAt = function (track, clientX) {
          var box = track.getBoundingClientRect();
          var place = (clientX - box.left) / box.width * 100000;
          var index = 0;
          for (var i = 0; i < data.places.length; i++) { if (data.places[i] <= place) { index = i; } }
          return index;
        };
        var show = function (lane, index) {
          var name = lane.getAttribute("data-lane");
          var entries = data.lanes[name] || [];
          var body = null;
          for (var i = 0; i < entries.length; i++) { if (entries[i][0] <= index) { body = entries[i][1]; } }
          if (body !== null) { body = data.texts[body].map(function (line) { return data.lines[line]; }).join("\\n"); }
          heading.textContent = "explain " + name + " at " + data.instants[index];
          text.textContent = body === null ? "(no instance of this tip in the timeline)"
            : "tip " + name + " at " + data.instants[index] + "\\n" + body;
          lane.querySelector(".track").appendChild(cursor);
          cursor.style.left = (data.places[index] / 1000) + "%";
          lane.setAttribute("data-instant", String(index));
        };
        var lanes = document.querySelectorAll(".tip-lane");
        for (var l = 0; l < lanes.length; l++) {
          (function (lane) {
            var track = lane.querySelector(".track");
            track.addEventListener("pointermove", function (event) { show(lane, instantAt(track, event.clientX)); });
            lane.addEventListener("focus", function () { show(lane, Number(lane.getAttribute("data-instant") || "0")); });
            lane.addEventListener("keydown", function (event) {
              var index = Number(lane.getAttribute("data-instant") || "0");
              if (event.key === "ArrowRight") { index = Math.min(data.places.length - 1, index + 1); }
              else if (event.key === "ArrowLeft") { index = Math.max(0, index - 1); }
              else if (event.key === "Home") { index = 0; }
              else if (event.key === "End") { index = data.places.length - 1; }
              else { return; }
              event.preventDefault();
              show(lane, index);
            });
          })(lanes[l]);
        }
      }
      document.body.setAttribute("data-script", "ready");
    })();

    """
}
