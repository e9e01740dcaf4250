#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for the tests, in a folder of its own, reachable only through
# a Unix socket in that folder (no TCP port, so runs never collide), trusting local users.
#
#   scripts/postgres-test-cluster.sh start DIR     create the cluster in DIR (new or empty) and start it;
#                                                  prints its URL (postgres:///postgres?host=DIR&user=tipc)
#   scripts/postgres-test-cluster.sh stop DIR [immediate]
#                                                  stop it (fast: open transactions roll back;
#                                                  immediate: as a crash, recovered at the next start)
#   scripts/postgres-test-cluster.sh start-again DIR  start a stopped cluster again
#   scripts/postgres-test-cluster.sh remove DIR    stop it (and clusters in DIR's subfolders) if running,
#                                                  and delete DIR
#   scripts/postgres-test-cluster.sh sweep         remove the clusters of runs that died without
#                                                  cleaning up (their runner.pid is not alive)
#
# PostgreSQL refuses to run as root: as root, the cluster belongs to a system user `tipcpg`
# (created when missing); otherwise to the user running the script. Debian's server binaries
# are found in /usr/lib/postgresql/*/bin.
set -euo pipefail

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1 || true)
if [ -z "$bin" ] && command -v pg_ctl >/dev/null 2>&1; then bin=$(dirname "$(command -v pg_ctl)"); fi
if [ -z "$bin" ]; then
  echo "error: no PostgreSQL server found (install it with scripts/setup.sh --tests)" >&2
  exit 2
fi

as_owner() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u tipcpg -- "$@"; else "$@"; fi
}

options() {  # the server's options for cluster $1
  echo "-k $1 -c listen_addresses= -c max_connections=200 -c shared_buffers=32MB"
}

case "${1:-}" in
  start)
    dir=${2:?usage: $0 start DIR}
    mkdir -p "$dir"
    if [ "$(id -u)" -eq 0 ]; then
      id tipcpg >/dev/null 2>&1 || useradd --system --no-create-home --shell /usr/sbin/nologin tipcpg
      chown tipcpg "$dir"
    fi
    as_owner "$bin/initdb" -D "$dir/data" -U tipc --auth=trust --no-sync --encoding=UTF8 --locale=C >"$dir/initdb.log" 2>&1 \
      || { cat "$dir/initdb.log" >&2; exit 1; }
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$(options "$dir")" start >/dev/null \
      || { cat "$dir/server.log" >&2; exit 1; }
    echo "postgres:///postgres?host=$dir&user=tipc"
    ;;
  stop)
    dir=${2:?usage: $0 stop DIR [immediate]}
    as_owner "$bin/pg_ctl" -D "$dir/data" -m "${3:-fast}" -w stop >/dev/null
    ;;
  start-again)
    dir=${2:?usage: $0 start-again DIR}
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o "$(options "$dir")" start >/dev/null
    ;;
  remove)
    dir=${2:?usage: $0 remove DIR}
    for data in "$dir"/data "$dir"/*/data; do
      if [ -f "$data/postmaster.pid" ]; then
        as_owner "$bin/pg_ctl" -D "$data" -m immediate -w stop >/dev/null 2>&1 || true
      fi
    done
    rm -rf "$dir"
    ;;
  sweep)
    for dir in "${TMPDIR:-/tmp}"/tipc-pg.*; do
      [ -d "$dir" ] || continue
      runner=$(cat "$dir/runner.pid" 2>/dev/null || echo "")
      if [ -n "$runner" ] && kill -0 "$runner" 2>/dev/null; then continue; fi
      "$0" remove "$dir"
    done
    ;;
  *)
    echo "usage: $0 start DIR | stop DIR | start-again DIR | remove DIR | sweep" >&2
    exit 2
    ;;
esac
