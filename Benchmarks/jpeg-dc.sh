#!/usr/bin/env bash
# The JPEG DC paths (issue 25), in-process, on and off: 256-px thumbnails (JPEG Q80, Lanczos 3, one
# thread) of the benchmark photo and of its progressive twin, and sharp's task (720x588, which
# decodes at 1/2 and so never takes a DC path) as a check that nothing else got slower; beside
# Pillow-SIMD (Benchmarks/.venv-simd) when it is there. Prints a Markdown section on stdout.
#
#   Benchmarks/jpeg-dc.sh        BENCH_SECONDS (5) per case, BENCH_ROUNDS (3) rounds, interleaved
#
# The twin is made here with `jpegtran -progressive` (lossless: the same coefficients, so the same
# 1/8 planes) and is not kept; the script checks that the two 256-px thumbnails are byte-identical.
# SKIP_BUILD=1 uses the existing release VignetteBench. Needs ../shared/corpus (or CORPUS).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
cd "$repo"
seconds="${BENCH_SECONDS:-5}"
rounds="${BENCH_ROUNDS:-3}"
input="${CORPUS:-$repo/../shared/corpus}/2569067123_aca715a2ee_o.jpg"
[[ -f "$input" ]] || { echo "jpeg-dc: $input is missing" >&2; exit 0; }
command -v jpegtran >/dev/null || { echo "jpeg-dc: jpegtran is missing (apt-get install libjpeg-turbo-progs)" >&2; exit 1; }
if [[ "${SKIP_BUILD:-0}" != 1 ]]; then
    swift build --package-path "$here" -c release --static-swift-stdlib --product VignetteBench >&2
fi
bench="$(swift build --package-path "$here" -c release --static-swift-stdlib --show-bin-path)/VignetteBench"
simd="$here/.venv-simd/bin/python"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
twin="$out/twin.jpg"
jpegtran -progressive -outfile "$twin" "$input"

results="$out/results.jsonl"
# timed COMMAND...: the command's JSON line with "cpu_seconds" (user + system, from /usr/bin/time)
# added, appended to $results: ops per CPU-second is the rate per core, which other work on the
# machine disturbs less than the wall-clock rate.
timed() {
    local line cpu
    line="$(/usr/bin/time -f '%U %S' -o "$out/time" "$@")"
    cpu="$(awk '{ print $1 + $2 }' "$out/time")"
    echo "{\"cpu_seconds\":$cpu,${line#\{}" >> "$results"
}
for round in $(seq 1 "$rounds"); do
    for source in baseline progressive; do
        file="$input"; [[ $source = progressive ]] && file="$twin"
        for fast in 1 0; do
            echo "jpeg-dc: round $round, $source, fast DC $fast" >&2
            timed env VIGNETTE_THREADS=1 VIGNETTE_JPEG_FAST_DC=$fast "$bench" jpeg-task --input "$file" --seconds "$seconds" \
                --width 256 --height 256 --tool "vignette 256 px, $source, DC paths $([[ $fast = 1 ]] && echo on || echo off)" \
                --output "$out/$source-$fast.jpg"
        done
        if [[ -x "$simd" ]]; then
            timed "$simd" "$here/peers/pillow_jpeg.py" --tool "Pillow-SIMD 256 px, $source" --input "$file" --seconds "$seconds" \
                --width 256 --height 256
        fi
    done
    for fast in 1 0; do
        timed env VIGNETTE_THREADS=1 VIGNETTE_JPEG_FAST_DC=$fast "$bench" jpeg-task --input "$input" --seconds "$seconds" \
            --tool "vignette sharp's task (720x588, 1/2), DC paths $([[ $fast = 1 ]] && echo on || echo off)"
    done
    if [[ -x "$simd" ]]; then
        timed "$simd" "$here/peers/pillow_jpeg.py" --tool "Pillow-SIMD sharp's task" --input "$input" --seconds "$seconds"
    fi
done

same="differ"
cmp -s "$out/baseline-1.jpg" "$out/progressive-1.jpg" && cmp -s "$out/baseline-1.jpg" "$out/baseline-0.jpg" \
    && cmp -s "$out/baseline-1.jpg" "$out/progressive-0.jpg" && same="are byte-identical"
python3 - "$results" "$seconds" "$rounds" "$same" <<'PY'
import json, statistics, sys
path, seconds, rounds, same = sys.argv[1:5]
cases = {}
for line in open(path):
    row = json.loads(line)
    cases.setdefault(row["tool"], []).append((row["ops_per_sec"], row["ops"] / row["cpu_seconds"] if row["cpu_seconds"] else 0))
print("## JPEG DC paths (Benchmarks/jpeg-dc.sh)")
print()
print(f"One thread, one operation at a time, {seconds} s per case after a 1 s warm-up, {rounds} interleaved")
print("round(s); medians. Ops per CPU-second counts the timed operations over the process's whole CPU time")
print("(warm-up and start-up included, so it is a little low), the rate per core, which other work")
print("on the machine disturbs less than the wall-clock rate.")
print()
print("| case | ops/s | ops per CPU-second | ops/s in each round |")
print("|---|---:|---:|---|")
for tool, rates in cases.items():
    wall = statistics.median(r[0] for r in rates)
    cpu = statistics.median(r[1] for r in rates)
    print(f"| {tool} | {wall:.1f} | {cpu:.1f} | {', '.join(f'{r[0]:.1f}' for r in rates)} |")
print()
print(f"The 256-px thumbnails of the photo and of its progressive twin, DC paths on and off, {same}.")
PY
