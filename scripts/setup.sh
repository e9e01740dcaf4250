#!/usr/bin/env bash
# Installs the Debian packages tipc needs, when they are missing:
#   scripts/setup.sh          what building tipc needs: pkg-config and the system libraries it
#                             links (libyaml, SQLite, libmicrohttpd for `tipc serve`, libpq
#                             for its PostgreSQL store), and curl, which the main job talks to
#                             `tipc serve` with;
#   scripts/setup.sh --tests  those, and what the tests run: Debian's own Python with its
#                             JSON Schema validator and YAML reader (python3-jsonschema,
#                             python3-yaml), used as /usr/bin/python3 whatever python3 is first
#                             on PATH (nothing comes from PyPI), and a PostgreSQL server
#                             (postgresql: scripts/test.sh starts a throw-away cluster of it),
#                             and Neovim (neovim), whose built-in LSP client tests `tipc lsp`.
set -euo pipefail
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
if $tests && ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
  missing+=(postgresql)
fi
if $tests && ! command -v nvim >/dev/null 2>&1; then
  missing+=(neovim)
fi
if [ ${#missing[@]} -gt 0 ]; then
  echo "installing: ${missing[*]}" >&2
  sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq -o Dpkg::Use-Pty=0 "${missing[@]}"
fi
