#!/usr/bin/env bash
# The pre-commit hook `tipc-check` (.pre-commit-hooks.yaml): builds tipc in the hook's own
# checkout the first time (later runs find it built), then checks the repository being
# committed. The arguments are tipc check's (the hook passes "."). Build output goes to
# standard error, so that only tipc's report is on standard output.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
if [ ! -x "$here/.build/release/tipc" ]; then
  "$here/scripts/setup.sh" >&2
  swift build -c release --product tipc --package-path "$here" >&2
fi
exec "$here/.build/release/tipc" check "$@"
