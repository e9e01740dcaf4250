#!/usr/bin/env bash
# The test command: sets up what is missing, builds, starts a throw-away PostgreSQL cluster
# for the PostgreSQL store's tests (scripts/postgres-test-cluster.sh; its URL goes to the tests
# in TIPC_TEST_POSTGRES_URL), runs the whole test suite, and removes the cluster on exit.
# Clusters that crashed runs left behind are removed first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
swift build --build-tests

scripts/postgres-test-cluster.sh sweep
cluster=$(mktemp -d "${TMPDIR:-/tmp}/tipc-pg.XXXXXX")
echo $$ >"$cluster/runner.pid"
trap 'scripts/postgres-test-cluster.sh remove "$cluster"' EXIT
trap 'exit 130' INT TERM
TIPC_TEST_POSTGRES_URL=$(scripts/postgres-test-cluster.sh start "$cluster")
export TIPC_TEST_POSTGRES_URL
# The restart tests stop and start the cluster with these.
export TIPC_TEST_POSTGRES_CLUSTER="$cluster"
export TIPC_TEST_POSTGRES_CONTROL="$PWD/scripts/postgres-test-cluster.sh"

swift test --skip-build "$@"
