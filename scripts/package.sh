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
# The static archives are chosen through pkg-config, which SwiftPM reads for the system
# libraries: copies of the four .pc files whose `Libs:` name no system folder (SwiftPM would put
# it first on the linker's search path), libyaml's and SQLite's naming instead a folder holding
# only the static archives (links to Debian's), so `-lyaml` and `-lsqlite3` find libyaml.a and
# libsqlite3.a there before the shared libraries. libstdc++.a is in that folder too, for the
# `-lstdc++` of the static Swift runtime. The module maps stay as a source build wants them.
static_libraries="$PWD/$scratch/static-libraries"
pkgconfig="$PWD/$scratch/pkgconfig"
mkdir -p "$static_libraries" "$pkgconfig"
link_static() {
  [ -f "$1" ] || { echo "package.sh: no static archive '$1' (is its -dev package installed?)" >&2; exit 1; }
  ln -sf "$1" "$static_libraries/$(basename "$1")"
}
link_static "$(pkg-config --variable=libdir yaml-0.1)/libyaml.a"
link_static "$(pkg-config --variable=libdir sqlite3)/libsqlite3.a"
link_static "$(g++ -print-file-name=libstdc++.a 2>/dev/null || clang++ -print-file-name=libstdc++.a)"
for package in yaml-0.1 sqlite3 libpq libmicrohttpd; do
  case $package in
    yaml-0.1 | sqlite3) search="-L$static_libraries " ;;
    *) search="" ;;
  esac
  sed -e "s|^Libs: -L\${libdir} |Libs: $search|" "$(pkg-config --variable=pcfiledir "$package")/$package.pc" > "$pkgconfig/$package.pc"
  grep -q "^Libs: $search-l" "$pkgconfig/$package.pc" || { echo "package.sh: unexpected Libs line in $package.pc" >&2; exit 1; }
done
export PKG_CONFIG_PATH="$pkgconfig"

build=(swift build -c release --scratch-path "$scratch" --static-swift-stdlib)
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
