#!/usr/bin/env bash
# How large a 500-tip program's `tipc preview` page is, and how long headless Chromium takes
# to open it (docs/performance.md): a generated program of 500 tips over 20 events, each tip
# with a rule, texts in two locales and a group of five, and a two-week timeline of 42 steps.
# Chromium's time is its whole run (start, load, script, DOM dump, exit), next to the same run
# on an empty page: the difference is the page's own cost. A third run, of a copy of the page
# with a probe, reports when its load event came (milliseconds after navigation began).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product tipc >/dev/null
tipc=".build/debug/tipc"
out=".build/preview-benchmark"
mkdir -p "$out"
{
  echo "tipkit: 1"
  echo "displayFrequency: hourly"
  echo "defaultLocale: en"
  echo "parameters: { isSignedIn: { type: bool, default: false } }"
  echo "events:"
  for e in $(seq 0 19); do echo "  event$e: {}"; done
  echo "tips:"
  for t in $(seq 0 499); do
    echo "  tip$t:"
    echo "    title: { en: \"Tip number $t\", de: \"Tipp Nummer $t\" }"
    echo "    message: { en: \"Do the thing $t faster with this feature.\", de: \"Mach Ding $t schneller mit dieser Funktion.\" }"
    echo "    image: star"
    echo "    rules: [ \"event$((t % 20)).count >= $((t % 7 + 1)) within 7d\" ]"
  done
  echo "groups:"
  for g in $(seq 0 99); do echo "  group$g: { priority: ordered, tips: [tip$((g*5)), tip$((g*5+1)), tip$((g*5+2)), tip$((g*5+3)), tip$((g*5+4))] }"; done
} > "$out/program.yaml"
{
  echo "start: 2026-03-01T09:00:00Z"
  echo "steps:"
  for day in $(seq 0 13); do
    echo "  - { at: +${day}d, donate: [event$((day % 20)), event$(((day + 7) % 20)), event$(((day + 13) % 20))] }"
    echo "  - { at: +${day}d1h, show: [tip$((day * 3)), tip$((day * 7 % 500))] }"
    echo "  - { at: +${day}d2h, set: { isSignedIn: $([ $((day % 2)) = 0 ] && echo true || echo false) } }"
  done
} > "$out/program.timeline.yaml"
start=$(date +%s.%N)
"$tipc" preview "$out/program.yaml" --timeline "$out/program.timeline.yaml" -o "$out/page.html"
end=$(date +%s.%N)
printf 'tipc preview: %.2f s; page: %d bytes\n' "$(echo "$end - $start" | bc)" "$(wc -c < "$out/page.html")"
echo '<!DOCTYPE html><html><body></body></html>' > "$out/empty.html"
# A copy of the page that records, at its load event, how long since navigation began (the page
# allows inline scripts only, so the probe is written into it).
probe='<script>addEventListener("load", function () { document.documentElement.setAttribute("data-loaded-ms", String(Math.round(performance.now()))); });</script>'
sed "s|<head>|<head>$probe|" "$out/page.html" > "$out/probed.html"
browse() {
  local start end
  start=$(date +%s.%N)
  chromium --headless --no-sandbox --disable-gpu --user-data-dir="$out/profile" --dump-dom "file://$PWD/$1" > "$out/dom-$(basename "$1")" 2>/dev/null
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
browse "$out/empty.html" >/dev/null  # a first run makes the profile
for run in 1 2 3 4 5; do
  page=$(browse "$out/page.html") empty=$(browse "$out/empty.html")
  browse "$out/probed.html" >/dev/null
  loaded=$(grep -o 'data-loaded-ms="[0-9]*"' "$out/dom-probed.html" | grep -o '[0-9]*')
  printf 'run %d: chromium on the page %.2f s, on an empty page %.2f s (the page'"'"'s own cost %.2f s); load event %d ms after navigation\n' \
    "$run" "$page" "$empty" "$(echo "$page - $empty" | bc)" "$loaded"
done
grep -q 'data-script="ready"' "$out/dom-page.html" || { echo "the page's script did not run" >&2; exit 1; }
