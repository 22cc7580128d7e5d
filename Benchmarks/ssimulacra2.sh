#!/usr/bin/env bash
# SSIMULACRA 2.1: Vignette's (CVignetteMetrics, through Tests/CChecks/ssimulacra2_check.c built
# with cc -O2) beside libjxl's own `ssimulacra2` (Debian 13's libjxl-devtools 0.11, through
# Scripts/ssimulacra2-reference.sh), both pinned to one CPU (taskset), on the corpus photo cropped
# to 720x480 and to 2000x1500, against six candidates (JPEG Q30, 45, 60, 75, 90 and WebP Q60). Every
# file is decoded once by libvips to PAM (Scripts/ssimulacra2-pam.sh), which both tools read, so
# neither pays a JPEG decode.
#
#   per pair     one process each scoring the Q60 JPEG (read two PAMs, prepare, score)
#   6 candidates the quality search's case: libjxl's tool run six times (it has no way to keep a
#                reference), Vignette's in one process that prepares the reference once
#   in process   Vignette's own timings of one process (--time): the preparation, and the median
#                score, on the AVX2 path and on the scalar one
#
#   Benchmarks/ssimulacra2.sh        RUNS (7) runs of each, interleaved; medians in milliseconds
#
# Prints a Markdown table on stdout. Needs ../shared/corpus (or CORPUS) and libvips-tools.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo"
runs="${RUNS:-7}"
photo="${CORPUS:-$repo/../shared/corpus}/2569067123_aca715a2ee_o.jpg"
[[ -f "$photo" ]] || { echo "ssimulacra2: $photo is missing" >&2; exit 0; }
reference="$(Scripts/ssimulacra2-reference.sh --path)" || { echo "ssimulacra2: no reference tool" >&2; exit 77; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
metrics=CSystemShims/CVignetteMetrics
cc -O2 -std=c11 -I "$metrics/include" "$metrics"/*.c Tests/CChecks/ssimulacra2_check.c -lm -lpthread -o "$work/vignette"

# COMMAND...: milliseconds it ran.
elapsed() {
    local start end
    start="$(date +%s%N)"
    "$@" > /dev/null 2>&1
    end="$(date +%s%N)"
    echo $(((end - start) / 1000000))
}
median() { sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "| size | case | libjxl ssimulacra2 (ms) | Vignette (ms) | ratio |"
echo "|---|---|---:|---:|---:|"
for size in 720x480 2000x1500; do
    width="${size%x*}" height="${size#*x}"
    echo "== $size: making the pairs" >&2
    vips thumbnail "$photo" "$work/ref.png" "$width" --height "$height" --crop centre
    Scripts/ssimulacra2-pam.sh "$work/ref.png" "$work/ref.pam"
    candidates=()
    for q in 30 45 60 75 90; do
        vips copy "$work/ref.png" "$work/q$q.jpg[Q=$q,strip]"
        Scripts/ssimulacra2-pam.sh "$work/q$q.jpg" "$work/q$q.pam"
        candidates+=("$work/q$q.pam")
    done
    vips copy "$work/ref.png" "$work/w60.webp[Q=60,strip]"
    Scripts/ssimulacra2-pam.sh "$work/w60.webp" "$work/w60.pam"
    candidates+=("$work/w60.pam")

    six_references() { # libjxl's tool, once per candidate
        local candidate
        # shellcheck disable=SC2086 # the reference command is words by design
        for candidate in "${candidates[@]}"; do taskset -c 0 $reference "$work/ref.pam" "$candidate"; done
    }
    : > "$work/pair-ref" ; : > "$work/pair-ours" ; : > "$work/six-ref" ; : > "$work/six-ours"
    echo "== $size: $runs runs of each, interleaved" >&2
    for _ in $(seq "$runs"); do
        # shellcheck disable=SC2086
        elapsed taskset -c 0 $reference "$work/ref.pam" "$work/q60.pam" >> "$work/pair-ref"
        elapsed taskset -c 0 "$work/vignette" "$work/ref.pam" "$work/q60.pam" >> "$work/pair-ours"
        elapsed six_references >> "$work/six-ref"
        elapsed taskset -c 0 "$work/vignette" "$work/ref.pam" "${candidates[@]}" >> "$work/six-ours"
    done
    row() { # CASE REFERENCE-FILE OURS-FILE
        local a b
        a="$(median < "$2")" b="$(median < "$3")"
        echo "| $size | $1 | $a | $b | $(awk -v a="$a" -v b="$b" 'BEGIN { printf "%.1f×", a / b }') |"
    }
    row "one pair, whole process" "$work/pair-ref" "$work/pair-ours"
    row "one reference, 6 candidates" "$work/six-ref" "$work/six-ours"
    for path in avx2 scalar; do
        : > "$work/prepare" ; : > "$work/score"
        for _ in $(seq "$runs"); do
            taskset -c 0 "$work/vignette" --"$path" --time "$work/ref.pam" "${candidates[@]}" 2>&1 >/dev/null |
                awk -v p="$work/prepare" -v s="$work/score" '/^prepare/ { print $2 >> p } /^score/ { print $2 >> s }'
        done
        echo "| $size | Vignette in process, $path: prepare / one score | | $(median < "$work/prepare") / $(median < "$work/score") | |"
    done
done
echo >&2 "machine: $(lscpu | sed -n 's/^Model name: *//p'), $(nproc) CPUs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
