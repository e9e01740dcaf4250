#!/usr/bin/env bash
# Installs the system libraries tipc links (libyaml, SQLite) when they are missing.
set -euo pipefail
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  if [ "$(id -u)" -eq 0 ]; then
    apt-get update -qq && apt-get install -y -qq "${missing[@]}"
  else
    sudo apt-get update -qq && sudo apt-get install -y -qq "${missing[@]}"
  fi
fi
# The schema tests validate manifests with a real JSON Schema validator.
if ! command -v check-jsonschema >/dev/null 2>&1; then
  echo "installing: check-jsonschema (PyPI)" >&2
  python3 -m pip install -q check-jsonschema
fi
