#!/usr/bin/env bash
# Sources at or below the box: JPEGs that no tool shrinks, where a thumbnail is a full decode,
# the colour and orientation work, and an encode. Three groups, in one run, side by side:
#
# 1. the corpus' nine Landscape files (600×450, most with Apple's Generic RGB profile and an EXIF
#    orientation) under 20 names each, at a 720-px box, one worker, the whole process:
#    `vignette thumbnail FILES --size 720 --quality 80 --jobs 1` against Pillow-SIMD's
#    `peers/throughput.py --library pillow --size 720 720 --workers 1` (timed by peers/timed.py);
# 2. the CMYK pair (one with a 557-KB profile, one without) under 40 names each, the same way;
# 3. each of those files alone under 64 names, CPU ms an image, beside libjpeg-turbo's own decode
#    and encode of it in-process (decoder/turbo_floor.c at scale 1; none for CMYK).
#
# Groups 1 and 2 alternate Vignette and Pillow-SIMD for ROUNDS (5) rounds and report medians.
#
#   Benchmarks/small-sources.sh       VIGNETTE (.build/release/vignette, built with
#                                     CLI,Video,Faces when absent); CORPUS (../shared/corpus);
#                                     ROUNDS (5); FLOOR_SECONDS (2) per file for the floor
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cd "$here/.."
corpus=${CORPUS:-../shared/corpus}
rounds=${ROUNDS:-5}
bin=${VIGNETTE:-.build/release/vignette}
simd="$here/.venv-simd/bin/python"
if [ ! -x "$bin" ]; then
  swift build -c release --static-swift-stdlib --product vignette --traits CLI,Video,Faces >&2
fi
[ -x "$simd" ] || { echo "needs Pillow-SIMD's venv: Benchmarks/setup-venv.sh" >&2; exit 2; }
out=$(mktemp -d); trap 'rm -rf "$out"' EXIT
clang -O2 -o "$out/turbo_floor" "$here/decoder/turbo_floor.c" -lturbojpeg

landscapes=() cmyk=(Channel_digital_image_CMYK_color.jpg Channel_digital_image_CMYK_color_no_profile.jpg)
for n in 1 2 3 4 5 6 7 8 9; do landscapes+=("Landscape_$n.jpg"); done
names() { # folder copies file... → links to each file under `copies` names
  local folder=$1 copies=$2; shift 2
  mkdir -p "$folder"
  for file in "$@"; do
    for copy in $(seq 1 "$copies"); do ln -s "$(realpath "$corpus/$file")" "$folder/${file%.jpg}-$copy.jpg"; done
  done
}
names "$out/landscape" 20 "${landscapes[@]}"
names "$out/cmyk" 40 "${cmyk[@]}"
for file in "${landscapes[@]}" "${cmyk[@]}"; do names "$out/one/${file%.jpg}" 64 "$file"; done

results="$out/results.jsonl"
run() { # label images command... (once untimed: the page cache, the binaries' pages)
  local label=$1 images=$2; shift 2
  rm -rf "$out/thumbs" && mkdir -p "$out/thumbs"
  "$@" >/dev/null 2>&1 || true
  rm -rf "$out/thumbs" && mkdir -p "$out/thumbs"
  python3 "$here/peers/timed.py" "$label" 1 "$images" "$@" >> "$results"
}
vignette() { run "Vignette|$1" "$2" "$bin" thumbnail "${@:3}" --size 720 --quality 80 --jobs 1 --out "$out/thumbs"; }
pillow() { run "Pillow-SIMD|$1" "$2" "$simd" "$here/peers/throughput.py" --library pillow --size 720 720 --workers 1 --out "$out/thumbs" "${@:3}"; }

for round in $(seq 1 "$rounds"); do
  echo "small-sources: round $round of $rounds" >&2
  for group in landscape cmyk; do
    files=("$out/$group"/*.jpg)
    vignette "$group" "${#files[@]}" "${files[@]}"
    pillow "$group" "${#files[@]}" "${files[@]}"
  done
done
echo "small-sources: each file under 64 names, and libjpeg-turbo's floor" >&2
floors="$out/floors.jsonl"
for file in "${landscapes[@]}" "${cmyk[@]}"; do
  files=("$out/one/${file%.jpg}"/*.jpg)
  vignette "file:$file" 64 "${files[@]}"
  pillow "file:$file" 64 "${files[@]}"
  if [[ $file != *CMYK* ]]; then
    "$out/turbo_floor" "$corpus/$file" "${FLOOR_SECONDS:-2}" 720 720 1 "$file" >> "$floors" || true
  fi
done

python3 - "$results" "$floors" "$(uname -m)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)" "$(nproc)" \
  "$(uptime | sed 's/.*load average: //')" <<'PY'
import json, statistics, sys
results, floors, arch, cpu, cores, load = sys.argv[1:7]
rows = [json.loads(line) for line in open(results)]
floor = {}
for line in open(floors):
    entry = json.loads(line)
    floor[entry["tool"]] = 1000 / entry["ops_per_sec"]
def cases(prefix):
    found = {}
    for row in rows:
        tool, case = row["tool"].split("|", 1)
        if case.startswith(prefix) or case == prefix:
            found.setdefault(case, {}).setdefault(tool, []).append(row)
    return found
print(f"Machine: {cpu}, {cores} cores ({arch}); load average at the end {load}\n")
print("| files | Vignette images/s (CPU ms an image) | Pillow-SIMD images/s (CPU ms) | ratio (wall) | ratio (CPU) |")
print("|---|---:|---:|---:|---:|")
for case in ("landscape", "cmyk"):
    runs = cases(case)[case]
    v, p = runs["Vignette"], runs["Pillow-SIMD"]
    vr = statistics.median(r["images_per_sec"] for r in v); pr = statistics.median(r["images_per_sec"] for r in p)
    vc = statistics.median(r["cpu_ms_per_image"] for r in v); pc = statistics.median(r["cpu_ms_per_image"] for r in p)
    bad = [r for r in v + p if r["status"] != 0]
    name = {"landscape": "9 Landscape × 20, 720 box", "cmyk": "CMYK pair × 40, 720 box"}[case]
    print(f"| {name} | {vr:.1f} ({vc:.2f}) | {pr:.1f} ({pc:.2f}) | **{vr / pr:.2f}×** | {pc / vc:.2f}× |" + (" (a run failed)" if bad else ""))
print("\n| file (× 64, one process) | Vignette CPU ms | Pillow-SIMD CPU ms | libjpeg-turbo's floor ms | Vignette / floor |")
print("|---|---:|---:|---:|---:|")
for case, tools in sorted(cases("file:").items()):
    name = case[5:]
    v = tools["Vignette"][0]["cpu_ms_per_image"]; p = tools["Pillow-SIMD"][0]["cpu_ms_per_image"]
    f = floor.get(name)
    print(f"| {name} | {v:.2f} | {p:.2f} | " + (f"{f:.2f} | {v / f:.2f}× |" if f else "– | – |"))
PY
