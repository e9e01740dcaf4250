#!/usr/bin/env bash
# Builds the release archive dist/tipc-VERSION-linux-ARCH.tar.gz (docs/install.md):
#   tipc        the Swift runtime and Foundation linked in (--static-swift-stdlib), and libyaml
#               and SQLite linked in from Debian's static archives (libyaml-dev,
#               libsqlite3-dev): it needs nothing but the C library;
#   tipc-serve  the tip service, which `tipc serve` runs; the Swift runtime, Foundation,
#               libyaml and SQLite linked in alike, libmicrohttpd and libpq linked dynamically
#               (the machine needs libmicrohttpd12 and libpq5).
# Prints the archive's path. The build has a folder of its own (.build/package), so that it
# leaves the debug build alone and a second run reuses the first.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh >&2

scratch=.build/package
# A folder holding only the static archives: searched before the system's folders, it makes
# the linker take libyaml.a and libsqlite3.a for `-lyaml` and `-lsqlite3` (the shared
# libraries beside them in the system's folder are never reached).
static_libraries="$PWD/$scratch/static-libraries"
mkdir -p "$static_libraries"
for pair in yaml-0.1:libyaml.a sqlite3:libsqlite3.a; do
  archive="$(pkg-config --variable=libdir "${pair%%:*}")/${pair##*:}"
  [ -f "$archive" ] || { echo "package.sh: no static archive '$archive' (is ${pair%%:*}'s -dev package installed?)" >&2; exit 1; }
  ln -sf "$archive" "$static_libraries/${pair##*:}"
done

build=(swift build -c release --scratch-path "$scratch" --static-swift-stdlib -Xlinker -L"$static_libraries")
"${build[@]}" --product tipc >&2
"${build[@]}" --product tipc-serve >&2
bin="$("${build[@]}" --show-bin-path)"

# The version is the one `tipc --version` prints.
version="$("$bin/tipc" --version | awk '{print $2}')"
name="tipc-$version-linux-$(uname -m)"
stage="$scratch/stage/$name"
rm -rf "$scratch/stage"
mkdir -p "$stage" dist
cp "$bin/tipc" "$bin/tipc-serve" "$stage/"
strip "$stage/tipc" "$stage/tipc-serve"
[ -f LICENSE ] && cp LICENSE "$stage/"
# Reproducible archive: sorted names, fixed owner and time.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -C "$scratch/stage" -czf "dist/$name.tar.gz" "$name"
echo "dist/$name.tar.gz"
