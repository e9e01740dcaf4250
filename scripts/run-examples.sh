#!/usr/bin/env bash
# The main job, on the example manifests and the embedded default store (SQLite):
# lint every example as CI would, compile each app to a rule pack, replay each app's timeline
# on an SQLite store, explain one tip from the store that replay left behind, report the hiking
# app's experiment, and serve one pack over HTTP (`tipc serve`) to a few curl requests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product tipc
swift build --product tipc-serve  # `tipc serve` runs it
tipc=".build/debug/tipc"
out=".build/examples"
mkdir -p "$out"

"$tipc" check Examples
"$tipc" fmt --check Examples
for app in news photo-privacy backyard-birds hiking; do
  "$tipc" compile "Examples/$app" -o "$out/$app.tippack"
  "$tipc" simulate "$out/$app.tippack" --timeline "Examples/$app/$app.timeline.yaml" --db "$out/$app.sqlite" --fresh
done
# The backyard-birds tips written as TipKit Swift: imported, checked as Swift, compiled, and the
# YAML app's timeline replayed on the import (the import declares the same program).
"$tipc" import Examples/backyard-birds-swift -o "$out/backyard-birds-swift.yaml"
"$tipc" check --strict Examples/backyard-birds-swift "$out/backyard-birds-swift.yaml"
"$tipc" compile Examples/backyard-birds-swift -o "$out/backyard-birds-swift.tippack"
"$tipc" simulate "$out/backyard-birds-swift.tippack" --timeline Examples/backyard-birds/backyard-birds.timeline.yaml
# And back: each app generated as TipKit Swift, checked as Swift and replayed on its timeline.
# (news is left out: its follow-up reads the welcome tip's record, which TipKit cannot say, and
# `generate tipkit` refuses it; GenerateCommandTests pins that.)
for pair in backyard-birds:ios17 photo-privacy:ios18; do
  app=${pair%%:*}
  mkdir -p "$out/generated/$app"
  "$tipc" generate tipkit "Examples/$app" -o "$out/generated/$app/Tips.swift" --minimum-os "${pair##*:}"
  "$tipc" check --strict "$out/generated/$app"
  "$tipc" simulate "$out/generated/$app" --timeline "Examples/$app/$app.timeline.yaml" > /dev/null
done

"$tipc" explain Examples/news --db "$out/news.sqlite" --tip personalize --at 2026-03-08T12:00:00Z
# A localized tip's texts in Swiss German (de-CH, else de, else the default en), with the
# parameters' values the replay left in the store.
"$tipc" explain Examples/hiking --db "$out/hiking.sqlite" --tip offlineMaps --locale de-CH --at 2026-05-03T16:00:00Z
# One instance of the per-trail tip (trail 12's, shown once and so invalidated), in German.
"$tipc" explain Examples/hiking --db "$out/hiking.sqlite" --tip 'saveTrail[12]' --locale de --at 2026-05-03T16:00:00Z

# The hiking app's copy experiment as its replay recorded it (one hiker, assigned, shown the
# tip, tapping its action and downloading a map): the report of that store (tipc report).
"$tipc" report --db "$out/hiking.sqlite" --manifest Examples/hiking --at 2026-05-03T16:00:00Z

# The news app's tips as a page to look at, with its first week drawn as a chart (tipc preview).
"$tipc" preview Examples/news --timeline Examples/news/news.timeline.yaml -o "$out/news-preview.html"

# The tip service: serve the backyard-birds pack on a free loopback port, sign a user in,
# donate three visits to one backyard, and read the tip it makes available; SIGTERM stops it.
rm -f "$out/serve.sqlite"
"$tipc" serve --pack "$out/backyard-birds.tippack" --store "sqlite:$out/serve.sqlite" --listen 127.0.0.1:0 > "$out/serve.out" &
server=$!
trap 'kill $server 2>/dev/null || true' EXIT
# Wait for its address, at most 60 s, and stop at once if it exits instead (a bad store or port).
for _ in $(seq 600); do
  grep -q '^listening on ' "$out/serve.out" && break
  kill -0 $server 2>/dev/null || { cat "$out/serve.out"; echo "tipc serve exited before listening" >&2; exit 1; }
  sleep 0.1
done
grep -q '^listening on ' "$out/serve.out" || { echo "tipc serve printed no address in 60 s" >&2; exit 1; }
base=$(sed -n 's/^listening on //p' "$out/serve.out")
curl -sf -X PUT "$base/v1/users/ann/parameters/isSignedIn" -d '{"value": true}'
for _ in 1 2 3; do curl -sf -X POST "$base/v1/users/ann/events/backyardDetailOpened" -d '{"value": {"backyardID": 7}}'; done
curl -sf "$base/v1/users/ann/tips?tip=favoriteBackyard" | tee "$out/serve-tips.json"
grep -q '"status":"available","shouldDisplay":true' "$out/serve-tips.json"
kill -TERM $server
wait $server
trap - EXIT
