#!/usr/bin/env bash
# Screenshots of the examples' `tipc preview` pages for docs/preview.md (docs/images), taken by
# headless Chromium at 1200×800: the news app's tips in light appearance, its timeline, and the
# hiking app's localized tips in dark appearance. The timeline is shown through a frame that
# opens the page at #timeline (a headless screenshot does not scroll to a fragment by itself).
set -euo pipefail
cd "$(dirname "$0")/.."
swift build --product tipc >/dev/null
tipc=".build/debug/tipc"
out=".build/preview-screenshots"
mkdir -p "$out" docs/images
"$tipc" preview Examples/news --timeline Examples/news/news.timeline.yaml -o "$out/news.html"
"$tipc" preview Examples/hiking --timeline Examples/hiking/hiking.timeline.yaml --value 'trail=Eagle Creek' -o "$out/hiking.html"
echo '<!DOCTYPE html><html><body style="margin:0"><iframe src="news.html#timeline" style="border:0;width:1200px;height:800px"></iframe></body></html>' > "$out/news-timeline.html"
shot() {
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$out/profile" --window-size=1200,800 \
    "${@:3}" --screenshot="$PWD/docs/images/$2" "file://$PWD/$out/$1" >/dev/null 2>&1
}
shot news.html preview-news-tips.png
shot news-timeline.html preview-news-timeline.png
shot hiking.html preview-hiking-dark.png --force-dark-mode
ls -l docs/images/preview-*.png
