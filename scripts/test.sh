#!/usr/bin/env bash
# The test command: sets up what is missing, builds, and runs the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh --tests
swift build --build-tests
swift test --skip-build "$@"
