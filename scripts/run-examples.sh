#!/usr/bin/env bash
# The main job, on the example manifests and the embedded default store (SQLite):
# lint every example as CI would, compile each app to a rule pack, replay each app's timeline
# on an SQLite store, and explain one tip from the store that replay left behind.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product tipc
tipc=".build/debug/tipc"
out=".build/examples"
mkdir -p "$out"

"$tipc" check Examples
"$tipc" fmt --check Examples
for app in news photo-privacy backyard-birds; do
  "$tipc" compile "Examples/$app" -o "$out/$app.tippack"
  "$tipc" simulate "$out/$app.tippack" --timeline "Examples/$app/$app.timeline.yaml" --db "$out/$app.sqlite" --fresh
done
"$tipc" explain Examples/news --db "$out/news.sqlite" --tip personalize --at 2026-03-08T12:00:00Z
