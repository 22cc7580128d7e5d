#!/usr/bin/env bash
# Animated crop against animated fill (issue 53): milliseconds per frame of `vignette thumbnail`
# on a 100-frame GIF and a 30-frame WebP made from a photo, for a crop before the resize
# (c:300:200/rs:fit:150:100, which decodes the source whole) and a fill of the same frames
# (rs:fill:150:100), with the build BEFORE (main's, which gives one still frame for the crop) and
# AFTER (this branch's, which keeps every frame), beside pyvips cropping each page of the same file
# (load n=-1, crop every page with one window, resize, join, save). Runs alternate over ROUNDS
# rounds; the median of each is printed as a Markdown table. Vignette's time is the input's own
# (`--json` "ms": load, decode, process, encode, write), pyvips' the same work timed in-process.
#
#   BEFORE=/work/main/.build/release/vignette AFTER=.build/release/vignette Benchmarks/animated-crop.sh
#
# Needs ffmpeg (libwebp_anim), the benchmark venv (Benchmarks/setup-venv.sh: pyvips) and a photo
# (PHOTO, default ../shared/corpus/Landscape_1.jpg, 600×450).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
photo="${PHOTO:-$here/../../shared/corpus/Landscape_1.jpg}"
rounds="${ROUNDS:-5}"
python="${PYTHON:-$here/.venv/bin/python}"
: "${BEFORE:?BEFORE=path of the old vignette binary}" "${AFTER:?AFTER=path of the new vignette binary}"
[[ -f $photo ]] || { echo "animated-crop: no photo at $photo (PHOTO=...)" >&2; exit 1; }
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# A window panning over the photo, 480×360: 100 frames of GIF, 30 of WebP.
pan="crop=480:360:x='min(120,n*1.2)':y='min(90,n*0.9)'"
ffmpeg -v error -loop 1 -i "$photo" -vf "$pan" -frames:v 100 -r 25 "$work/pan.gif"
ffmpeg -v error -loop 1 -i "$photo" -vf "$pan" -frames:v 30 -r 25 -c:v libwebp_anim -quality 80 -loop 0 "$work/pan.webp"

cat > "$work/pyvips_crop.py" <<'PY'
import sys, time, pyvips
pyvips.cache_set_max(0)
path, fmt, operation = sys.argv[1], sys.argv[2], sys.argv[3]
start = time.perf_counter()
image = pyvips.Image.new_from_file(path, n=-1, access="sequential")
height = image.get("page-height")
pages = image.height // height
frames = []
for page in range(pages):
    frame = image.crop(0, page * height, image.width, height)
    if operation == "crop":
        frame = frame.crop((frame.width - 300) // 2, (frame.height - 200) // 2, 300, 200).resize(0.5)
    else:
        frame = frame.thumbnail_image(150, height=100, crop="centre")
    frames.append(frame)
strip = pyvips.Image.arrayjoin(frames, across=1).copy()
strip.set_type(pyvips.GValue.gint_type, "page-height", frames[0].height)
strip.write_to_file(f"{path}.pyvips.{fmt}")
print(pages, time.perf_counter() - start)
PY

declare -A options=([crop]="c:300:200/rs:fit:150:100" [fill]="rs:fill:150:100")
results="$work/results"
for round in $(seq 1 "$rounds"); do
  for input in pan.gif pan.webp; do
    format="${input##*.}"
    frames=$([[ $format == gif ]] && echo 100 || echo 30)
    for operation in crop fill; do
      for which in before after; do
        binary=$BEFORE; [[ $which == after ]] && binary=$AFTER
        out="$work/out-$which-$operation"
        rm -rf "$out"
        # The input's own time from --json (the work, not the process start).
        ms=$("$binary" thumbnail --json --options "${options[$operation]}/f:$format" --out "$out" "$work/$input" \
          | python3 -c 'import json, sys; print(json.load(sys.stdin)["results"][0]["ms"])')
        kept=$(vipsheader -f n-pages "$out"/* 2>/dev/null || echo 1)
        echo "$input $operation vignette-$which $kept $(echo "$ms / $frames" | bc -l)" >> "$results"
      done
      line=$("$python" "$work/pyvips_crop.py" "$work/$input" "$format" "$operation")
      echo "$input $operation pyvips ${line% *} $(echo "${line#* } * 1000 / $frames" | bc -l)" >> "$results"
    done
  done
done
python3 - "$results" <<'PY'
import statistics, sys
runs = {}
for text in open(sys.argv[1]):
    source, operation, tool, kept, ms = text.split()
    runs.setdefault((source, operation, tool), []).append((int(kept), float(ms)))
print("| source | operation | tool | frames out | ms per source frame (median) |")
print("|---|---|---|---|---|")
for (source, operation, tool), values in sorted(runs.items()):
    print(f"| {source} | {operation} | {tool} | {values[0][0]} | {statistics.median(v[1] for v in values):.2f} |")
PY
