#!/usr/bin/env bash
# Two builds of `vignette` on the corpus batch, side by side in one hyperfine run (--jobs 1 and 2),
# and whether their outputs are the same bytes. For changes to the CLI's path from input to file:
#
#   Benchmarks/compare-cli.sh BEFORE/vignette AFTER/vignette [SIZE]
#
# Build the "before" binary from another checkout (git worktree add --detach ../before REV; cd
# ../before; swift build -c release --traits CLI --product vignette). The corpus batch is run.sh's: every
# loadable MANIFEST.tsv image but the 65536² PNG bomb. BENCH_BATCH_RUNS runs each (default 5).
set -euo pipefail
before="${1:?usage: compare-cli.sh BEFORE AFTER [SIZE]}"
after="${2:?usage: compare-cli.sh BEFORE AFTER [SIZE]}"
size="${3:-256}"
runs="${BENCH_BATCH_RUNS:-5}"
here="$(cd "$(dirname "$0")" && pwd)"
corpus="${CORPUS:-$here/../../shared/corpus}"
if [[ ! -f "$corpus/MANIFEST.tsv" ]]; then
    echo "compare-cli.sh: no corpus at $corpus (set CORPUS)" >&2
    exit 0
fi
mapfile -t files < <(awk -F'\t' -v dir="$corpus" \
    'NR > 1 && $NF !~ /^ERROR/ && $4 !~ /fails with fail_on/ && $1 != "65536-uint32-limit.png" { print dir "/" $1 }' \
    "$corpus/MANIFEST.tsv")
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
quoted="$(printf '%q ' "${files[@]}")"

echo "== outputs: ${#files[@]} images to ${size} px, --jobs 2, by each build" >&2
for build in before after; do
    binary="$before"; [[ $build == after ]] && binary="$after"
    mkdir -p "$work/$build"
    "$binary" thumbnail "${files[@]}" --size "$size" --out "$work/$build" --jobs 2 > /dev/null 2>&1 || true
done
if diff -r "$work/before" "$work/after" > "$work/diff.txt"; then
    echo "identical: $(find "$work/after" -type f | wc -l) files, byte for byte"
else
    echo "DIFFERENT outputs:"; cat "$work/diff.txt"
fi

echo "== hyperfine, $runs runs each (1 warm-up)" >&2
hyperfine --style basic --shell=bash -i --warmup 1 --runs "$runs" --export-markdown "$work/table.md" \
    --prepare "rm -rf '$work/out' && mkdir -p '$work/out'" \
    -n "before --jobs 1" "'$before' thumbnail $quoted --size $size --out '$work/out' --jobs 1" \
    -n "after --jobs 1" "'$after' thumbnail $quoted --size $size --out '$work/out' --jobs 1" \
    -n "before --jobs 2" "'$before' thumbnail $quoted --size $size --out '$work/out' --jobs 2" \
    -n "after --jobs 2" "'$after' thumbnail $quoted --size $size --out '$work/out' --jobs 2" >&2
cat "$work/table.md"
