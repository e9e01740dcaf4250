#!/usr/bin/env bash
# The main job on the example manifests: lint them as CI would.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
swift build --product tipc
tipc=".build/debug/tipc"
"$tipc" check Examples
