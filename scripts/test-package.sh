#!/usr/bin/env bash
# The release archive's test: builds it (scripts/package.sh; a second run reuses the first
# build), unpacks it, checks with ldd that `tipc` needs only the C library's parts, then, in a
# mount namespace where the Swift toolchain's folder is hidden under an empty tmpfs, lints and
# compiles the examples with the unpacked `tipc` and asks `tipc serve` for its help (which runs
# the unpacked `tipc-serve`). Needs root (unshare -m, mount).
set -euo pipefail
cd "$(dirname "$0")/.."
archive=$(scripts/package.sh)
work=$(mktemp -d "${TMPDIR:-/tmp}/tipc-package.XXXXXX")
trap 'rm -rf "$work"' EXIT
tar -xzf "$archive" -C "$work"
bin=$(echo "$work"/tipc-*)
fail() { echo "test-package: $*" >&2; exit 1; }

# What ldd may list for tipc: the C library's parts, and libgcc_s (GCC's unwinder, which the C
# library itself loads to cancel threads, so every glibc system has it). Nothing else: not the
# Swift runtime, Foundation, libstdc++, libyaml or SQLite.
allowed='^(linux-vdso\.so\.1|linux-gate\.so\.1|libc\.so\.6|libm\.so\.6|libpthread\.so\.0|libdl\.so\.2|librt\.so\.1|ld-linux[-a-z0-9_.]*\.so\.[0-9]+|libgcc_s\.so\.1)$'
needed=$(ldd "$bin/tipc" | awk '{print $1}' | sed 's|.*/||')
echo "tipc needs: $(echo $needed)"
for library in $needed; do
  [[ $library =~ $allowed ]] || fail "tipc needs $library, which is not part of the C library"
done
serve_needs=$(ldd "$bin/tipc-serve" | awk '{print $1}' | sed 's|.*/||')
echo "tipc-serve needs: $(echo $serve_needs)"
if grep -q -i 'swift\|foundation\|dispatch\|yaml\|sqlite\|stdc++' <<<"$serve_needs"; then
  fail "tipc-serve needs the Swift runtime, libstdc++, libyaml or SQLite"
fi

# The toolchain's folder: the one above the `usr` of `swift`'s real path (/opt/swift here).
toolchain=$(cd "$(dirname "$(readlink -f "$(command -v swift)")")/../.." && pwd)
case "$toolchain" in
  / | /usr) fail "the Swift toolchain is installed in '$toolchain', which cannot be hidden" ;;
esac
runtime=$(dirname "$(find "$toolchain" -name libswiftCore.so -path '*linux*' -print -quit)")
[ -f "$runtime/libswiftCore.so" ] || fail "no Swift runtime under '$toolchain'"
out="$work/out"
mkdir -p "$out"
unshare -m bash -euo pipefail -c '
  toolchain=$1 runtime=$2 bin=$3 out=$4
  mount -t tmpfs tmpfs "$toolchain"
  if [ -e "$runtime/libswiftCore.so" ]; then echo "the Swift runtime is still visible" >&2; exit 1; fi
  "$bin/tipc" --version
  "$bin/tipc" check Examples
  for app in news photo-privacy backyard-birds hiking backyard-birds-swift; do
    "$bin/tipc" compile "Examples/$app" -o "$out/$app.tippack"
    "$bin/tipc" inspect "$out/$app.tippack" > /dev/null
  done
  "$bin/tipc" simulate "$out/news.tippack" --timeline Examples/news/news.timeline.yaml > /dev/null
  "$bin/tipc" serve --help | grep -q -- "--pack"
' test-package "$toolchain" "$runtime" "$bin" "$out"

# The README's install line, as written, with a scratch folder for /usr/local/bin.
install_line=$(grep -m1 '^tar -xzf tipc-' README.md)
[ -n "$install_line" ] || fail "the README has no install line for the archive"
mkdir -p "$work/readme/bin"
cp "$archive" "$work/readme/$(basename "$archive")"
( cd "$work/readme" && bash -euo pipefail -c "${install_line//\/usr\/local\/bin\//$work/readme/bin/}" )
"$work/readme/bin/tipc" --version | grep -q "$(basename "$archive" | sed 's/^tipc-\([0-9.]*\)-.*/\1/')" || fail "the README's install line did not install this tipc"
[ -x "$work/readme/bin/tipc-serve" ] || fail "the README's install line did not install tipc-serve"
echo "test-package: $archive runs without $toolchain; tipc needs only the C library"
