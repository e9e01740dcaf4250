#!/usr/bin/env bash
# The test command: sets up what is missing, builds, starts throw-away PostgreSQL clusters
# for the PostgreSQL store's tests (scripts/postgres-test-cluster.sh; their URLs go to the
# tests in TIPC_TEST_POSTGRES_URL and TIPC_TEST_POSTGRES_RESTARTABLE_URL), runs the whole test
# suite, and removes the clusters and the tests' temporary files on exit.
# Clusters that crashed runs left behind are removed first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
swift build --build-tests

scripts/postgres-test-cluster.sh sweep
clusters=$(mktemp -d "${TMPDIR:-/tmp}/tipc-pg.XXXXXX")
chmod 755 "$clusters"  # the clusters' owner (tipcpg when run as root) reaches its folders
echo $$ >"$clusters/runner.pid"
trap 'scripts/postgres-test-cluster.sh remove "$clusters"' EXIT
trap 'exit 130' INT TERM
# One cluster for every test, and one that the restart tests stop and start.
TIPC_TEST_POSTGRES_URL=$(scripts/postgres-test-cluster.sh start "$clusters/shared")
TIPC_TEST_POSTGRES_RESTARTABLE_URL=$(scripts/postgres-test-cluster.sh start "$clusters/restartable")
export TIPC_TEST_POSTGRES_URL TIPC_TEST_POSTGRES_RESTARTABLE_URL
export TIPC_TEST_POSTGRES_RESTARTABLE_CLUSTER="$clusters/restartable"
export TIPC_TEST_POSTGRES_CONTROL="$PWD/scripts/postgres-test-cluster.sh"
# Every temporary folder the tests make (stores, manifests, packs) goes in the run's folder,
# removed with the clusters on exit.
export TMPDIR="$clusters/tmp"
mkdir -p "$TMPDIR"

# Every answer a real `tipc serve` gives the tests is logged, then checked against the API's
# description (docs/openapi.yaml).
export TIPC_TEST_HTTP_LOG="$clusters/http-answers.jsonl"
: >"$TIPC_TEST_HTTP_LOG"
whole=false
[ $# -eq 0 ] && whole=true
if $whole; then
  # The JavaScript client: Node's test runner against a real tipc serve, and in headless
  # Chromium from a page on another origin; then its types, and the served API description.
  TIPC_BIN="$PWD/.build/debug/tipc" node --test clients/js/test/*.test.mjs
  tsc -p clients/js/tsconfig.json
  scripts/openapi.sh --check
fi
swift test --skip-build "$@"
if $whole; then
  .build/test-venv/bin/python scripts/validate-openapi.py docs/openapi.yaml "$TIPC_TEST_HTTP_LOG"
fi
