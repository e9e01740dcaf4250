#!/usr/bin/env bash
# Builds the fuzz executable (tipc-fuzz, every target) with libFuzzer and AddressSanitizer and
# runs one target.
#
#   scripts/fuzz.sh TARGET SECONDS [libFuzzer options...]
#
# TARGET is FuzzManifest, FuzzRuleLanguage, FuzzSwiftImport, FuzzPack or FuzzPackMutation. The committed seeds
# are read: the files in Fuzz/corpus/TARGET and the repository's files listed in Fuzz/seeds/TARGET.txt; new inputs go to .build/fuzz-corpus/TARGET and crashes to
# .build/fuzz-artifacts/TARGET. Builds live in .build/fuzz so the ordinary build is untouched.
# One process (libFuzzer's default: no -jobs/-workers fork mode), as the machine is shared.
set -euo pipefail
cd "$(dirname "$0")/.."

if [[ $# -lt 2 ]]; then
    echo "usage: scripts/fuzz.sh FuzzManifest|FuzzRuleLanguage|FuzzSwiftImport|FuzzPack|FuzzPackMutation SECONDS [libFuzzer options...]" >&2
    exit 2
fi
target=$1
seconds=$2
shift 2
case "$target" in
    FuzzManifest|FuzzRuleLanguage|FuzzSwiftImport) max_len=16384 ;;
    FuzzPack|FuzzPackMutation) max_len=8192 ;;
    *) echo "unknown fuzz target '$target'" >&2; exit 2 ;;
esac

# `--sanitize=fuzzer --sanitize=address` reaches the compiler as two `-sanitize=` flags, of which
# only the last counts: the code would have no coverage instrumentation. One combined flag keeps
# both; `--sanitize=fuzzer` stays so that SwiftPM compiles the target as a library (no `main`).
# -DFUZZING compiles out the replaying @main: libFuzzer provides main.
swift build --sanitize=fuzzer -Xswiftc -sanitize=fuzzer,address -Xswiftc -DFUZZING \
    --scratch-path .build/fuzz --product tipc-fuzz

corpus=".build/fuzz-corpus/$target"
artifacts=".build/fuzz-artifacts/$target"
mkdir -p "$corpus" "$artifacts"

# The seeds: the committed corpus and the listed fixtures (copied, since libFuzzer reads folders).
seeds=".build/fuzz-seeds/$target"
rm -rf "$seeds" && mkdir -p "$seeds"
if [[ -d "Fuzz/corpus/$target" ]]; then cp Fuzz/corpus/"$target"/* "$seeds"/; fi
if [[ -f "Fuzz/seeds/$target.txt" ]]; then
    n=0
    while IFS= read -r path; do
        [[ -z "$path" || "$path" == \#* ]] && continue
        n=$((n + 1))
        cp "$path" "$seeds/listed-$n-$(basename "$path")"
    done < "Fuzz/seeds/$target.txt"
fi

export SWIFT_BACKTRACE=enable=no
export TIPC_FUZZ_TARGET="$target"
exec .build/fuzz/debug/tipc-fuzz \
    -max_total_time="$seconds" -max_len="$max_len" -timeout=20 -rss_limit_mb=2048 \
    -print_final_stats=1 -artifact_prefix="$artifacts/" "$@" \
    "$corpus" "$seeds"
