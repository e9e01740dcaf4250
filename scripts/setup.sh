#!/usr/bin/env bash
# Installs the Debian packages tipc needs, when they are missing:
#   scripts/setup.sh          what building tipc needs: pkg-config and the system libraries it
#                             links (libyaml, SQLite, libmicrohttpd for `tipc serve`, libpq
#                             for its PostgreSQL store), and curl, which the main job talks to
#                             `tipc serve` with;
#   scripts/setup.sh --tests  those, and what the tests run: Debian's own Python with its
#                             JSON Schema validator and YAML reader (python3-jsonschema,
#                             python3-yaml), used as /usr/bin/python3 whatever python3 is first
#                             on PATH (nothing comes from PyPI), SciPy and statsmodels
#                             (python3-scipy, python3-statsmodels), which the statistics'
#                             tests compare against, and a PostgreSQL server
#                             (postgresql: scripts/test.sh starts a throw-away cluster of it);
#                             Node.js and TypeScript (nodejs, node-typescript) for the
#                             JavaScript client's tests, Chromium (chromium) for the browser
#                             tests, and a virtual environment (.build/test-venv, from
#                             python3-venv) holding openapi-spec-validator from PyPI, which
#                             checks docs/openapi.yaml and the service's answers;
#                             and Neovim (neovim), whose built-in LSP client tests `tipc lsp`.
set -euo pipefail
cd "$(dirname "$0")/.."
tests=false
case "${1:-}" in
  "") ;;
  --tests) tests=true ;;
  *) echo "usage: scripts/setup.sh [--tests]" >&2; exit 2 ;;
esac
missing=()
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
pkg-config --exists yaml-0.1 2>/dev/null || missing+=(libyaml-dev)
pkg-config --exists sqlite3 2>/dev/null || missing+=(libsqlite3-dev)
pkg-config --exists libmicrohttpd 2>/dev/null || missing+=(libmicrohttpd-dev)
pkg-config --exists libpq 2>/dev/null || missing+=(libpq-dev)
command -v curl >/dev/null 2>&1 || missing+=(curl)
if $tests && ! /usr/bin/python3 -c 'import jsonschema, yaml' >/dev/null 2>&1; then
  missing+=(python3-jsonschema python3-yaml)
fi
if $tests && ! /usr/bin/python3 -c 'import scipy.stats, statsmodels.stats.proportion' >/dev/null 2>&1; then
  missing+=(python3-scipy python3-statsmodels)
fi
if $tests && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
if $tests; then
  command -v node >/dev/null 2>&1 || missing+=(nodejs)
  command -v tsc >/dev/null 2>&1 || missing+=(node-typescript)
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  /usr/bin/python3 -c 'import ensurepip' >/dev/null 2>&1 || missing+=(python3-venv)
  command -v nvim >/dev/null 2>&1 || missing+=(neovim)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 "${missing[@]}"
fi

if $tests; then
  venv=.build/test-venv
  if ! "$venv/bin/python" -c 'import openapi_spec_validator, yaml, jsonschema' >/dev/null 2>&1; then
    echo "creating $venv (openapi-spec-validator from PyPI)" >&2
    rm -rf "$venv"
    mkdir -p .build
    /usr/bin/python3 -m venv "$venv"
    "$venv/bin/pip" install -q "openapi-spec-validator==0.7.1" "jsonschema>=4.18,<5" "PyYAML>=6"
  fi
fi
